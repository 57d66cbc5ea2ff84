import Foundation
@testable import SiftLanguage
import Testing

/// How a date prints (`ISO8601.string(from:)`): UTC, four-digit years (a minus sign before
/// year 0), microseconds without trailing zeros, the raw seconds beyond year ±9999; and each
/// text reads back as the date it came from.
@Suite struct ISO8601TextTests {
    static let cases: [(seconds: Double, text: String)] = [
        (0, "1970-01-01T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (1_609_459_200, "2021-01-01T00:00:00Z"),
        (1_609_459_200.5, "2021-01-01T00:00:00.5Z"),
        (1_609_459_200.000_001, "2021-01-01T00:00:00.000001Z"),
        (1_609_459_200.123_4, "2021-01-01T00:00:00.1234Z"),
        (1_609_459_200.999_999_7, "2021-01-01T00:00:01Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (-62_135_596_800, "0001-01-01T00:00:00Z"),
        (-62_167_219_200, "0000-01-01T00:00:00Z"),
        (-62_198_755_200, "-0001-01-01T00:00:00Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
    ]

    @Test(arguments: cases)
    func aDatePrints(_ example: (seconds: Double, text: String)) {
        let date = Date(timeIntervalSince1970: example.seconds)
        #expect(ISO8601.string(from: date) == example.text)
    }

    @Test func beyondYear9999TheSecondsPrint() {
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: 253_402_300_800)) == "253402300800.0")
    }

    @Test(arguments: cases.prefix(6))
    func aTextReadsBackAsItsDate(_ example: (seconds: Double, text: String)) throws {
        let date = try #require(ISO8601.date(from: example.text))
        #expect(abs(date.timeIntervalSince1970 - example.seconds) < 1e-6)
    }
}
