import SiftPostgreSQL
import Testing

/// Every kind of value sent as a parameter, stored, and read back: equal to what was sent, and
/// what the server holds is checked by its own text for it (so an encoding and a decoding wrong
/// in the same way cannot pass).
@Suite struct PostgreSQLValueTests {
    struct RoundTrip: CustomTestStringConvertible, Sendable {
        let column: String
        let value: PostgreSQLValue
        /// `v::text` on the server; nil for NULL.
        let serverText: String?
        var testDescription: String { "\(column) \(value)" }
    }

    static let roundTrips: [RoundTrip] = [
        RoundTrip(column: "bigint", value: .int64(.max), serverText: "9223372036854775807"),
        RoundTrip(column: "bigint", value: .int64(.min), serverText: "-9223372036854775808"),
        RoundTrip(column: "bigint", value: .int64(0), serverText: "0"),
        RoundTrip(column: "bigint", value: .null, serverText: nil),
        RoundTrip(column: "double precision", value: .double(-0.0), serverText: "-0"),
        RoundTrip(column: "double precision", value: .double(.nan), serverText: "NaN"),
        RoundTrip(column: "double precision", value: .double(.infinity), serverText: "Infinity"),
        RoundTrip(column: "double precision", value: .double(-.infinity), serverText: "-Infinity"),
        RoundTrip(column: "double precision", value: .double(0.1), serverText: "0.1"),
        RoundTrip(column: "double precision", value: .double(.leastNonzeroMagnitude), serverText: "5e-324"),
        RoundTrip(column: "double precision", value: .double(-1.7976931348623157e308), serverText: "-1.7976931348623157e+308"),
        RoundTrip(column: "text", value: .text(""), serverText: ""),
        RoundTrip(column: "text", value: .text("naïve 🦊 日本語 e\u{301}"), serverText: "naïve 🦊 日本語 e\u{301}"),
        RoundTrip(column: "text", value: .text("'); DROP TABLE t; --"), serverText: "'); DROP TABLE t; --"),
        RoundTrip(column: "text", value: .text(#"\x00 $1 "quoted" 'single' \\"#), serverText: #"\x00 $1 "quoted" 'single' \\"#),
        RoundTrip(column: "text", value: .null, serverText: nil),
        RoundTrip(column: "bytea", value: .bytes([]), serverText: #"\x"#),
        RoundTrip(column: "bytea", value: .bytes([0, 1, 0, 0xFF, 0x27]), serverText: #"\x000100ff27"#),
        RoundTrip(column: "bytea", value: .null, serverText: nil),
        RoundTrip(column: "boolean", value: .bool(true), serverText: "true"),
        RoundTrip(column: "boolean", value: .bool(false), serverText: "false"),
        RoundTrip(column: "timestamptz", value: .timestamp(PostgreSQLTimestamp(microsecondsSince2000: 762_525_296_789_012)),
                  serverText: "2024-02-29 12:34:56.789012+00"),
        RoundTrip(column: "timestamptz", value: .timestamp(PostgreSQLTimestamp(secondsSince1970: 0)),
                  serverText: "1970-01-01 00:00:00+00"),
        RoundTrip(column: "timestamptz", value: .timestamp(.infinity), serverText: "infinity"),
        RoundTrip(column: "timestamptz", value: .timestamp(.negativeInfinity), serverText: "-infinity"),
        RoundTrip(column: "numeric", value: .typed("12.340", .numeric), serverText: "12.340"),
        RoundTrip(column: "numeric", value: .typed("-0.0001", .numeric), serverText: "-0.0001"),
        RoundTrip(column: "numeric", value: .typed("123456789012345678901234567890.123456789", .numeric),
                  serverText: "123456789012345678901234567890.123456789"),
        RoundTrip(column: "numeric", value: .typed("NaN", .numeric), serverText: "NaN"),
        RoundTrip(column: "numeric", value: .typed("-Infinity", .numeric), serverText: "-Infinity"),
        RoundTrip(column: "uuid", value: .typed("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", .uuid),
                  serverText: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
    ]

    @Test(arguments: roundTrips)
    func roundTrip(_ trip: RoundTrip) async throws {
        let connection = try await PostgreSQLTestConnection.make()
        try connection.execute("CREATE TEMP TABLE t (v \(trip.column))")
        #expect(try connection.run("INSERT INTO t (v) VALUES ($1)", [trip.value]) == 1)
        let row = try #require(try connection.query("SELECT v, v::text, v IS NULL FROM t").first)
        #expect(Self.same(row[0], trip.value), "read back \(row[0])")
        #expect(row[1].stringValue == trip.serverText)
        #expect(row[2] == .bool(trip.value.isNull))
        // The table is still there: the hostile text was a value, never SQL.
        #expect(try connection.scalar("SELECT count(*) FROM t") == .int64(1))
    }

    /// Equal, doubles bit for bit (-0.0 is not 0.0), any NaN matching any NaN.
    static func same(_ a: PostgreSQLValue, _ b: PostgreSQLValue) -> Bool {
        if case .double(let x) = a, case .double(let y) = b {
            return x.isNaN ? y.isNaN : x.bitPattern == y.bitPattern
        }
        return a == b
    }

    @Test func textWithANULIsRefused() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        // Sent in binary, the server sees the NUL and refuses it (text cannot hold one)...
        let binary = PostgreSQLTestConnection.error { _ = try connection.query("SELECT $1::text", [.text("a\0b")]) }
        #expect(binary?.sqlState == "22021")
        // ...and text parameters would be cut at it: refused before they are sent.
        let typed = PostgreSQLTestConnection.error { _ = try connection.query("SELECT $1", [.typed("1\02", .numeric)]) }
        #expect(typed?.sqlState == "22021")
    }

    struct Decoding: CustomTestStringConvertible, Sendable {
        let sql: String
        let value: PostgreSQLValue
        var testDescription: String { sql }
    }

    /// Columns of every type the decoder knows, and one it does not.
    @Test(arguments: [
        Decoding(sql: "SELECT (-32768)::int2", value: .int64(-32768)),
        Decoding(sql: "SELECT (-2147483648)::int4", value: .int64(-2_147_483_648)),
        Decoding(sql: "SELECT 4294967295::oid", value: .int64(4_294_967_295)),
        Decoding(sql: "SELECT 1.5::real", value: .double(1.5)),
        Decoding(sql: "SELECT 'x'::varchar(3)", value: .text("x")),
        Decoding(sql: "SELECT 'ab'::char(3)", value: .text("ab ")),
        Decoding(sql: "SELECT 'n'::name", value: .text("n")),
        Decoding(sql: #"SELECT 'r'::"char""#, value: .text("r")),
        Decoding(sql: #"SELECT '{"a": [1, 2]}'::jsonb"#, value: .text(#"{"a": [1, 2]}"#)),
        Decoding(sql: #"SELECT '[1,2]'::json"#, value: .text("[1,2]")),
        Decoding(sql: "SELECT '2000-01-02'::date", value: .binary([0, 0, 0, 1], .date)),
        Decoding(sql: "SELECT '2000-01-01 00:00:01'::timestamp", value: .timestamp(PostgreSQLTimestamp(microsecondsSince2000: 1_000_000))),
        Decoding(sql: "SELECT NULL::int4", value: .null),
    ])
    func decodesByType(_ decoding: Decoding) async throws {
        let connection = try await PostgreSQLTestConnection.make()
        #expect(try connection.scalar(decoding.sql) == decoding.value)
    }

    /// Binary numerics decode to exactly the server's text, the server being the reference.
    @Test(arguments: [
        "0", "0.000", "1", "-1", "10000", "9999", "12345678", "0.5", "-0.0001", "0.00001234",
        "1e-20", "1e20", "123.456e10", "3.14159265358979323846264338327950288419716939937510",
        "-99999999999999999999.99999999999999999999", "1.10", "100000000", "0.0000000001000",
        "NaN", "Infinity", "-Infinity",
    ])
    func numericMatchesTheServersText(literal: String) async throws {
        let connection = try await PostgreSQLTestConnection.make()
        let row = try #require(try connection.query("SELECT $1::numeric, $1::numeric::text", [.text(literal)]).first)
        let text = try #require(row[1].stringValue)
        #expect(row[0] == .typed(text, .numeric))
    }

    @Test func parametersAreTypedAsTheyAreSent() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        #expect(try connection.scalar("SELECT pg_typeof($1)::text", [.int64(1)]) == .text("bigint"))
        #expect(try connection.scalar("SELECT pg_typeof($1)::text", [.double(1)]) == .text("double precision"))
        #expect(try connection.scalar("SELECT pg_typeof($1)::text", [.text("1")]) == .text("text"))
        #expect(try connection.scalar("SELECT pg_typeof($1)::text", [.typed("1", .numeric)]) == .text("numeric"))
        // A typed text with no type takes the one the SQL needs.
        try connection.execute("CREATE TEMP TABLE d (day date)")
        try connection.run("INSERT INTO d VALUES ($1)", [.typed("2024-02-29", .unspecified)])
        #expect(try connection.scalar("SELECT day::text FROM d") == .text("2024-02-29"))
        // Text is text: into a bigint column it is a type error, not a silent conversion.
        try connection.execute("CREATE TEMP TABLE n (v bigint)")
        let error = PostgreSQLTestConnection.error { try connection.run("INSERT INTO n VALUES ($1)", [.text("1")]) }
        #expect(error?.sqlState == "42804")
    }

    @Test func timestampSeconds() {
        #expect(PostgreSQLTimestamp(secondsSince1970: 946_684_800.5).microsecondsSince2000 == 500_000)
        #expect(PostgreSQLTimestamp(microsecondsSince2000: -1_000_000).secondsSince1970 == 946_684_799)
        #expect(PostgreSQLTimestamp(secondsSince1970: .infinity) == .infinity)
        #expect(PostgreSQLTimestamp(secondsSince1970: -1e300) == .negativeInfinity)
        #expect(PostgreSQLTimestamp.infinity.secondsSince1970 == .infinity)
    }
}
