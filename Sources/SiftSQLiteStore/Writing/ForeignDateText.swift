import Foundation
import SiftLanguage
import SiftSQL
import SiftSQLStore

/// How a text date column of a database Sift did not create spells its dates, for writing new
/// ones the same way: `2011-06-01`, `2011-06-01 00:00:00` (SQLite's `date()` and `datetime()`),
/// `2011-06-01T13:45:30Z`, `2011-06-01 13:45:30.250`, `2011-06-01T13:45:30+00:00`.
///
/// A date is written in the spelling when it fits it; one that needs more — a time of day in a
/// column of days, seconds where the column has minutes, a fraction of a second — gets what it
/// needs more in the same style (`2011-06-01 13:45:00` among `2011-06-01`, as SQLite's
/// `datetime()` writes it), so no part of it is lost and, for spellings without a zone, the
/// texts still order as their dates. Dates are written in UTC (a text without a zone is read as
/// UTC).
struct ForeignDateText: Sendable, Equatable {
    /// How much of a date the spelling shows.
    enum Precision: Int, Sendable, Comparable {
        case day, minute, second, fraction

        static func < (a: Precision, b: Precision) -> Bool { a.rawValue < b.rawValue }
    }

    var precision: Precision
    /// The digits of a fraction of a second, where the spelling has one.
    var fractionDigits = 0
    /// Between the day and the time: `" "` or `"T"`.
    var separator = " "
    /// After the time: `""` (none: UTC), `"Z"`, `"+00:00"` or `"+0000"`.
    var zone = ""

    /// The spelling of a ``TextDateForm``.
    init(_ form: TextDateForm) {
        switch form {
        case .date: precision = .day
        case .minutes: precision = .minute
        case .seconds: precision = .second
        case .secondsT: precision = .second; separator = "T"
        case .secondsZ: precision = .second; separator = "T"; zone = "Z"
        }
    }

    init(precision: Precision, fractionDigits: Int = 0, separator: String = " ", zone: String = "") {
        self.precision = precision
        self.fractionDigits = fractionDigits
        self.separator = separator
        self.zone = zone
    }

    /// The spelling a text written by another program is in; nil when it is no ISO 8601 date.
    init?(shapeOf text: String) {
        guard ISO8601.date(from: text) != nil else { return nil }
        let bytes = Array(text.utf8)
        guard bytes.count > 10 else {
            self.init(precision: .day)
            return
        }
        let separator = bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") ? "T" : " "
        var index = 16
        var precision = Precision.minute
        var digits = 0
        if bytes.count > 16, bytes[16] == UInt8(ascii: ":") {
            precision = .second
            index = 19
            if bytes.count > 19, bytes[19] == UInt8(ascii: ".") || bytes[19] == UInt8(ascii: ",") {
                precision = .fraction
                index = 20
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
                digits = index - 20
            }
        }
        let rest = String(decoding: bytes[min(index, bytes.count)...], as: UTF8.self)
        let zone = rest.isEmpty ? "" : rest == "Z" || rest == "z" ? "Z" : rest.contains(":") ? "+00:00" : "+0000"
        self.init(precision: precision, fractionDigits: digits, separator: separator, zone: zone)
    }

    /// The spelling for a column with no values yet: SQLite's own, `YYYY-MM-DD` for a column
    /// declared `DATE`, `YYYY-MM-DD HH:MM:SS` for `DATETIME`, `TIMESTAMP` or `TIME`.
    static func forEmptyColumn(declared: String) -> ForeignDateText {
        ForeignDateText(precision: declared.uppercased().contains("TIME") ? .second : .day)
    }

    /// The date in this spelling, with more precision only where it needs it; nil for a date
    /// beyond the years 0000 to 9999, which no such spelling holds.
    func text(_ date: Date) -> String? {
        // "YYYY-MM-DDTHH:MM:SS[.ffffff]Z", rounded to microseconds.
        let iso = Array(ISO8601.string(from: date).utf8)
        guard iso.count >= 20, iso[4] == UInt8(ascii: "-"), iso.last == UInt8(ascii: "Z") else { return nil }
        let day = String(decoding: iso[0..<10], as: UTF8.self)
        let hours = String(decoding: iso[11..<16], as: UTF8.self)
        let seconds = String(decoding: iso[16..<19], as: UTF8.self)
        let fraction = iso.count > 20 ? String(decoding: iso[20..<(iso.count - 1)], as: UTF8.self) : ""
        var needed = Precision.day
        if !fraction.isEmpty { needed = .fraction }
        else if seconds != ":00" { needed = .second }
        else if hours != "00:00" { needed = .minute }
        // A time of day among days is SQLite's `datetime()` text (seconds and all).
        let shown = precision == .day && needed > .day ? max(.second, needed) : max(precision, needed)
        if shown == .day && zone.isEmpty { return day }
        var text = day + separator + hours
        if shown >= .second { text += seconds }
        if shown == .fraction {
            var digits = fraction
            // As many digits as the column's values have (or milliseconds), more only if needed.
            let wanted = max(fractionDigits, digits.count <= 3 ? 3 : digits.count)
            digits += String(repeating: "0", count: max(0, wanted - digits.count))
            text += "." + digits
        }
        return text + zone
    }

    /// Whether texts in this spelling are those of `form` (every date written fits the form's
    /// width, unless it needs more).
    func isSpelling(of form: TextDateForm) -> Bool { self == ForeignDateText(form) }
}
