import PostgreSQLTestSupport
import SeedAppSupport
import SiftLanguage
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Sibling sub-entities sharing a to-one's column in Sift's layout (``SiblingColumnFixture``),
/// in PostgreSQL: reads, prefetches, predicates and writes give the evaluator's answers.
@Suite struct SiblingColumnTests {
    @Test func everyReadAndWriteHoldsOnlyItsEntity() async throws {
        let model = try SiblingColumnFixture.model()
        let test = try await StoreTestDatabase.make(model, label: "siblings")
        defer { test.database.drop() }
        let memory = AtomicStore.inMemory(model: model)
        try SiblingColumnFixture.fill(test.store)
        try SiblingColumnFixture.fill(memory)
        let expected = "o1: cats c1; dogs d1, d2\no2: cats ; dogs d3\no3: cats ; dogs "
        for prefetching in [false, true] {
            #expect(try SiblingColumnFixture.relationships(test.store, prefetching: prefetching) == expected, "prefetching \(prefetching)")
        }
        for statement in SiblingColumnFixture.statements {
            #expect(try SiblingColumnFixture.ids(statement, in: test.store) == SiblingColumnFixture.ids(statement, in: memory), "\(statement)")
        }
        for store in [test.store as any PersistentStore, memory] {
            try store.update(ObjectID("o1"), attributes: [:], relationships: ["cats": []])
            try store.save()
            try store.update(ObjectID("o2"), attributes: [:], relationships: ["cats": [ObjectID("c1")]])
            try store.save()
        }
        let changed = "o1: cats ; dogs d1, d2\no2: cats c1; dogs d3\no3: cats ; dogs "
        #expect(try SiblingColumnFixture.relationships(memory, prefetching: false) == changed)
        #expect(try SiblingColumnFixture.relationships(test.store, prefetching: true) == changed)
    }
}
