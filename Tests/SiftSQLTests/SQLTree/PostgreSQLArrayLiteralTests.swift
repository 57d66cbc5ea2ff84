@testable import SiftPostgreSQLStore
@testable import SiftSQL
@testable import SiftSQLStore
@testable import SiftSQLiteStore
import Testing

/// A long `IN` list in PostgreSQL: one array literal per kind of value, each element the value
/// its own parameter would be (the round trip through a server is LongInListTests' in
/// SiftPostgreSQLStoreTests).
@Suite struct PostgreSQLArrayLiteralTests {
    @Test func oneListPerKindInTheOrderTheyCome() {
        let lists = PostgreSQLArrayLiteral.lists([.text("a"), .integer(-3), .null, .real(1.5), .text("b"), .blob([0, 0xAB]), .integer(Int64.min)])
        #expect(lists.map(\.type) == ["text", "bigint", "float8", "bytea"])
        #expect(lists.map(\.literal) == [#"{"a","b",NULL}"#, "{-3,-9223372036854775808}", "{1.5}", #"{"\\x00ab"}"#])
    }

    @Test(arguments: [
        ("plain", #""plain""#), ("", #""""#), ("NULL", #""NULL""#), (#"q"uote"#, #""q\"uote""#), (#"back\slash"#, #""back\\slash""#),
        ("{a,b}", #""{a,b}""#), (" spaced ", #"" spaced ""#), ("日本🙂", #""日本🙂""#),
    ])
    func textsAreQuoted(_ text: String, _ element: String) {
        #expect(PostgreSQLArrayLiteral.quoted(text) == element)
    }

    @Test(arguments: [
        (0.1, "0.1"), (-0.0, "-0.0"), (Double.leastNonzeroMagnitude, "5e-324"), (1e300, "1e+300"), (Double.infinity, "Infinity"),
        (-Double.infinity, "-Infinity"), (Double.nan, "NULL"),  // a NaN parameter is sent as NULL
    ])
    func doublesReadBackExactly(_ value: Double, _ element: String) {
        #expect(PostgreSQLArrayLiteral.element(value) == element)
    }

    @Test func theDialectWritesAnUnnestPerKind() {
        var bound: [SQLValue] = []
        func bind(_ value: SQLValue) -> String {
            bound.append(value)
            return "$\(bound.count)"
        }
        let dialect = PostgreSQLDialect()
        #expect(dialect.membership(#""t0"."n""#, in: [.integer(1), .integer(2)], bind: bind) == #""t0"."n" IN (SELECT unnest($1::bigint[]))"#)
        #expect(dialect.membership("x", in: [.integer(1), .real(2.5)], bind: bind)
                == "(x IN (SELECT unnest($2::bigint[])) OR x IN (SELECT unnest($3::float8[])))")
        #expect(bound == [.text("{1,2}"), .text("{1}"), .text("{2.5}")])
    }
}
