import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// How values are written into columns of databases Sift did not create (``ForeignColumnForm``,
/// ``ForeignDateText``), and how the rows a transaction wrote are listed (``ForeignWrites``).
@Suite struct ForeignColumnFormTests {
    static func date(_ text: String) -> Date { ISO8601.date(from: text)! }

    /// A column's values (one of them), a date written into it, and the text it gets.
    @Test(arguments: [
        ("2011-06-01", "2015-01-10T00:00:00Z", "2015-01-10"),
        ("2011-06-01", "2015-01-10T09:30:00Z", "2015-01-10 09:30:00"),
        ("2011-06-01", "2015-01-10T09:30:00.5Z", "2015-01-10 09:30:00.500"),
        ("2011-06-01 00:00:00", "2015-01-10T00:00:00Z", "2015-01-10 00:00:00"),
        ("2011-06-01 00:00:00", "2015-01-10T09:30:15Z", "2015-01-10 09:30:15"),
        ("2011-06-01 13:45", "2015-01-10T09:30:00Z", "2015-01-10 09:30"),
        ("2011-06-01 13:45", "2015-01-10T09:30:15Z", "2015-01-10 09:30:15"),
        ("2011-06-01T13:45:30", "2015-01-10T09:30:15Z", "2015-01-10T09:30:15"),
        ("2011-06-01T13:45:30Z", "2015-01-10T09:30:15.25Z", "2015-01-10T09:30:15.250Z"),
        ("2011-06-01T13:45:30.123456+02:00", "2015-01-10T09:30:15Z", "2015-01-10T09:30:15.000000+00:00"),
        ("2011-06-01T13:45:30+0200", "2015-01-10T09:30:15Z", "2015-01-10T09:30:15+0000"),
        ("2011-06-01 13:45:30.5", "2015-01-10T09:30:15.25Z", "2015-01-10 09:30:15.250"),
        ("2011-06-01 13:45:30.000", "2015-01-10T09:30:15Z", "2015-01-10 09:30:15.000"),
    ])
    func aDateIsWrittenInTheColumnsSpelling(_ existing: String, _ written: String, _ expected: String) throws {
        let spelling = try #require(ForeignDateText(shapeOf: existing))
        #expect(spelling.text(Self.date(written)) == expected)
        // What is written reads back as the same date.
        #expect(ISO8601.date(from: expected) == Self.date(written))
    }

    @Test func textThatIsNoDateHasNoSpelling() {
        for text in ["", "2011", "June 1st", "2011-13-01", "2011-06-01X"] { #expect(ForeignDateText(shapeOf: text) == nil, "\(text)") }
    }

    @Test func anEmptyColumnGetsSQLitesOwnText() {
        let days = ForeignDateText.forEmptyColumn(declared: "DATE"), times = ForeignDateText.forEmptyColumn(declared: "datetime")
        #expect(days.text(Self.date("2024-05-06T00:00:00Z")) == "2024-05-06")
        #expect(days.text(Self.date("2024-05-06T07:08:09Z")) == "2024-05-06 07:08:09")
        #expect(times.text(Self.date("2024-05-06T00:00:00Z")) == "2024-05-06 00:00:00")
    }

    /// Dates held as numbers keep their encoding, as the column is read.
    @Test(arguments: [
        (ForeignDateEncoding.unixSeconds, "1970-01-02T00:00:00Z", SQLiteValue.integer(86_400)),
        (.unixSeconds, "1970-01-02T00:00:00.5Z", .real(86_400.5)),
        (.unixMilliseconds, "1970-01-02T00:00:00.5Z", .integer(86_400_500)),
        (.julianDays, "2001-01-01T12:00:00Z", .real(2_451_911)),
        (.referenceSeconds, "2001-01-01T00:01:00Z", .real(60)),
    ])
    func aDateIsWrittenInTheColumnsEncoding(_ encoding: ForeignDateEncoding, _ written: String, _ expected: SQLiteValue) {
        let stored = ForeignColumnForm.dateNumber(encoding).stored(.date(Self.date(written)))
        #expect(stored == expected)
        #expect(stored.flatMap { encoding.referenceSeconds(of: SQLValue($0)) } == Self.date(written).timeIntervalSinceReferenceDate)
    }

    @Test func booleansDecimalsAndTextAreWrittenAsSQLiteHoldsThem() {
        #expect(ForeignColumnForm.boolean.stored(.bool(true)) == .integer(1))
        #expect(ForeignColumnForm.decimal.stored(.decimal(Decimal(string: "12.00")!)) == .integer(12))
        #expect(ForeignColumnForm.decimal.stored(.decimal(Decimal(string: "0.99")!)) == .real(0.99))
        #expect(ForeignColumnForm.asIs.stored(.string("Straße")) == .text("Straße"))
        #expect(ForeignColumnForm.asIs.stored(.null) == .null)
        // A year beyond 9999 has no ISO 8601 text.
        #expect(ForeignColumnForm.dateText(ForeignDateText(.date)).stored(.date(Date(timeIntervalSince1970: 300_000_000_000))) == nil)
    }

    @Test func aColumnsOneTextFormEndsWithADateOutsideIt() {
        let form = ForeignColumnForm.dateText(ForeignDateText(.date))
        #expect(!form.breaksTextDateForm(.date, writing: .date(Self.date("2015-01-10T00:00:00Z"))))
        #expect(form.breaksTextDateForm(.date, writing: .date(Self.date("2015-01-10T09:30:00Z"))))
        #expect(!form.breaksTextDateForm(.date, writing: .null))
    }

    @Test func theRowsWrittenAreListedAsRanges() {
        var writes = ForeignWrites()
        for key in [5, 6, 7, 8, 20, 3, 9, 21] { writes.wrote(Int64(key), in: "t") }
        writes.deleted(from: "u")
        #expect(writes.filter(of: "t", key: "\"id\"") == "\"id\" BETWEEN 5 AND 9 OR \"id\" BETWEEN 20 AND 21 OR \"id\" IN (3)")
        #expect(writes.filter(of: "u", key: "rowid") == nil)
        #expect(!writes.isEmpty)
        var many = ForeignWrites()
        for key in stride(from: 0, to: Int64(ForeignWrites.rangeLimit * 2 + 10), by: 2) { many.wrote(key, in: "t") }
        #expect(many.filter(of: "t", key: "rowid") == "1")
    }
}
