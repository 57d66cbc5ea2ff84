import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// How a value is written into a column of a database Sift did not create: in the form the
/// column's values already have, so `sqlite3` and the database's other programs read what they
/// would have written themselves — a text date stays text in its spelling (``ForeignDateText``),
/// a date of Unix seconds, milliseconds or Julian days stays that number, a Boolean is 0 or 1, a
/// Decimal a number, text text. (Sift's own stores write dates as seconds since 2001 and
/// decimals as text; none of that reaches a database Sift did not create.)
enum ForeignColumnForm: Sendable, Equatable {
    /// As the value is: an integer, a real, text or a blob (String, Integer, Double, Binary and
    /// Undefined attributes; the column's affinity does the rest, as it does for `sqlite3`).
    case asIs
    /// A Boolean: 0 or 1.
    case boolean
    /// A Decimal: an integer when it is whole, else the nearest real (the number a `NUMERIC`
    /// or `DECIMAL` column holds, as `UPDATE t SET price = 0.99` stores it).
    case decimal
    /// A date held as a number in this encoding.
    case dateNumber(ForeignDateEncoding)
    /// A date held as text in this spelling.
    case dateText(ForeignDateText)

    /// The form values of `attribute` take in `column`. A date column's form is the one its
    /// values show: the one fixed spelling its type was chosen with, else that of the newest
    /// value `newest` finds (a number is in the encoding the column is read with), else
    /// SQLite's own text for a column that holds no dates yet.
    static func of(_ attribute: AttributeDescription, column: ForeignColumn?, declaredType: String,
                   newest: () -> SQLiteValue?) -> ForeignColumnForm {
        switch attribute.type {
        case .boolean: return .boolean
        case .decimal: return .decimal
        case .date:
            if let form = column?.textDates?.form { return .dateText(ForeignDateText(form)) }
            // (A Core Data store's dates are read as they are: seconds since 2001.)
            let encoding = column?.dateEncoding ?? .referenceSeconds
            switch newest() {
            case .integer?, .real?: return .dateNumber(encoding)
            case .text(let text)?:
                if let spelling = ForeignDateText(shapeOf: text) { return .dateText(spelling) }
            default: break
            }
            return .dateText(ForeignDateText.forEmptyColumn(declared: declaredType))
        default:
            return .asIs
        }
    }

    /// The value (already converted to its attribute's type) as the column holds it; nil for a
    /// date this form cannot hold (beyond the years 0000 to 9999 as text).
    func stored(_ value: Value) -> SQLiteValue? {
        switch (self, value) {
        case (_, .null): return .null
        case (.boolean, .bool(let flag)): return .integer(flag ? 1 : 0)
        case (.decimal, .decimal(let decimal)):
            // (The canonical text of a whole decimal is its digits.)
            if let integer = Int64(DecimalText.text(decimal)) { return .integer(integer) }
            return .real(DecimalText.nearestDouble(decimal))
        case (.dateNumber(let encoding), .date(let date)):
            return Self.number(date, encoding)
        case (.dateText(let spelling), .date(let date)):
            return spelling.text(date).map { .text($0) }
        default:
            return Self.plain(value)
        }
    }

    /// A date as a number in `encoding`: whole seconds (or milliseconds) as an integer, else a real.
    private static func number(_ date: Date, _ encoding: ForeignDateEncoding) -> SQLiteValue {
        let reference = date.timeIntervalSinceReferenceDate
        let number: Double
        switch encoding {
        case .referenceSeconds: return .real(reference)
        case .julianDays: return .real(reference / 86_400 + 2_451_910.5)
        case .unixSeconds: number = reference + 978_307_200
        case .unixMilliseconds: number = ((reference + 978_307_200) * 1000 * 1000).rounded() / 1000
        }
        if number == number.rounded(), let integer = Int64(exactly: number) { return .integer(integer) }
        return .real(number)
    }

    /// A value as it is: integers, reals, text, blobs (a Boolean 0 or 1).
    private static func plain(_ value: Value) -> SQLiteValue {
        switch value {
        case .int(let i): .integer(i)
        case .double(let d): .real(d)
        case .bool(let b): .integer(b ? 1 : 0)
        case .string(let s): .text(s)
        case .data(let d): .blob([UInt8](d))
        case .decimal(let d): .real(DecimalText.nearestDouble(d))
        case .uuid(let u): .text(u.uuidString)
        case .date(let d): .text(ISO8601.string(from: d))
        default: .null
        }
    }

    /// The spelling of text this form writes for `value`, where it is a date that does not fit
    /// the column's one fixed spelling `form` (the column then no longer holds only that form).
    func breaksTextDateForm(_ form: TextDateForm, writing value: Value) -> Bool {
        guard case .date(let date) = value else { return false }
        guard case .dateText(let spelling) = self, spelling.isSpelling(of: form), let text = spelling.text(date) else { return true }
        return TextDateForm.of(text) != form
    }
}
