import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
@testable import SiftPostgreSQLStore
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// The number function a PostgreSQL store installs (`sift_decimal_double`) gives, bit for bit,
/// the double Foundation gives for a decimal read from the same text
/// (`NSDecimalNumber(decimal:).doubleValue`, the evaluator's conversion), which is not the
/// nearest double (`numeric::float8` is) for about half of such decimals.
@Suite struct NumberFunctionsTests {
    /// Decimal texts of 1 to 38 digits, the point anywhere, exponents from -100 to 90, trailing
    /// zeros, negatives; each in the canonical text a store writes (``DecimalText``).
    static func texts() -> [String] {
        var generator = DifferentialRandom(seed: 0x5EED_DEC1)
        var texts = ["0", "1", "-1", "0.1", "0.2", "0.3", "12.552", "1200", "-0.000001", "1e-128", "9e127", "340282366920938463463374607431768211455",
                     "99999999999999999999999999999999999999", "0.00000000000000000000000000000000000001", "123456789012345678901234567890.12345678"]
        for _ in 0..<4000 {
            let count = Int(generator.next() % 38) + 1
            var digits = String((0..<count).map { _ in Character(String(generator.next() % 10)) })
            if generator.next() % 5 == 0 { digits += String(repeating: "0", count: Int(generator.next() % 6)) }
            let point = Int(generator.next() % UInt64(digits.count + 1))
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if text.hasPrefix(".") { text = "0" + text }
            if generator.next() % 3 == 0 { text += "e\(Int(generator.next() % 191) - 100)" }
            if generator.next() % 2 == 0 { text = "-" + text }
            if let decimal = Decimal(string: text, locale: nil), !decimal.isNaN { texts.append(DecimalText.text(decimal)) }
        }
        return texts
    }

    @Test func theServerConvertsDecimalsAsFoundation() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "numberfunctions")
        defer { test.database.drop() }
        #expect(test.store.hasNumberFunctions)
        let connection = try test.connect()
        let texts = Self.texts()
        let literal = "{" + texts.joined(separator: ",") + "}"
        // The double's bits, as a bigint: no text conversion in between.
        let rows = try connection.query("""
            SELECT t, ('x' || encode(float8send(sift_decimal_double(t::numeric)), 'hex'))::bit(64)::bigint
            FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n
            """, [.text(literal)])
        #expect(rows.count == texts.count)
        var mismatches: [String] = [], rounded = 0
        for (text, row) in zip(texts, rows) {
            guard let decimal = Decimal(string: text, locale: nil) else { continue }
            let expected = NSDecimalNumber(decimal: decimal).doubleValue
            let bits = row[1].int64Value.map { UInt64(bitPattern: $0) }
            if bits != expected.bitPattern { mismatches.append("\(text): \(bits.map { Double(bitPattern: $0) }.map(String.init(describing:)) ?? "NULL") ≠ \(expected)") }
            if Double(text) != expected { rounded += 1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(texts.count): \(mismatches.prefix(10))")
        // (The test means something: most of these are not the nearest double.)
        #expect(rounded > texts.count / 4)
    }

    /// Doubles of every exponent (random bits), whole numbers around 10¹⁵ and 10¹⁶, powers of ten
    /// and the special values: `sift_double_text` writes each as Swift's `description` does.
    @Test func theServerWritesDoublesAsSwift() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "numberfunctions")
        defer { test.database.drop() }
        let connection = try test.connect()
        // (Its own setting, whatever the session's.)
        try connection.execute("SET extra_float_digits = -3")
        var generator = DifferentialRandom(seed: 0xD0_0B1E)
        var doubles: [Double] = [0, -0.0, 1, -1, 5, 0.1, 0.2 + 0.1, 1e-5, 1e-4, 0.0001234, 1e15, 1e16, 1e17, 123456789012345680, 9007199254740992,
                                 .infinity, -.infinity, .nan, 1e300, 1e-300, 9.999e300, 100, 1234567]
        for e in -30...30 { doubles.append(pow(10, Double(e))); doubles.append(-3 * pow(10, Double(e))) }
        for _ in 0..<20_000 {
            let d = Double(bitPattern: generator.next())
            if !d.isNaN, d == 0 || (1e-300...1e301).contains(d.magnitude) { doubles.append(d) }
            doubles.append(Double(generator.int(in: -1_000_000...1_000_000)) * pow(10, Double(generator.int(in: -8...12))))
        }
        let literal = "{" + doubles.map { $0.isNaN ? "NaN" : $0.isInfinite ? ($0 < 0 ? "-Infinity" : "Infinity") : "\($0)" }.joined(separator: ",") + "}"
        let rows = try connection.query("SELECT sift_double_text(d) FROM unnest($1::float8[]) WITH ORDINALITY AS u(d, n) ORDER BY n", [.text(literal)])
        #expect(rows.count == doubles.count)
        var mismatches: [String] = []
        for (d, row) in zip(doubles, rows) where row[0].stringValue != d.description {
            mismatches.append("\(d.description) ≠ \(row[0].stringValue ?? "NULL")")
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(doubles.count): \(mismatches.prefix(10))")
        // Beyond 10³⁰⁰ (and below 10⁻³⁰⁰) an error: the fetch runs in memory.
        for d in [Double.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e301, -1e-301] {
            #expect(throws: PostgreSQLError.self) { _ = try connection.query("SELECT sift_double_text($1::float8)", [.text("\(d)")]) }
        }
    }

    /// Decimals meeting doubles, NaN computed (a store holds none), infinities, zero divisors and nil, run in the server and
    /// answered as the evaluator answers (an in-memory store gives the reference).
    @Test func numbersRunInTheServerAsInTheEvaluator() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.everyType, label: "numberfetches")
        defer { test.database.drop() }
        let store = test.store
        let reference = AtomicStore.inMemory(model: StoreTestModels.everyType)
        let rows: [(Value, Value, Value)] = [
            (.double(1e308), .int(0), .decimal(Decimal(string: "12.552")!)), (.double(.infinity), .int(0), .decimal(Decimal(string: "0.1")!)),
            (.double(2.5), .int(2), .decimal(Decimal(string: "-1200")!)), (.null, .int(3), .null), (.double(-.infinity), .null, .decimal(0)),
            (.double(0.1), .int(-1), .decimal(Decimal(string: "0.1")!)), (.double(12.552), .int(1), .decimal(Decimal(string: "12.552")!)),
        ]
        for (index, (d, i, dec)) in rows.enumerated() {
            let values: [String: Value] = ["d": d, "i64": i, "dec": dec, "i32": .int(Int64(index))]
            try store.insert("Item", id: ObjectID("i\(index)"), values)
            try reference.insert("Item", id: ObjectID("i\(index)"), values)
        }
        try store.save()
        for statement in [
            "Item WHERE dec == d", "Item WHERE dec < d", "Item WHERE dec == 0.1", "Item WHERE d / i64 == nil", "Item WHERE d * i64 == nil",
            "Item WHERE d * i64 != d", "Item WHERE d ** 0 == 1", "Item WHERE i64 ** d == 1", "Item WHERE d - d == nil", "Item WHERE -dec < d",
            "Item WHERE floor:(dec) == 12", "Item WHERE dec * 2.0 IN {25.104, nil}", "Item WHERE CAST(d, 'NSString') IN {'nan', 'inf', '2.5', '0.1'}",
            "Item WHERE CAST(dec, 'NSString') == '-1200'", "Item WHERE i64 << 63 < 0", "Item WHERE i64 >> 1 == -1", "Item WHERE i64 ^ 3 == 2",
        ] {
            let request = try FetchRequest(statement: statement + " SORT BY i32")
            let generated = try store.generatedSQL(for: request)
            #expect(generated.inMemoryPredicate == nil, "\(statement): \(generated)")
            let (got, expected) = (try store.fetch(request).objectIDs, try reference.fetch(request).objectIDs)
            #expect(got == expected, "\(statement): \(got) ≠ \(expected), \(generated)")
        }
    }

    /// A numeric no decimal holds (from another program) is an error, and the fetch runs in memory.
    @Test func aValueBeyondADecimalIsAnError() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "numberfunctions")
        defer { test.database.drop() }
        let connection = try test.connect()
        for text in ["1e200", "1e-200", "3402823669209384634633746074317682114561", "Infinity"] {
            #expect(throws: PostgreSQLError.self) { _ = try connection.query("SELECT sift_decimal_double('\(text)'::numeric)") }
        }
        let nan = try connection.query("SELECT sift_decimal_double('NaN'::numeric)::text, sift_decimal_double(NULL) IS NULL")
        #expect(nan.first?[0].stringValue == "NaN")
        #expect(nan.first?[1].boolValue == true)
    }

    /// A database without PL/pgSQL (removed by its owner) still takes a store: it is made without
    /// the number functions, says so in its metadata, and what they would serve runs in memory,
    /// with the evaluator's answers.
    @Test func aDatabaseWithoutPLpgSQLTakesAStoreWithoutNumberFunctions() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("noplpgsql")
        defer { database.drop() }
        _ = try database.connect().run("DROP EXTENSION plpgsql", [])
        let store = try PostgreSQLStore.create(connection: try database.connect(), model: StoreTestModels.everyType)
        #expect(!store.hasNumberFunctions)
        let metadata = try database.connect().query(#"SELECT "value" FROM "sift.metadata" WHERE "key" = 'number functions'"#)
        #expect(metadata.first?[0].stringValue == "0")
        try store.insert("Item", id: ObjectID("a"), ["d": .double(0.2), "dec": .decimal(Decimal(string: "0.1")!)])
        try store.insert("Item", id: ObjectID("b"), ["d": .double(2.5), "dec": .decimal(Decimal(string: "12.552")!)])
        try store.save()
        let request = try FetchRequest(statement: "Item WHERE dec < d")
        #expect(try store.generatedSQL(for: request).inMemoryPredicate != nil)
        #expect(try store.fetch(request).objectIDs == [ObjectID("a")])
        #expect(try PostgreSQLStore.open(connection: try database.connect()).hasNumberFunctions == false)
    }
}
