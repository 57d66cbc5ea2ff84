import SiftSQL
import SiftSQLStore
import SiftSQLite

/// `sift_group_first(x, key)`: the value of `x` on the row with the least `key` (the row key),
/// as stored, NULL included — whatever order SQLite feeds the group's rows in.
///
/// A grouped dictionary fetch takes a group-by property's value from the group's first object
/// (``DictionarySQL``). Where equal values may differ in kind — a column of a database Sift did
/// not create holding both the integer `2` and the real `2.0`, which one group holds — the value
/// is the first object's, as the evaluator's is:
///
///     SELECT sift_group_first("t0"."score", "t0"."id"), count(…) FROM "games" AS "t0" GROUP BY "t0"."score", … ORDER BY min("t0"."id")
final class SiftGroupFirst: SQLiteAggregate {
    static let name = SiftSQLFunctions.groupFirstFunction

    private var key: Int64?
    private var value: SQLiteValue = .null

    func step(_ call: SQLiteFunctionCall) throws {
        let rowKey = call.int64(1)
        if let key, key <= rowKey { return }
        key = rowKey
        value = call.value(0)
    }

    func finish() throws -> SQLiteValue { value }
}

extension SiftSQLFunctions {
    /// Registers `sift_group_first` (``SiftGroupFirst``).
    static func registerGroupFirst(on database: SQLiteDatabase) throws(SQLiteError) {
        try database.createAggregate(SiftGroupFirst.name, argumentCount: 2) { SiftGroupFirst() }
    }
}
