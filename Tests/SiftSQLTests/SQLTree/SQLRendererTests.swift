@testable import SiftPostgreSQLStore
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import Testing

/// Trees rendered in both dialects: parentheses exactly where each dialect's precedence
/// needs them, dialect spellings, and placeholders numbered by first use.
@Suite struct SQLRendererTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let tree: SQLExpression
        let sqlite: String
        let postgreSQL: String
        var testDescription: String { name }
    }

    static let a = SQLExpression.column("t0", "a")
    static let b = SQLExpression.column("t0", "b")
    static let c = SQLExpression.column("t0", "c")
    static func p(_ id: Int, _ value: Int64) -> SQLExpression { .parameter(SQLParameter(id: id, value: .integer(value))) }

    static let cases: [Case] = [
        Case(name: "a - (b - c)", tree: .binary(.subtract, a, .binary(.subtract, b, c)),
             sqlite: #""t0"."a" - ("t0"."b" - "t0"."c")"#, postgreSQL: #""t0"."a" - ("t0"."b" - "t0"."c")"#),
        Case(name: "(a - b) - c", tree: .binary(.subtract, .binary(.subtract, a, b), c),
             sqlite: #""t0"."a" - "t0"."b" - "t0"."c""#, postgreSQL: #""t0"."a" - "t0"."b" - "t0"."c""#),
        Case(name: "(a + b) * c", tree: .binary(.multiply, .binary(.add, a, b), c),
             sqlite: #"("t0"."a" + "t0"."b") * "t0"."c""#, postgreSQL: #"("t0"."a" + "t0"."b") * "t0"."c""#),
        Case(name: "a + b * c", tree: .binary(.add, a, .binary(.multiply, b, c)),
             sqlite: #""t0"."a" + "t0"."b" * "t0"."c""#, postgreSQL: #""t0"."a" + "t0"."b" * "t0"."c""#),
        Case(name: "(a OR b) AND c", tree: .and([.or([a, b]), c]),
             sqlite: #"("t0"."a" OR "t0"."b") AND "t0"."c""#, postgreSQL: #"("t0"."a" OR "t0"."b") AND "t0"."c""#),
        Case(name: "a OR (b AND c)", tree: .or([a, .and([b, c])]),
             sqlite: #""t0"."a" OR "t0"."b" AND "t0"."c""#, postgreSQL: #""t0"."a" OR "t0"."b" AND "t0"."c""#),
        Case(name: "AND in AND", tree: .and([a, .and([b, c])]),
             sqlite: #""t0"."a" AND "t0"."b" AND "t0"."c""#, postgreSQL: #""t0"."a" AND "t0"."b" AND "t0"."c""#),
        Case(name: "one-element OR in AND", tree: .and([.or([a]), b]),
             sqlite: #""t0"."a" AND "t0"."b""#, postgreSQL: #""t0"."a" AND "t0"."b""#),
        Case(name: "NOT (a = b)", tree: .not(.binary(.equal, a, b)),
             sqlite: #"NOT "t0"."a" = "t0"."b""#, postgreSQL: #"NOT "t0"."a" = "t0"."b""#),
        Case(name: "(NOT a) = b", tree: .binary(.equal, .not(a), b),
             sqlite: #"(NOT "t0"."a") = "t0"."b""#, postgreSQL: #"(NOT "t0"."a") = "t0"."b""#),
        Case(name: "NOT (a AND b)", tree: .not(.and([a, b])),
             sqlite: #"NOT ("t0"."a" AND "t0"."b")"#, postgreSQL: #"NOT ("t0"."a" AND "t0"."b")"#),
        Case(name: "-(-1)", tree: .unary(.negate, .integer(-1)), sqlite: "-(-1)", postgreSQL: "-(-1)"),
        Case(name: "-(-a)", tree: .unary(.negate, .unary(.negate, a)), sqlite: #"-(-"t0"."a")"#, postgreSQL: #"-(-"t0"."a")"#),
        Case(name: "-(a + b)", tree: .unary(.negate, .binary(.add, a, b)), sqlite: #"-("t0"."a" + "t0"."b")"#, postgreSQL: #"-("t0"."a" + "t0"."b")"#),
        Case(name: "a - -1", tree: .binary(.subtract, a, .integer(-1)), sqlite: #""t0"."a" - -1"#, postgreSQL: #""t0"."a" - -1"#),
        Case(name: "+a (no index)", tree: .unary(.plus, .column("t0", "_pk")), sqlite: #"+"t0"."_pk""#, postgreSQL: #"+"t0"."_pk""#),
        Case(name: "(~a) + b", tree: .binary(.add, .unary(.bitwiseNot, a), b),
             sqlite: #"~"t0"."a" + "t0"."b""#, postgreSQL: #"(~"t0"."a") + "t0"."b""#),
        Case(name: "a || b = c", tree: .binary(.equal, .binary(.concatenate, a, b), c),
             sqlite: #""t0"."a" || "t0"."b" = "t0"."c""#, postgreSQL: #""t0"."a" || "t0"."b" = "t0"."c""#),
        Case(name: "a || (b + c)", tree: .binary(.concatenate, a, .binary(.add, b, c)),
             sqlite: #""t0"."a" || ("t0"."b" + "t0"."c")"#, postgreSQL: #""t0"."a" || "t0"."b" + "t0"."c""#),
        Case(name: "(a || b) + c", tree: .binary(.add, .binary(.concatenate, a, b), c),
             sqlite: #""t0"."a" || "t0"."b" + "t0"."c""#, postgreSQL: #"("t0"."a" || "t0"."b") + "t0"."c""#),
        Case(name: "a COLLATE BINARY = b", tree: .binary(.equal, .collate(a, "BINARY"), b),
             sqlite: #""t0"."a" COLLATE BINARY = "t0"."b""#, postgreSQL: #""t0"."a" COLLATE "C" = "t0"."b""#),
        Case(name: "(a || b) COLLATE", tree: .collate(.binary(.concatenate, a, b), "BINARY"),
             sqlite: #"("t0"."a" || "t0"."b") COLLATE BINARY"#, postgreSQL: #"("t0"."a" || "t0"."b") COLLATE "C""#),
        Case(name: "(-a) COLLATE", tree: .collate(.unary(.negate, a), "BINARY"),
             sqlite: #"(-"t0"."a") COLLATE BINARY"#, postgreSQL: #"(-"t0"."a") COLLATE "C""#),
        Case(name: "a IS ?", tree: .binary(.is, a, p(1, 5)),
             sqlite: #""t0"."a" IS ?1"#, postgreSQL: #""t0"."a" IS NOT DISTINCT FROM $1"#),
        Case(name: "(a = b) IS NOT c", tree: .binary(.isNot, .binary(.equal, a, b), c),
             sqlite: #"("t0"."a" = "t0"."b") IS NOT "t0"."c""#, postgreSQL: #""t0"."a" = "t0"."b" IS DISTINCT FROM "t0"."c""#),
        Case(name: "a != b", tree: .binary(.notEqual, a, b), sqlite: #""t0"."a" != "t0"."b""#, postgreSQL: #""t0"."a" <> "t0"."b""#),
        Case(name: "(a = b) IS NULL", tree: .isNull(.binary(.equal, a, b), negated: false),
             sqlite: #"("t0"."a" = "t0"."b") IS NULL"#, postgreSQL: #""t0"."a" = "t0"."b" IS NULL"#),
        Case(name: "a + b IS NOT NULL", tree: .isNull(.binary(.add, a, b), negated: true),
             sqlite: #""t0"."a" + "t0"."b" IS NOT NULL"#, postgreSQL: #""t0"."a" + "t0"."b" IS NOT NULL"#),
        Case(name: "(a < b) = c", tree: .binary(.equal, .binary(.lessThan, a, b), c),
             sqlite: #""t0"."a" < "t0"."b" = "t0"."c""#, postgreSQL: #"("t0"."a" < "t0"."b") = "t0"."c""#),
        Case(name: "BETWEEN inside AND", tree: .and([.between(a, p(1, 1), p(2, 2)), .binary(.equal, b, c)]),
             sqlite: #""t0"."a" BETWEEN ?1 AND ?2 AND "t0"."b" = "t0"."c""#, postgreSQL: #""t0"."a" BETWEEN $1 AND $2 AND "t0"."b" = "t0"."c""#),
        Case(name: "BETWEEN of sums", tree: .between(.binary(.add, a, b), .binary(.subtract, c, p(1, 1)), .binary(.add, c, p(2, 1))),
             sqlite: #""t0"."a" + "t0"."b" BETWEEN "t0"."c" - ?1 AND "t0"."c" + ?2"#,
             postgreSQL: #""t0"."a" + "t0"."b" BETWEEN "t0"."c" - $1 AND "t0"."c" + $2"#),
        Case(name: "(a = b) BETWEEN", tree: .between(.binary(.equal, a, b), .boolean(false), .boolean(true)),
             sqlite: #"("t0"."a" = "t0"."b") BETWEEN 0 AND 1"#, postgreSQL: #"("t0"."a" = "t0"."b") BETWEEN FALSE AND TRUE"#),
        Case(name: "IN", tree: .in(.binary(.add, a, b), [p(1, 1), .binary(.add, c, p(2, 2))]),
             sqlite: #""t0"."a" + "t0"."b" IN (?1, "t0"."c" + ?2)"#, postgreSQL: #""t0"."a" + "t0"."b" IN ($1, "t0"."c" + $2)"#),
        Case(name: "coalesce(a > ?, false)", tree: .function(.standard(.coalesce), [.binary(.greaterThan, a, p(1, 3)), .boolean(false)]),
             sqlite: #"coalesce("t0"."a" > ?1, 0)"#, postgreSQL: #"coalesce("t0"."a" > $1, FALSE)"#),
        Case(name: "instr is strpos", tree: .binary(.greaterThan, .function(.standard(.instr), [a, p(1, 1)]), .integer(0)),
             sqlite: #"instr("t0"."a", ?1) > 0"#, postgreSQL: #"strpos("t0"."a", $1) > 0"#),
        Case(name: "CASE is an atom", tree: .binary(.equal, .case([(when: .isNull(a, negated: false), then: .integer(0))], otherwise: nil), p(1, 0)),
             sqlite: #"CASE WHEN "t0"."a" IS NULL THEN 0 END = ?1"#, postgreSQL: #"CASE WHEN "t0"."a" IS NULL THEN 0 END = $1"#),
        Case(name: "EXISTS", tree: .not(.exists(SQLSelect(columns: [.integer(1)], from: SQLFrom(table: "Tag", alias: "t1"),
                                                            where: .and([.binary(.equal, .column("t1", "owner"), .column("t0", "_pk")),
                                                                         .not(.binary(.isNot, .column("t1", "name"), p(1, 7)))])))),
             sqlite: #"NOT EXISTS (SELECT 1 FROM "Tag" AS "t1" WHERE "t1"."owner" = "t0"."_pk" AND NOT "t1"."name" IS NOT ?1)"#,
             postgreSQL: #"NOT EXISTS (SELECT 1 FROM "Tag" AS "t1" WHERE "t1"."owner" = "t0"."_pk" AND NOT "t1"."name" IS DISTINCT FROM $1)"#),
        Case(name: "scalar subquery", tree: .binary(.greaterThan, .subquery(SQLSelect(columns: [.countAll], from: SQLFrom(table: "Book", alias: "t1"),
                                                                                     orderBy: [SQLOrdering(expression: .column("t1", "_pk"), descending: true)],
                                                                                     limit: .integer(1), offset: p(1, 2))), p(2, 1)),
             sqlite: #"(SELECT count(*) FROM "Book" AS "t1" ORDER BY "t1"."_pk" DESC LIMIT 1 OFFSET ?1) > ?2"#,
             postgreSQL: #"(SELECT count(*) FROM "Book" AS "t1" ORDER BY "t1"."_pk" DESC NULLS LAST LIMIT 1 OFFSET $1) > $2"#),
        Case(name: "quoted identifiers", tree: .column("t\"0", "we\"ird"), sqlite: #""t""0"."we""ird""#, postgreSQL: #""t""0"."we""ird""#),
        Case(name: "compiler text literal", tree: .function(.standard(.min), [.string("it's")]), sqlite: "min('it''s')", postgreSQL: "min('it''s')"),
    ]

    @Test(arguments: cases)
    func rendersInSQLite(_ c: Case) {
        let renderer = SQLRenderer(SQLiteDialect())
        #expect(renderer.render(c.tree) == c.sqlite)
        #expect(renderer.unsupported.isEmpty)
    }

    @Test(arguments: cases)
    func rendersInPostgreSQL(_ c: Case) {
        let renderer = SQLRenderer(PostgreSQLDialect())
        #expect(renderer.render(c.tree) == c.postgreSQL)
        #expect(renderer.unsupported.isEmpty)
    }

    /// Placeholders are numbered in the order the text uses them; a parameter used twice has
    /// one number; one never rendered is never bound.
    @Test func placeholdersAreNumberedByFirstUse() {
        let context = SQLGenerationContext(dialect: SQLiteDialect())
        let first = context.bind(.integer(10)), second = context.bind(.text("x")), unused = context.bind(.integer(99))
        _ = unused
        let tree = SQLExpression.and([.binary(.equal, Self.b, second), .binary(.greaterThanOrEqual, Self.a, first), .binary(.lessThan, Self.c, second)])
        let sqlite = SQLRenderer(SQLiteDialect())
        #expect(sqlite.render(tree) == #""t0"."b" = ?1 AND "t0"."a" >= ?2 AND "t0"."c" < ?1"#)
        #expect(sqlite.bindings == [.text("x"), .integer(10)])
        let postgreSQL = SQLRenderer(PostgreSQLDialect())
        #expect(postgreSQL.render(tree) == #""t0"."b" = $1 AND "t0"."a" >= $2 AND "t0"."c" < $1"#)
        #expect(postgreSQL.bindings == [.text("x"), .integer(10)])
    }

    /// Numbering goes on across the parts of one statement rendered by one renderer.
    @Test func numberingContinuesAcrossRenderCalls() {
        let context = SQLGenerationContext(dialect: SQLiteDialect())
        let renderer = SQLRenderer(SQLiteDialect())
        let text = renderer.render(.binary(.equal, Self.a, context.bind(.integer(1)))) + " LIMIT " + renderer.render(context.bind(.integer(5)))
        #expect(text == #""t0"."a" = ?1 LIMIT ?2"#)
        #expect(renderer.bindings == [.integer(1), .integer(5)])
    }

    /// Each of SQL's functions the compiler calls is spelled by both dialects: SQLite as the tree
    /// names it, PostgreSQL alike but for `instr` (`strpos`).
    @Test(arguments: SQLStandardFunction.allCases)
    func bothDialectsSpellEveryStandardFunction(_ function: SQLStandardFunction) {
        let tree = SQLExpression.function(.standard(function), [Self.a])
        let sqlite = SQLRenderer(SQLiteDialect())
        #expect(sqlite.render(tree) == function.rawValue + #"("t0"."a")"#)
        #expect(sqlite.unsupported.isEmpty)
        let postgreSQL = SQLRenderer(PostgreSQLDialect())
        #expect(postgreSQL.render(tree) == (function == .instr ? "strpos" : function.rawValue) + #"("t0"."a")"#)
        #expect(postgreSQL.unsupported.isEmpty)
    }

    /// What PostgreSQL cannot say (SQLite's storage classes, Sift's Swift functions) is
    /// reported, never silently written.
    @Test func postgreSQLReportsWhatItCannotSpell() {
        let tree = SQLExpression.and([.storageClassIn(Self.a, ["integer", "real"]), .function(.provided(.registered(.call)), [.string("abs:"), Self.b]),
                                      .binary(.lessThan, .collate(Self.c, "sift_case_insensitive"), .string("x"))])
        let postgreSQL = SQLRenderer(PostgreSQLDialect())
        _ = postgreSQL.render(tree)
        #expect(postgreSQL.unsupported == ["typeof", "sift_call", "sift_case_insensitive"])
        let sqlite = SQLRenderer(SQLiteDialect())
        #expect(sqlite.render(tree) == #"typeof("t0"."a") IN ('integer', 'real') AND sift_call('abs:', "t0"."b") AND "t0"."c" COLLATE sift_case_insensitive < 'x'"#)
        #expect(sqlite.unsupported.isEmpty)
        #expect(sqlite.render(.storageClassIn(Self.a, ["text"])) == #"typeof("t0"."a") = 'text'"#)
    }
}
