import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Every attribute type written by a PostgreSQL store, read back through another connection:
/// the value that went in comes out (dates to the microsecond), edge values included.
@Suite struct ColumnCodecTests {
    /// Writes one Item with `attributes`, saves, and reads it back from a reopened store.
    static func roundTrip(_ attributes: [String: Value]) async throws -> ManagedObject? {
        let test = try await StoreTestDatabase.make(StoreTestModels.everyType, label: "codec")
        defer { test.database.drop() }
        try test.store.insert("Item", id: ObjectID("x"), attributes)
        try test.store.save()
        return try test.reopened().fetch(FetchRequest(entityName: "Item")).first
    }

    @Test func everyTypeRoundTrips() async throws {
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 786_000_000.123456)
        let values: [String: Value] = [
            "i16": .int(-32768), "i32": .int(2_147_483_647), "i64": .int(.min), "d": .double(1.5e300), "f": .double(Double(Float(0.1))),
            "dec": .decimal(Decimal(string: "123456789012345678901234567890.12345678")!), "s": .string("héllo 'world'"), "u": .string("https://example.com/a?b=c"),
            "date": .date(date), "bin": .data(Data([0, 1, 255, 0])), "uuid": .uuid(uuid), "b": .bool(true),
        ]
        let object = try #require(try await Self.roundTrip(values))
        for (name, value) in values {
            #expect(same(object[attribute: name], value), "\(name)")
        }
        #expect(object.objectID == ObjectID("x"))
    }

    @Test func edgeNumbersRoundTrip() async throws {
        let object = try #require(try await Self.roundTrip(["d": .double(-0.0), "f": .double(.infinity), "i64": .int(.max), "dec": .decimal(Decimal(string: "-0.000000000000000000000000001")!)]))
        guard case .double(let d)? = object[attribute: "d"] else { Issue.record("no double"); return }
        // Every store keeps -0.0 as 0.0 (AttributeCoercion); the codec itself keeps the sign
        // (doublesThroughTheServer).
        #expect(d == 0 && d.sign == .plus)
        #expect(same(object[attribute: "f"], .double(.infinity)))
        #expect(same(object[attribute: "i64"], .int(.max)))
        #expect(same(object[attribute: "dec"], .decimal(Decimal(string: "-0.000000000000000000000000001")!)))
        let negative = try #require(try await Self.roundTrip(["d": .double(-.infinity)]))
        #expect(same(negative[attribute: "d"], .double(-.infinity)))
    }

    @Test func emptyValuesAndNullsRoundTrip() async throws {
        let object = try #require(try await Self.roundTrip(["s": .string(""), "bin": .data(Data())]))
        #expect(same(object[attribute: "s"], .string("")))
        #expect(same(object[attribute: "bin"], .data(Data())))
        #expect(same(object[attribute: "i64"], .null))
        #expect(same(object[attribute: "date"], .null))
    }

    /// NaN, which attributes refuse, and the other doubles, through the codec and the server.
    @Test func doublesThroughTheServer() async throws {
        let connection = try PostgreSQLConnection(await PostgreSQLTestServer.conninfo())
        for value in [Double.nan, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude] {
            let back = PostgreSQLColumnCodec.decode(try connection.scalar("SELECT $1", [try PostgreSQLColumnCodec.encode(.double(value))]), as: .double)
            guard case .double(let d) = back else { Issue.record("\(value) read back as \(back)"); continue }
            #expect(d.bitPattern == value.bitPattern || (d.isNaN && value.isNaN), "\(value)")
        }
        let nan = PostgreSQLColumnCodec.decode(try connection.scalar("SELECT $1::numeric", [try PostgreSQLColumnCodec.encode(.decimal(.nan))]), as: .decimal)
        guard case .decimal(let decimal) = nan else { Issue.record("decimal NaN read back as \(nan)"); return }
        #expect(decimal.isNaN)
    }

    /// PostgreSQL's text cannot hold NUL: such a value is refused with a clear error, and
    /// nothing is written.
    @Test func nulInTextIsRefused() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.everyType, label: "nul")
        defer { test.database.drop() }
        #expect(throws: StoreError.self) { try test.store.insert("Item", ["s": .string("a\u{0}b")]) }
        do {
            try test.store.insert("Item", ["s": .string("a\u{0}b")])
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.message.contains("NUL"))
        }
        #expect(!test.store.hasChanges)
        #expect(try test.store.count(FetchRequest(entityName: "Item")) == 0)
        #expect(throws: StoreError.self) { try test.store.insert("Item", id: ObjectID("a\u{0}"), [:]) }
        #expect(test.store.object(with: ObjectID("a\u{0}")) == nil)
    }

    /// Dates are kept to the microsecond: whole microseconds read back bit for bit; a finer
    /// fraction is rounded to the nearest microsecond (halves away from zero).
    @Test func datesKeepMicroseconds() throws {
        for seconds in [0.0, 786_000_000.123456, -30_000_000.000001, 1e-6, 123.5e-6 * 2] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let back = PostgreSQLColumnCodec.date(try PostgreSQLColumnCodec.timestamp(date))
            #expect(back.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern, "\(seconds)")
        }
        let fine = Date(timeIntervalSinceReferenceDate: 10.0000004)
        #expect(PostgreSQLColumnCodec.date(try PostgreSQLColumnCodec.timestamp(fine)).timeIntervalSinceReferenceDate == 10.0)
        let half = Date(timeIntervalSinceReferenceDate: 0.0000005)
        #expect(try PostgreSQLColumnCodec.timestamp(half).microsecondsSince2000 == 31_622_400_000_001)
        let infinite = Date(timeIntervalSinceReferenceDate: .infinity)
        #expect(try PostgreSQLColumnCodec.timestamp(infinite) == .infinity)
        #expect(PostgreSQLColumnCodec.date(.negativeInfinity).timeIntervalSinceReferenceDate == -.infinity)
    }

    @Test func datesRoundTripThroughTheStore() async throws {
        let date = Date(timeIntervalSinceReferenceDate: -978_307_200.5)  // 1970-01-01 minus half a second
        let object = try #require(try await Self.roundTrip(["date": .date(date)]))
        #expect(same(object[attribute: "date"], .date(date)))
        let rounded = try #require(try await Self.roundTrip(["date": .date(Date(timeIntervalSinceReferenceDate: 1.0000012))]))
        #expect(same(rounded[attribute: "date"], .date(Date(timeIntervalSinceReferenceDate: 1.000001))))
    }

    @Test func columnTypes() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.everyType, label: "types")
        defer { test.database.drop() }
        let connection = try test.connect()
        var types: [String: String] = [:]
        for row in try connection.query("SELECT column_name::text, data_type::text FROM information_schema.columns WHERE table_name = 'Item'") {
            if let name = row[0].stringValue, let type = row[1].stringValue { types[name] = type }
        }
        #expect(types == [
            "_pk": "bigint", "_id": "text", "_entity": "text", "i16": "smallint", "i32": "integer", "i64": "bigint",
            "d": "double precision", "f": "double precision", "dec": "numeric", "s": "text", "u": "text",
            "date": "timestamp with time zone", "bin": "bytea", "uuid": "uuid", "b": "boolean",
            // The String attribute's folds and sort key (the URI's are not: only Strings are searchable).
            "_cd_s": "text", "_c_s": "text", "_s_s": "text",
        ])
        // Text in code-point order, whatever the database's collation.
        let collations = try connection.query("SELECT column_name::text FROM information_schema.columns WHERE table_name = 'Item' AND collation_name = 'C'")
        #expect(Set(collations.compactMap { $0[0].stringValue }) == ["s", "u", "_cd_s", "_c_s", "_s_s"])
    }
}
