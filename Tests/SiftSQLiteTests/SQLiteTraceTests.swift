import SiftSQLite
import Synchronization
import Testing

@Suite struct SQLiteTraceTests {
    @Test func traceSeesExpandedSQL() throws {
        let database = try SQLiteDatabase.inMemory()
        let seen = Mutex<[String]>([])
        database.setTrace { sql in seen.withLock { $0.append(sql) } }
        try database.execute("CREATE TABLE t(x, y)")
        try database.run("INSERT INTO t VALUES (?, ?)", [.integer(41), .text("it's")])
        _ = try database.scalar("SELECT x + 1 FROM t WHERE y = ?", [.text("it's")])
        database.setTrace(nil)
        _ = try database.scalar("SELECT 'untraced'")
        #expect(seen.withLock { $0 } == [
            "CREATE TABLE t(x, y)",
            "INSERT INTO t VALUES (41, 'it''s')",
            "SELECT x + 1 FROM t WHERE y = 'it''s'",
        ])
    }

    @Test func replacingTheTrace() throws {
        let database = try SQLiteDatabase.inMemory()
        let first = Mutex(0), second = Mutex(0)
        database.setTrace { _ in first.withLock { $0 += 1 } }
        _ = try database.scalar("SELECT 1")
        database.setTrace { _ in second.withLock { $0 += 1 } }
        _ = try database.scalar("SELECT 1")
        #expect(first.withLock { $0 } == 1)
        #expect(second.withLock { $0 } == 1)
    }
}
