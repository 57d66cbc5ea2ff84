import Foundation
import SiftSQLite
import Synchronization
import Testing

@Suite struct SQLiteInterruptTests {
    @Test func longQueryInterruptedFromAnotherThread() throws {
        let database = try SQLiteDatabase.inMemory()
        let finished = Atomic<Bool>(false)
        // Interrupt until the query ends: an interrupt before the query starts would be a no-op.
        let interrupter = Thread {
            while !finished.load(ordering: .acquiring) {
                database.interrupt()
                usleep(5_000)
            }
        }
        interrupter.start()
        defer { finished.store(true, ordering: .releasing) }
        let started = ContinuousClock.now
        do {
            _ = try database.scalar("""
                WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000)
                SELECT count(*) FROM c
                """)
            Issue.record("the query was not interrupted")
        } catch {
            #expect(error.isInterrupted)
            #expect(error.sql?.contains("WITH RECURSIVE") == true)
        }
        finished.store(true, ordering: .releasing)
        #expect(ContinuousClock.now - started < .seconds(30))
        // The connection works afterwards.
        while interrupter.isExecuting { usleep(1_000) }
        #expect(try database.scalar("SELECT 1") == .integer(1))
    }

    @Test func interruptWithNothingRunningIsHarmless() throws {
        let database = try SQLiteDatabase.inMemory()
        database.interrupt()
        #expect(try database.scalar("SELECT 2") == .integer(2))
    }
}
