import SiftPostgreSQL
import Testing

@Suite struct PostgreSQLIdentifierTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("Mixed Case", #""Mixed Case""#),
        (#"a"b"#, #""a""b""#),
        (#"""#, #""""""#),
        ("select", #""select""#),
        ("naïve; DROP TABLE x; --", #""naïve; DROP TABLE x; --""#),
        // A quote and a combining mark are one Character; the quote is still doubled.
        ("a\"\u{301}b", "\"a\"\"\u{301}b\""),
    ])
    func quoted(name: String, expected: String) {
        #expect(PostgreSQLIdentifier.quoted(name) == expected)
    }

    /// Any name is a name: a table and column with quotes, spaces and a reserved word.
    @Test func quotedNamesMeanThemselves() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        let table = PostgreSQLIdentifier.quoted(#"we"ird table"#)
        let column = PostgreSQLIdentifier.quoted("order")
        try connection.execute("CREATE TEMP TABLE \(table) (\(column) text)")
        try connection.run("INSERT INTO \(table) (\(column)) VALUES ($1)", [.text("ok")])
        #expect(try connection.scalar("SELECT \(column) FROM \(table)") == .text("ok"))
        #expect(try connection.scalar("SELECT relname FROM pg_class WHERE relname = $1", [.text(#"we"ird table"#)]) == .text(#"we"ird table"#))
        #expect(PostgreSQLIdentifier.qualified(schema: "s", name: #"t""#) == #""s"."t""""#)
    }
}

@Suite struct PostgreSQLValueLiteralTests {
    /// A text value printed as a literal doubles every quote, also one a combining mark follows
    /// (one `Character` with the quote, which the server reads as a quote and a mark).
    @Test(arguments: [
        ("it's", "'it''s'"),
        ("x'\u{301}y", "'x''\u{301}y'"),
        ("''", "''''''"),
    ])
    func textLiteral(text: String, expected: String) {
        #expect(PostgreSQLValue.text(text).description == expected)
    }
}
