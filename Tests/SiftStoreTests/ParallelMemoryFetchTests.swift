import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// An atomic store evaluates a fetch's predicate over a large store's objects on several
/// threads (``FetchParallelism``): the results, their order and the first error are those of
/// one thread, for every result type. The store is small enough for a test; the threshold is
/// set to 0 and the ranges made short, so it is cut into many ranges on several threads. (The
/// suite is serialized: its tests switch the one store between one thread and several.)
@Suite(.serialized) struct ParallelMemoryFetchTests {
    static let count = 6_000

    static func model() throws -> DataModel {
        try DataModel(name: "Parallel", entities: [
            EntityDescription(name: "Team", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "members", destination: "Member", isToMany: true, inverse: "team")]),
            EntityDescription(name: "Member", attributes: [
                AttributeDescription(name: "n", type: .integer64),
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "pattern", type: .string),
            ], relationships: [RelationshipDescription(name: "team", destination: "Team", inverse: "members")]),
        ])
    }

    /// Teams and members interleaved (so each range holds objects of both entities); members
    /// 4,321 and 5,000 have patterns that are not regular expressions.
    static let store: AtomicStore = {
        let store = AtomicStore.inMemory(model: try! model())
        for i in 0..<count {
            if i % 10 == 0 {
                try! store.insert("Team", id: ObjectID("T\(i)"), ["name": .string("team \(i % 7)")])
            } else {
                let pattern = i == 4_321 ? "(" : i == 5_000 ? "[" : "m.*"
                try! store.insert("Member", id: ObjectID("M\(i)"), ["n": .int(Int64((i * 7_919) % 1_000)), "name": .string("m\(i)"),
                                                                    "pattern": .string(pattern)],
                                  relationships: ["team": [ObjectID("T\(i / 10 * 10)")]])
            }
        }
        try! store.save()
        return store
    }()

    static let many = FetchParallelism(jobs: 4, threshold: 0, minimumRange: 37)

    /// What `body` returns on one thread and on several.
    static func both<T>(_ body: (AtomicStore) throws -> T) rethrows -> (one: T, many: T) {
        let store = Self.store
        store.fetchParallelism = .one
        let one = try body(store)
        store.fetchParallelism = many
        defer { store.fetchParallelism = .one }
        return (one, try body(store))
    }

    static func ids(_ statement: String, _ store: AtomicStore) throws -> [String] {
        try store.fetch(FetchRequest(statement: statement)).objectIDs.map(\.rawValue)
    }

    @Test("objects, in the same order", arguments: [
        "Member WHERE n < 300",
        "Member WHERE n < 300 SORT BY n DESC",
        "Member WHERE name BEGINSWITH 'm1' AND team.name == 'team 3'",
        "Team WHERE ANY members.n > 990",
        "Team WHERE SUBQUERY(members, $m, $m.n < 100).@count >= 2",
        "Member WHERE n < 300 LIMIT 50 OFFSET 20",
        "Member",
        "Member WHERE FALSEPREDICATE",
    ])
    func objects(_ statement: String) throws {
        let (one, many) = try Self.both { try Self.ids(statement, $0) }
        #expect(one == many)
        #expect(statement.contains("FALSEPREDICATE") ? one.isEmpty : !one.isEmpty, "a statement that tests something")
    }

    @Test func countsSectionsAndDictionaries() throws {
        let counts = try Self.both { try $0.count(FetchRequest(statement: "Member WHERE n >= 500")) }
        #expect(counts.one == counts.many && counts.one > 2_000)
        let sections = try Self.both { store in
            try store.fetchSections(FetchRequest(statement: "Member WHERE n < 50 SORT BY team.name SECTION BY team.name")).sections
                .map { "\($0.name): \($0.objects.objectIDs.map(\.rawValue))" }
        }
        #expect(sections.one == sections.many && sections.one.count == 7)
        let rows = try Self.both { store -> [String] in
            guard case .dictionaries(let rows) = try store.execute(FetchRequest(statement: "SELECT name, n FROM Member WHERE n > 995")) else { return [] }
            return rows.map { JSONWriter.string(.dictionary($0)) }
        }
        #expect(rows.one == rows.many && !rows.one.isEmpty)
    }

    /// The first error in the objects' order, whichever thread met it first.
    @Test func theFirstErrorIsOneThreadsFirst() throws {
        let statement = "Member WHERE name MATCHES pattern"
        let (one, many) = Self.both { store -> String in
            do {
                _ = try Self.ids(statement, store)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(one == many)
        #expect(one.contains("'('") || one.contains("\"(\""), "\(one)")
    }

    /// The workers evaluate under the calling thread's budget: a SUBQUERY budget set around
    /// the fetch stops the evaluation on every thread (the budget is checked every 4,096
    /// element tests: four nested SUBQUERY over a team's nine members test 7,380).
    @Test func theCallersBudgetHoldsOnEveryThread() throws {
        let statement = "Team WHERE SUBQUERY(members, $a, SUBQUERY($a.team.members, $b, SUBQUERY($b.team.members, $c, "
            + "SUBQUERY($c.team.members, $d, $d.n < $a.n).@count > 0).@count > 0).@count > 0).@count > 0"
        let (one, many) = Self.both { store -> String in
            EvaluationBudget.subqueryTestLimitScope.withValue(10) {
                do {
                    return "\(try Self.ids(statement, store).count) objects"
                } catch {
                    return "\(error)"
                }
            }
        }
        #expect(one == many)
        #expect(one.contains("SUBQUERY element tests"), "\(one)")
    }

    @Test func theAutomaticThreshold() {
        #expect(FetchParallelism.automatic.jobs(forObjects: 9_999) == 1)
        #expect(FetchParallelism.automatic.jobs(forObjects: 10_000) == UsableProcessors.count)
        #expect(FetchParallelism.one.jobs(forObjects: .max) == 1)
    }
}
