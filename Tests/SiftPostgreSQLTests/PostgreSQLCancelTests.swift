import Foundation
import SiftPostgreSQL
import Synchronization
import Testing

@Suite struct PostgreSQLCancelTests {
    /// `cancel()` from another thread stops `pg_sleep(10)`: the query fails with 57014 rather
    /// than returning after ten seconds.
    @Test func aRunningQueryIsCancelledFromAnotherThread() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        let finished = Atomic<Bool>(false)
        // Cancel until the query ends: a cancel before it starts does nothing.
        let canceller = Thread {
            while !finished.load(ordering: .acquiring) {
                connection.cancel()
                usleep(50_000)
            }
        }
        canceller.start()
        defer { finished.store(true, ordering: .releasing) }
        let error = PostgreSQLTestConnection.error { _ = try connection.query("SELECT pg_sleep(10)") }
        finished.store(true, ordering: .releasing)
        #expect(error?.sqlState == "57014")
        #expect(error?.isCancelled == true)
        #expect(error?.sql == "SELECT pg_sleep(10)")
        while canceller.isExecuting { usleep(1_000) }
        #expect(try connection.scalar("SELECT 1") == .int64(1))
    }

    @Test func cancelWithNothingRunningIsHarmless() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        #expect(connection.cancel())
        #expect(try connection.scalar("SELECT 2") == .int64(2))
    }
}
