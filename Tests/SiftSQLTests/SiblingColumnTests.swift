import SeedAppSupport
import SiftLanguage
import SiftSQLiteStore
import SiftStore
import Testing

/// Sibling sub-entities sharing a to-one's column in Sift's layout (``SiblingColumnFixture``):
/// the SQLite store's reads, prefetches, predicates, counts and writes through that column give
/// the evaluator's answers — each to-many holds only its destination entity's rows.
@Suite struct SiblingColumnTests {
    static func stores() throws -> (sqlite: SQLiteStore, memory: AtomicStore) {
        let model = try SiblingColumnFixture.model()
        let sqlite = try SQLiteStore.inMemory(model: model), memory = AtomicStore.inMemory(model: model)
        try SiblingColumnFixture.fill(sqlite)
        try SiblingColumnFixture.fill(memory)
        return (sqlite, memory)
    }

    @Test func relationshipsHoldOnlyTheirEntity() throws {
        let (sqlite, memory) = try Self.stores()
        let expected = "o1: cats c1; dogs d1, d2\no2: cats ; dogs d3\no3: cats ; dogs "
        let evaluated = try SiblingColumnFixture.relationships(memory, prefetching: false)
        #expect(evaluated == expected, "\(evaluated)")
        for prefetching in [false, true] {
            #expect(try SiblingColumnFixture.relationships(sqlite, prefetching: prefetching) == expected, "prefetching \(prefetching)")
        }
    }

    @Test(arguments: SiblingColumnFixture.statements)
    func predicatesGiveTheEvaluatorsAnswer(_ statement: String) throws {
        let (sqlite, memory) = try Self.stores()
        #expect(try SiblingColumnFixture.ids(statement, in: sqlite) == SiblingColumnFixture.ids(statement, in: memory))
    }

    /// Emptying Ann's cats leaves her dogs hers; a cat's maximum of one per owner is not
    /// broken by her two dogs (validation counts only cats).
    @Test func writesChangeOnlyTheirEntity() throws {
        let (sqlite, memory) = try Self.stores()
        for store in [sqlite as any PersistentStore, memory] {
            try store.update(ObjectID("o1"), attributes: [:], relationships: ["cats": []])
            try store.save()
            try store.update(ObjectID("o2"), attributes: [:], relationships: ["cats": [ObjectID("c1")]])
            try store.save()
        }
        let expected = "o1: cats ; dogs d1, d2\no2: cats c1; dogs d3\no3: cats ; dogs "
        let evaluated = try SiblingColumnFixture.relationships(memory, prefetching: false)
        #expect(evaluated == expected, "\(evaluated)")
        #expect(try SiblingColumnFixture.relationships(sqlite, prefetching: false) == expected)
    }
}
