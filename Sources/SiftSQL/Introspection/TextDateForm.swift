import Foundation
import SiftLanguage

/// One fixed-width spelling of ISO 8601 dates, as a database Sift did not create may hold every
/// value of a text date column in (`2011-06-01 00:00:00`, SQLite's `datetime()`). Texts of one
/// such form order as their dates do (fixed-width digits, years 0000 to 9999, no zone), so a
/// comparison with a constant date can compare the text with the constant rendered in the form
/// — and an index on the column serves it — instead of reading every value through `sift_date`
/// (docs/SQLITE-DATABASES.md, *Dates*).
///
/// A text is of a form only when the evaluator reads it as a date (`ISO8601.date(from:)`) and
/// its seconds are below 60: `23:59:60`, which the evaluator reads as the next minute, would
/// order before it as text.
package enum TextDateForm: Int, Sendable, CaseIterable, Encodable {
    /// `2011-06-01`
    case date = 1
    /// `2011-06-01 13:45`
    case minutes = 2
    /// `2011-06-01 13:45:30` (SQLite's `datetime()`)
    case seconds = 3
    /// `2011-06-01T13:45:30`
    case secondsT = 4
    /// `2011-06-01T13:45:30Z`
    case secondsZ = 5

    /// The text's length.
    package var length: Int {
        switch self {
        case .date: 10
        case .minutes: 16
        case .seconds, .secondsT: 19
        case .secondsZ: 20
        }
    }

    /// The step between two dates of the form, in seconds.
    package var unit: Double {
        switch self {
        case .date: 86_400
        case .minutes: 60
        default: 1
        }
    }

    /// SQLite's `strftime` format that writes a date in the form.
    package var strftimeFormat: String {
        switch self {
        case .date: "%Y-%m-%d"
        case .minutes: "%Y-%m-%d %H:%M"
        case .seconds: "%Y-%m-%d %H:%M:%S"
        case .secondsT: "%Y-%m-%dT%H:%M:%S"
        case .secondsZ: "%Y-%m-%dT%H:%M:%SZ"
        }
    }

    /// How `sift schema` names it.
    package var pattern: String {
        switch self {
        case .date: "YYYY-MM-DD"
        case .minutes: "YYYY-MM-DD HH:MM"
        case .seconds: "YYYY-MM-DD HH:MM:SS"
        case .secondsT: "YYYY-MM-DDTHH:MM:SS"
        case .secondsZ: "YYYY-MM-DDTHH:MM:SSZ"
        }
    }

    /// The form a text is in; nil when it is in none (another spelling, or no date).
    package static func of(_ text: String) -> TextDateForm? {
        var text = text
        return text.withUTF8 { of(bytes: $0) }
    }

    /// The form UTF-8 `bytes` are in: the shape (digits and separators where the form has them)
    /// and a valid date — the month 1 to 12, the day within the month (the proleptic Gregorian
    /// calendar), hours below 24, minutes and seconds below 60 — exactly the texts of the form
    /// `ISO8601.date(from:)` reads, without a second below 60. Read by the byte, as every value
    /// of a sample is.
    package static func of(bytes: UnsafeBufferPointer<UInt8>) -> TextDateForm? {
        let form: TextDateForm
        switch bytes.count {
        case 10: form = .date
        case 16: form = .minutes
        case 19: form = bytes[10] == UInt8(ascii: "T") ? .secondsT : .seconds
        case 20: form = .secondsZ
        default: return nil
        }
        func number(_ start: Int, _ digits: Int) -> Int? {
            var value = 0
            for i in start..<start + digits {
                let b = bytes[i]
                guard b >= 0x30, b <= 0x39 else { return nil }
                value = value * 10 + Int(b - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2), bytes[7] == UInt8(ascii: "-"),
              let day = number(8, 2), (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        guard form != .date else { return form }
        let separator: UInt8 = form == .minutes || form == .seconds ? UInt8(ascii: " ") : UInt8(ascii: "T")
        guard bytes[10] == separator, let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(14, 2),
              hour < 24, minute < 60 else { return nil }
        guard form != .minutes else { return form }
        guard bytes[16] == UInt8(ascii: ":"), let second = number(17, 2), second < 60 else { return nil }
        if form == .secondsZ, bytes[19] != UInt8(ascii: "Z") { return nil }
        return form
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A date in the form: the text of the latest date of the form at or before `seconds`
    /// (since 2001, as the evaluator's dates are), and whether it is `seconds` itself; nil
    /// outside the years 0000 to 9999.
    package func text(atOrBefore seconds: Double) -> (text: String, isExact: Bool)? {
        guard seconds.isFinite else { return nil }
        // (Days since 2001 are whole days since 1970 too: the grid is the same.)
        let floored = (seconds / unit).rounded(.down) * unit
        // Years 0000 to 9999.
        guard floored >= -63_145_526_400, floored < 252_423_993_600 else { return nil }
        // "YYYY-MM-DDTHH:MM:SSZ" (a whole second: no fraction).
        let iso = ISO8601.string(from: Date(timeIntervalSinceReferenceDate: floored))
        let utf8 = Array(iso.utf8)
        guard utf8.count == 20 else { return nil }
        let text: String
        switch self {
        case .date: text = String(decoding: utf8[0..<10], as: UTF8.self)
        case .minutes: text = String(decoding: utf8[0..<10], as: UTF8.self) + " " + String(decoding: utf8[11..<16], as: UTF8.self)
        case .seconds: text = String(decoding: utf8[0..<10], as: UTF8.self) + " " + String(decoding: utf8[11..<19], as: UTF8.self)
        case .secondsT: text = String(decoding: utf8[0..<19], as: UTF8.self)
        case .secondsZ: text = iso
        }
        guard TextDateForm.of(text) == self else { return nil }
        return (text, floored == seconds)
    }
}
