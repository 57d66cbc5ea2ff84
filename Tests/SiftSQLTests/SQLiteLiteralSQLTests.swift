import Foundation
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import Testing

/// SQLite SQL with its values written in (the REPL's `.sql on`): every value reads back in
/// SQLite as the value bound, and only real placeholders are replaced.
@Suite struct SQLiteLiteralSQLTests {
    static let values: [SQLValue] = [
        .null, .integer(0), .integer(-1), .integer(42), .integer(.max), .integer(.min),
        .real(0), .real(-0.0), .real(1.5), .real(60), .real(0.1), .real(1e-5), .real(-3_187_296_000), .real(1e300), .real(.leastNonzeroMagnitude),
        .real(.greatestFiniteMagnitude), .real(.infinity), .real(-.infinity),
        .text(""), .text("O'Brien"), .text("''"), .text("?1 -- /* [x] \"y\""), .text("漢字 é\u{301} 🎉"), .text("line\nbreak"),
        .text("a\u{0}b"),
        .blob([]), .blob([0, 1, 0xFE, 0xFF]),
    ]

    /// Each literal, selected in SQLite, is the value bound: the same storage class and value.
    @Test(arguments: values)
    func aLiteralReadsBackAsTheValueBound(_ value: SQLValue) throws {
        let database = try SQLiteDatabase(path: ":memory:")
        let literal = SQLiteLiteralSQL.literal(value)
        let read = try database.scalar("SELECT \(literal)")
        let bound = try database.scalar("SELECT ?1", [SQLiteValue(value)])
        #expect(read == bound, "\(literal)")
        #expect(try database.scalar("SELECT typeof(\(literal)) = typeof(?1)", [SQLiteValue(value)]) == .integer(1), "\(literal)")
    }

    @Test func nanIsNullAsSQLiteBindsIt() throws {
        #expect(SQLiteLiteralSQL.literal(.real(.nan)) == "NULL")
        let database = try SQLiteDatabase(path: ":memory:")
        #expect(try database.scalar("SELECT ?1", [.real(.nan)]) == .null)
    }

    @Test(arguments: [
        (#"SELECT * FROM "t" WHERE "a" = ?1 AND "b" > ?2"#, [SQLValue.text("x"), .integer(3)], #"SELECT * FROM "t" WHERE "a" = 'x' AND "b" > 3"#),
        ("SELECT ?1, ?10, ?1", (1...10).map { SQLValue.integer(Int64($0)) }, "SELECT 1, 10, 1"),
        // Placeholders inside strings, quoted identifiers and comments are text.
        (#"SELECT '?1', "?1", [?1], `?1`, ?1 -- ?1"#, [.integer(7)], #"SELECT '?1', "?1", [?1], `?1`, 7 -- ?1"#),
        ("SELECT 'it''s ?1', ?1 /* ?1 */", [.text("a")], "SELECT 'it''s ?1', 'a' /* ?1 */"),
        // Bare ? take the next number, as SQLite numbers them; one without a value stays.
        ("SELECT ?, ?, ?5, ?", [.integer(1), .integer(2)], "SELECT 1, 2, ?5, ?"),
        ("SELECT ?99999999999999999999", [.integer(1)], "SELECT ?99999999999999999999"),
    ])
    func placeholdersAreReplacedWhereSQLiteSeesThem(_ sql: String, _ bindings: [SQLValue], _ expected: String) {
        #expect(SQLiteLiteralSQL.inlining(sql, bindings) == expected)
    }

    @Test func theStatementRunsAsBoundInPlainSQLite() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL);
            INSERT INTO t VALUES (1, 'O''Brien', 1.5), (2, 'Smith', 60), (3, NULL, NULL);
            """)
        let sql = #"SELECT count(*) FROM "t" WHERE "name" = ?1 OR "score" >= ?2 OR ("name" IS ?3 AND "id" > ?4)"#
        let bindings: [SQLValue] = [.text("O'Brien"), .real(60), .null, .integer(2)]
        #expect(try database.scalar(SQLiteLiteralSQL.inlining(sql, bindings)) == database.scalar(sql, bindings.map(SQLiteValue.init)))
        #expect(try database.scalar(sql, bindings.map(SQLiteValue.init)) == .integer(3))
    }

    @Test func siftFunctionsAreNamed() {
        #expect(SQLiteLiteralSQL.siftFunctions(in: #"SELECT sift_date("d", 'unix'), SIFT_EQUALS(a, ?1, 1), 'sift_fold(x)', "sift_x" FROM t ORDER BY a COLLATE sift_localized, sift_date(b)"#)
                == ["sift_date", "sift_equals", "sift_localized"])
        #expect(SQLiteLiteralSQL.siftFunctions(in: #"SELECT "t0"."sift_note", lower(x) FROM "sift_t""#).isEmpty)
    }
}
