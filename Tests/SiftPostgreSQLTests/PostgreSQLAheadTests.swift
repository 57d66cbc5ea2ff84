import SiftPostgreSQL
import Testing

/// A statement sent ahead runs while the caller does other things; anything else run on the
/// connection first collects its result, which `receive` then returns.
@Suite struct PostgreSQLAheadTests {
    @Test func theResultWaitsForItsReceiver() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        try connection.execute("BEGIN")
        try connection.execute("DECLARE c NO SCROLL CURSOR FOR SELECT g FROM generate_series(1, 10) AS g")
        let first = try connection.sendAhead("FETCH 4 FROM c")
        #expect(try connection.receive(first).map { $0[0].int64Value } == [1, 2, 3, 4])
        // Other statements in between: the connection collects the result and stays usable.
        let second = try connection.sendAhead("FETCH 4 FROM c")
        #expect(connection.isInTransaction)
        #expect(try connection.scalar("SELECT $1::int8 * 2", [.int64(21)]) == .int64(42))
        let third = try connection.sendAhead("FETCH 4 FROM c")
        try connection.execute("SELECT 1")
        #expect(try connection.receive(second).map { $0[0].int64Value } == [5, 6, 7, 8])
        #expect(try connection.receive(third).map { $0[0].int64Value } == [9, 10])
        // An error is the receiver's.
        let failing = try connection.sendAhead("SELECT 1 / ($1::int8 - 1)", [.int64(1)])
        #expect(connection.isInFailedTransaction)
        #expect(throws: PostgreSQLError.self) { try connection.receive(failing) }
        try connection.execute("ROLLBACK")
        #expect(try connection.scalar("SELECT 1") == .int64(1))
    }
}
