import SiftSQLite
import Testing

@Suite struct SQLiteAggregateTests {
    /// Sums integers; counts how many states were made and finished.
    final class Sum: SQLiteAggregate {
        var total: Int64 = 0
        let onFinish: (Int64) -> Void
        init(onFinish: @escaping (Int64) -> Void = { _ in }) { self.onFinish = onFinish }
        func step(_ call: SQLiteFunctionCall) throws {
            if !call.isNull(0) { total += call.int64(0) }
        }
        func finish() throws -> SQLiteValue {
            onFinish(total)
            return .integer(total)
        }
    }

    struct Refusal: Error, Equatable {}

    final class Refusing: SQLiteAggregate {
        let failInFinish: Bool
        init(failInFinish: Bool) { self.failInFinish = failInFinish }
        func step(_ call: SQLiteFunctionCall) throws {
            if !failInFinish { throw Refusal() }
        }
        func finish() throws -> SQLiteValue {
            if failInFinish { throw Refusal() }
            return .null
        }
    }

    static func database() throws -> SQLiteDatabase {
        let database = try SQLiteDatabase.inMemory()
        try database.execute("""
            CREATE TABLE t(g, x);
            INSERT INTO t VALUES ('a', 1), ('a', 2), ('b', 10), ('b', NULL), ('c', NULL);
            """)
        return database
    }

    @Test func customSumPerGroup() throws {
        let database = try Self.database()
        var made = 0
        try database.createAggregate("my_sum", argumentCount: 1) {
            made += 1
            return Sum()
        }
        #expect(try database.rows("SELECT g, my_sum(x) FROM t GROUP BY g ORDER BY g") == [
            [.text("a"), .integer(3)], [.text("b"), .integer(10)], [.text("c"), .integer(0)],
        ])
        #expect(made == 3)
    }

    @Test func emptyGroupIsOnlyFinished() throws {
        let database = try Self.database()
        var finished: [Int64] = []
        try database.createAggregate("my_sum", argumentCount: 1) { Sum { finished.append($0) } }
        #expect(try database.scalar("SELECT my_sum(x) FROM t WHERE 0") == .integer(0))
        #expect(finished == [0])
        #expect(try database.scalar("SELECT my_sum(x) FROM t") == .integer(13))
        #expect(finished == [0, 13])
    }

    @Test func stateIsReleasedAfterFinish() throws {
        let database = try Self.database()
        weak var last: Sum?
        try database.createAggregate("my_sum", argumentCount: 1) {
            let state = Sum()
            last = state
            return state
        }
        #expect(try database.scalar("SELECT my_sum(x) FROM t") == .integer(13))
        #expect(last == nil)
    }

    @Test(arguments: [false, true])
    func throwingAggregatePassesItsErrorThrough(failInFinish: Bool) throws {
        let database = try Self.database()
        try database.createAggregate("refuse", argumentCount: 1) { Refusing(failInFinish: failInFinish) }
        do {
            _ = try database.scalar("SELECT refuse(x) FROM t")
            Issue.record("no error")
        } catch {
            #expect(error.underlying as? Refusal == Refusal())
        }
        // The connection is usable afterwards, and has no stale error.
        #expect(try database.scalar("SELECT count(*) FROM t") == .integer(5))
    }
}
