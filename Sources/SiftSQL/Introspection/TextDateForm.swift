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
enum TextDateForm: Int, Sendable, CaseIterable, Codable {
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
    var length: Int {
        switch self {
        case .date: 10
        case .minutes: 16
        case .seconds, .secondsT: 19
        case .secondsZ: 20
        }
    }

    /// The step between two dates of the form, in seconds.
    var unit: Double {
        switch self {
        case .date: 86_400
        case .minutes: 60
        default: 1
        }
    }

    /// SQLite's `strftime` format that writes a date in the form: a text is of the form exactly
    /// where `strftime(format, text, '+0 seconds')` gives it back (the modifier has SQLite count
    /// the date out again from the day number, so an invalid day or hour does not come back).
    var strftimeFormat: String {
        switch self {
        case .date: "%Y-%m-%d"
        case .minutes: "%Y-%m-%d %H:%M"
        case .seconds: "%Y-%m-%d %H:%M:%S"
        case .secondsT: "%Y-%m-%dT%H:%M:%S"
        case .secondsZ: "%Y-%m-%dT%H:%M:%SZ"
        }
    }

    /// How `sift schema` names it.
    var pattern: String {
        switch self {
        case .date: "YYYY-MM-DD"
        case .minutes: "YYYY-MM-DD HH:MM"
        case .seconds: "YYYY-MM-DD HH:MM:SS"
        case .secondsT: "YYYY-MM-DDTHH:MM:SS"
        case .secondsZ: "YYYY-MM-DDTHH:MM:SSZ"
        }
    }

    /// The form a text is in; nil when it is in none (another spelling, or no date).
    static func of(_ text: String) -> TextDateForm? {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 } }
        guard bytes.count >= 10, digits(0..<4), bytes[4] == UInt8(ascii: "-"), digits(5..<7), bytes[7] == UInt8(ascii: "-"), digits(8..<10) else {
            return nil
        }
        let form: TextDateForm
        switch bytes.count {
        case 10: form = .date
        case 16: form = .minutes
        case 19: form = bytes[10] == UInt8(ascii: "T") ? .secondsT : .seconds
        case 20: form = .secondsZ
        default: return nil
        }
        if form != .date {
            let separator: UInt8 = form == .minutes || form == .seconds ? UInt8(ascii: " ") : UInt8(ascii: "T")
            guard bytes[10] == separator, digits(11..<13), bytes[13] == UInt8(ascii: ":"), digits(14..<16) else { return nil }
            if form != .minutes {
                guard bytes[16] == UInt8(ascii: ":"), digits(17..<19), bytes[17] < UInt8(ascii: "6") else { return nil }
            }
            if form == .secondsZ, bytes[19] != UInt8(ascii: "Z") { return nil }
        }
        return ISO8601.date(from: text) == nil ? nil : form
    }

    /// A date in the form: the text of the latest date of the form at or before `seconds`
    /// (since 2001, as the evaluator's dates are), and whether it is `seconds` itself; nil
    /// outside the years 0000 to 9999.
    func text(atOrBefore seconds: Double) -> (text: String, isExact: Bool)? {
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
