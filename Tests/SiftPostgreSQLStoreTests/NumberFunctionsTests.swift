import Foundation
import PostgreSQLTestSupport
import SiftPostgreSQL
@testable import SiftPostgreSQLStore
import SiftSQL
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
}
