import ChinookSupport
import Foundation
import PostgreSQLTestSupport
import SiftPostgreSQLStore
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// LANGUAGE.md §3's typed rule wherever a comparison is written (issue 28 §1), on the
/// PostgreSQL store: the generated differential (``TypedComparisonDifferential``) with the
/// Chinook-shaped database's employees, customers, invoices and invoice lines in a PostgreSQL
/// store and in an in-memory one.
@Suite struct PostgreSQLTypedComparisonTests {
    @Test func everyConstructGivesTheTopLevelAnswerOnPostgreSQL() async throws {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let foreign = try SQLiteStore.open(at: url)
        let memory = AtomicStore.inMemory(model: foreign.model)
        try foreign.copyObjects(into: memory, entities: TypedComparisonDifferential.entities)
        let database = try await PostgreSQLTestServer.makeDatabase("typed")
        defer { database.drop() }
        let created = try PostgreSQLStore.create(connection: try database.connect(), model: foreign.model)
        try memory.copyObjects(into: created)
        // Read through a new connection, as another process would.
        let store = try PostgreSQLStore.open(connection: try database.connect())
        let (mismatches, checked) = try TypedComparisonDifferential.run(stores: [("PostgreSQL", store)], memory: memory)
        #expect(checked > 600)
        if !mismatches.isEmpty {
            Issue.record("\(mismatches.count) of \(checked) disagree:\n\(mismatches.prefix(20).joined(separator: "\n"))")
        }
    }
}
