import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Live results on PostgreSQL: each save is posted ("unknown": the store keeps no journal), so
/// the controller follows by itself with a refetch and diff; random inserts, updates of sort
/// and section keys and of attributes the fetch does not read, deletes and batch changes —
/// each change set applied to the previous result gives exactly the new fetch's.
@Suite struct LiveResultsTests {
    static let model = StoreTestModels.model("""
        {"name": "Live", "entities": [{"name": "Item", "attributes": [
          {"name": "serial", "type": "integer64", "optional": false}, {"name": "group", "type": "string", "optional": false},
          {"name": "rank", "type": "integer64", "optional": false}, {"name": "shown", "type": "boolean", "optional": false},
          {"name": "memo", "type": "string"}]}]}
        """)

    final class Recorder: LiveFetchControllerDelegate, @unchecked Sendable {
        var changeSets: [ResultsChangeSet] = []
        func controller(_ controller: LiveFetchController, didChange changes: ResultsChangeSet) { changeSets.append(changes) }
    }

    @Test func followsRandomSaves() async throws {
        let test = try await StoreTestDatabase.make(Self.model, label: "live")
        defer { test.database.drop() }
        let store = test.store
        var g = UniquenessDifferentialTests.Generator(state: 33)
        var serial = 0
        var ids: [ObjectID] = []
        let groups = ["a", "b", "c", "d"]
        func insert() throws {
            serial += 1
            ids.append(try store.insert(entity: "Item", id: nil, attributes: [
                "serial": .int(Int64(serial)), "group": .string(groups.randomElement(using: &g)!), "rank": .int(Int64.random(in: 0..<6, using: &g)),
                "shown": .bool(Int.random(in: 0..<4, using: &g) != 0),
            ], relationships: [:]))
        }
        for _ in 0..<20 { try insert() }
        try store.save()
        var request = try FetchRequest(statement: "Item WHERE shown == YES SORT BY group, rank, serial")
        request.sectionNameKeyPath = "group"
        request.fetchBatchSize = 8
        let controller = try LiveFetchController(store: store, request: request)
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.performFetch()
        var previous = controller.snapshot
        var kinds: Set<String> = []
        for step in 0..<150 {
            let choice = ids.count < 8 ? 0 : ids.count > 60 ? 4 : Int.random(in: 0..<7, using: &g)
            let id = ids.randomElement(using: &g)
            switch choice {
            case 0: try insert()
            case 1: if let id { try store.update(id, attributes: ["rank": .int(Int64.random(in: 0..<6, using: &g))], relationships: [:]) }
            case 2: if let id { try store.update(id, attributes: ["group": .string(groups.randomElement(using: &g)!)], relationships: [:]) }
            case 3: if let id { try store.update(id, attributes: ["memo": .string("m\(step)")], relationships: [:]) }
            case 4: if let id { try store.delete(id); ids.removeAll { $0 == id } }
            case 5:
                try store.batchUpdate(entity: "Item", predicate: PredicateNode(format: "rank < 2"), set: ["shown": .constant(.bool(step % 2 == 0))])
            default:
                try store.batchDelete(entity: "Item", predicate: PredicateNode(format: "rank == %d AND group == %@", arguments: [Int.random(in: 0..<6, using: &g), groups.randomElement(using: &g)!]))
                ids = try store.fetch(FetchRequest(entityName: "Item")).objectIDs
            }
            try store.save()
            let fetched = try ResultsSnapshot(store.fetchSections(request))
            #expect(controller.snapshot == fetched, "step \(step)")
            #expect(recorder.changeSets.count <= 1)
            if let changes = recorder.changeSets.popLast() {
                #expect(try previous.applying(changes) == fetched, "step \(step)")
                for change in changes.objectChanges { kinds.insert(change.kind.rawValue) }
            } else {
                #expect(previous == fetched, "step \(step): the result changed without a change set")
            }
            recorder.changeSets.removeAll()
            previous = fetched
        }
        #expect(kinds.isSuperset(of: ["insert", "delete", "move"]), "\(kinds)")
    }
}
