import SiftSQLite
import Testing

@Suite struct SQLiteStatementCacheTests {
    @Test func sameSQLGivesTheSameStatement() throws {
        let database = try SQLiteDatabase.inMemory()
        let first = try database.cachedStatement("SELECT ?")
        let second = try database.cachedStatement("SELECT ?")
        let other = try database.cachedStatement("SELECT ? + 0")
        #expect(first === second)
        #expect(first !== other)
        #expect(try database.prepare("SELECT ?") !== first)
    }

    @Test func cachedStatementComesBackResetWithBindingsCleared() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.execute("CREATE TABLE t(value); INSERT INTO t VALUES (1), (2), (3)")
        let statement = try database.cachedStatement("SELECT value FROM t WHERE ?1 IS NULL OR value > ?1 ORDER BY value")
        try statement.bind([.integer(1)])
        #expect(try statement.step())
        #expect(statement.int64(0) == 2)
        let again = try database.cachedStatement("SELECT value FROM t WHERE ?1 IS NULL OR value > ?1 ORDER BY value")
        #expect(try again.step())
        #expect(again.int64(0) == 1)  // from the start, and ?1 is NULL again
    }

    @Test func leastRecentlyUsedIsEvicted() throws {
        let database = try SQLiteDatabase.inMemory()
        #expect(database.statementCacheCapacity == 100)
        database.statementCacheCapacity = 2
        let a = try database.cachedStatement("SELECT 1")
        let b = try database.cachedStatement("SELECT 2")
        #expect(try database.cachedStatement("SELECT 1") === a)  // a is now the most recent
        _ = try database.cachedStatement("SELECT 3")  // evicts b
        #expect(try database.cachedStatement("SELECT 1") === a)
        #expect(try database.cachedStatement("SELECT 2") !== b)
    }

    @Test func defaultCapacityHoldsAHundred() throws {
        let database = try SQLiteDatabase.inMemory()
        let statements = try (0..<100).map { try database.cachedStatement("SELECT \($0)") }
        for (i, statement) in statements.enumerated() {
            #expect(try database.cachedStatement("SELECT \(i)") === statement)
        }
        _ = try database.cachedStatement("SELECT 100")  // evicts SELECT 0, the least recently used
        #expect(try database.cachedStatement("SELECT 1") === statements[1])
        #expect(try database.cachedStatement("SELECT 0") !== statements[0])
    }
}
