import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
import TestTimeLimits
@testable import SiftStore

/// Changing many objects of an atomic store costs each object the same, however many there are
/// (issue 28 §4, issue 29 §8): 50,000 objects, where a cost per object that grows with the
/// store (a copy of the graph, a scan of a to-many relationship) takes minutes and meets the
/// time limit. Not a timing assertion: the size and the limit show quadratic growth, nothing
/// finer.
@Suite struct AtomicStoreGrowthTests {
    static let count = 50_000

    static func model() throws -> DataModel {
        try DataModel(name: "Growth", entities: [
            EntityDescription(name: "Team", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "members", destination: "Member", isToMany: true, inverse: "team")]),
            EntityDescription(name: "Member", attributes: [AttributeDescription(name: "n", type: .integer64)],
                              relationships: [RelationshipDescription(name: "team", destination: "Team", inverse: "members")]),
        ])
    }

    /// A store with teams A and B, and `count` members of A (n = 0..<count).
    static func store(count: Int) throws -> (AtomicStore, [ObjectID]) {
        let store = AtomicStore.inMemory(model: try model())
        try store.insert("Team", id: "A", ["name": .string("a")])
        try store.insert("Team", id: "B", ["name": .string("b")])
        var ids: [ObjectID] = []
        for i in 0..<count {
            ids.append(try store.insert("Member", ["n": .int(Int64(i))], relationships: ["team": ["A"]]))
        }
        try store.save()
        return (store, ids)
    }

    static func count(_ statement: String, in store: AtomicStore) throws -> Int {
        try store.fetch(FetchRequest(statement: statement)).count
    }

    @Test(.hangGuard()) func movingEveryObjectToAnotherToOneDestinationIsLinear() throws {
        let (store, ids) = try Self.store(count: Self.count)
        // Each move leaves A's members (a to-many of 50,000) and joins B's.
        for id in ids { try store.update(id, attributes: [:], relationships: ["team": ["B"]]) }
        try store.save()
        #expect(try Self.count("Member WHERE team.name == 'b'", in: store) == Self.count)
        #expect(try Self.count("Team WHERE members.@count == \(Self.count)", in: store) == 1)
        #expect(try Self.count("Team WHERE members.@count == 0", in: store) == 1)
        // Back again, every other one: both sides stay in insertion order.
        for id in ids.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
            try store.update(id, attributes: [:], relationships: ["team": ["A"]])
        }
        let a = try #require(store.object(with: "A"))
        let members = a.destinationIDs(of: "members")
        #expect(members.count == Self.count / 2)
        #expect(members == ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
    }

    @Test(.hangGuard()) func aBatchUpdateComputingEachValueIsLinear() throws {
        let (store, _) = try Self.store(count: Self.count)
        let changed = try store.batchUpdate(entity: "Member", predicate: nil, set: ["n": try ExpressionNode(format: "n + 1")])
        #expect(changed == Self.count)
        try store.save()
        #expect(try Self.count("Member WHERE n == 0", in: store) == 0)
        #expect(try Self.count("Member WHERE n == \(Self.count)", in: store) == 1)
    }

    /// "Evaluated on that object before any of them changes": a value read through another
    /// object of the batch is the one it had before the batch.
    @Test func aBatchUpdateReadsEveryValueBeforeAnyChanges() throws {
        let (store, _) = try Self.store(count: 4)
        // The sum of A's members before the update: 0 + 1 + 2 + 3.
        try store.batchUpdate(entity: "Member", predicate: nil, set: ["n": try ExpressionNode(format: "team.members.@sum.n")])
        #expect(try Self.count("Member WHERE n == 6", in: store) == 4)
    }
}
