import Foundation
import SiftEvaluation
import SiftStore

/// How attribute values are stored in SQLite columns (FETCH.md §2), and read back.
///
/// | attribute type | stored as |
/// |---|---|
/// | Integer 16/32/64 | INTEGER |
/// | Boolean | INTEGER 0 or 1 |
/// | Double, Float | REAL (a Float holds its 32-bit value) |
/// | Decimal | TEXT, its canonical decimal text (``DecimalText``); a store of layout 2 held REAL, read back through its shortest decimal text |
/// | String, URI | TEXT, NFC |
/// | Date | REAL seconds since 2001-01-01 00:00:00 UTC (Core Data's layout) |
/// | Binary, Transformable | BLOB |
/// | UUID | BLOB of its 16 bytes |
///
/// Values reach this codec already converted to their attribute's type (see
/// `AttributeCoercion`), so encoding never meets a foreign kind except in introspected
/// databases, where columns are dynamically typed and any value is read as what it is.
package enum ColumnCodec {
    /// The SQL type a column of this attribute type is declared with.
    package static func declaredType(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float, .date: "REAL"
        // TEXT affinity keeps the decimal's text as it is (REAL or NUMERIC affinity would
        // turn it into the nearest double).
        case .string, .uri, .decimal: "TEXT"
        case .binary, .transformable, .uuid: "BLOB"
        // No declared type: the column keeps every value as it is (BLOB affinity).
        case .undefined: ""
        }
    }

    /// A value as stored.
    package static func encode(_ value: Value) -> SQLValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .integer(b ? 1 : 0)
        case .int(let i): return .integer(i)
        case .double(let d): return .real(d)
        case .decimal(let d): return .text(DecimalText.text(d))
        case .string(let s): return .text(StringFolding.nfc(s))
        case .date(let d): return .real(d.timeIntervalSinceReferenceDate)
        case .data(let d): return .blob([UInt8](d))
        case .uuid(let u): return .blob(withUnsafeBytes(of: u.uuid) { [UInt8]($0) })
        case .array, .set, .dictionary, .object: return .null
        }
    }

    /// A stored value read back as an attribute of `type` (nil type: as what it is).
    package static func decode(_ stored: SQLValue, as type: AttributeType?) -> Value {
        switch (stored, type) {
        case (.null, _): return .null
        case (.integer(let i), .boolean?): return .bool(i != 0)
        case (.integer(let i), .date?): return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
        case (.real(let d), .date?): return .date(Date(timeIntervalSinceReferenceDate: d))
        case (.integer(let i), .decimal?): return .decimal(Decimal(i))
        case (.text(let s), .decimal?): return DecimalText.decimal(s).map(Value.decimal) ?? .string(s)
        case (.real(let d), .decimal?):
            // Layout 2 stored the double nearest the decimal's text, read back through its
            // shortest text. A decimal has no infinity (and `Decimal(Double.infinity)` traps):
            // one written into the file by other means reads as NaN, as the evaluator's
            // arithmetic makes it.
            guard d.isFinite else { return .decimal(.nan) }
            return .decimal(Decimal(string: "\(d)") ?? Decimal(d))
        case (.integer(let i), .double?), (.integer(let i), .float?): return .double(Double(i))
        case (.blob(let b), .uuid?) where b.count == 16:
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case (.integer(let i), _): return .int(i)
        case (.real(let d), _): return .double(d)
        case (.text(let s), _): return .string(s)
        case (.blob(let b), _): return .data(Data(b))
        }
    }

    /// Whether a column of a database Sift did not create whose attribute is of `type` is read
    /// as that type (Date, Boolean, Decimal), rather than as stored.
    package static func convertsForeign(_ type: AttributeType) -> Bool {
        type == .date || type == .boolean || type == .decimal
    }
}
