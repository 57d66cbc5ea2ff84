import Foundation
import SiftEvaluation
import SiftPostgreSQL
import SiftSQL
import SiftStore

/// How attribute values are held in a PostgreSQL store's columns, and read back.
///
/// | attribute type | column type | sent and read as |
/// |---|---|---|
/// | Integer 16/32/64 | `smallint` / `integer` / `bigint` | binary integers (the model's ranges are PostgreSQL's) |
/// | Boolean | `boolean` | binary |
/// | Double, Float | `double precision` | binary: -0.0, NaN and ±infinity survive (a Float holds its 32-bit value) |
/// | Decimal | `numeric` | the decimal's canonical text (``DecimalText``), read back from PostgreSQL's text; any size |
/// | String, URI | `text` | UTF-8, NFC (as the SQLite store keeps it); a NUL character is refused |
/// | Date | `timestamptz` | binary microseconds: rounded to the nearest microsecond |
/// | Binary, Transformable | `bytea` | binary |
/// | UUID | `uuid` | its text, read back from PostgreSQL's text |
///
/// Dates: PostgreSQL keeps microseconds, so a date is rounded to the nearest microsecond since
/// 2001-01-01 (halves away from zero) when written; a date that is a whole number of
/// microseconds (the `Date` nearest one, as an ISO 8601 text with up to six fraction digits
/// gives) reads back exactly the same `Date`. ±infinity are PostgreSQL's `±infinity`; a finite
/// date outside PostgreSQL's range (4713 BC to 294276 AD) is refused by the server.
///
/// Undefined attributes have no PostgreSQL type (a column holds one type): models with them
/// are refused (``PostgreSQLSchemaDDL``).
package enum PostgreSQLColumnCodec {
    /// The column type of an attribute type (nil: none, the model is refused).
    package static func columnType(_ type: AttributeType) -> String? {
        switch type {
        case .integer16: "smallint"
        case .integer32: "integer"
        case .integer64: "bigint"
        case .boolean: "boolean"
        case .double, .float: "double precision"
        case .decimal: "numeric"
        case .string, .uri: "text"
        case .date: "timestamptz"
        case .binary, .transformable: "bytea"
        case .uuid: "uuid"
        case .undefined: nil
        }
    }

    /// Microseconds between 2000-01-01 (PostgreSQL's epoch) and 2001-01-01 (`Date`'s).
    static let microsecondsFrom2000To2001: Int64 = 31_622_400_000_000

    /// A value as sent (values arrive converted to their attribute's type).
    package static func encode(_ value: Value) throws(StoreError) -> PostgreSQLValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int64(i)
        case .double(let d): return .double(d)
        case .decimal(let d): return .typed(DecimalText.text(d), .numeric)
        case .string(let s): return .text(try text(s))
        case .date(let d): return .timestamp(try timestamp(d))
        case .data(let d): return .bytes([UInt8](d))
        case .uuid(let u): return .typed(u.uuidString, .uuid)
        case .array, .set, .dictionary, .object:
            throw StoreError(.invalidValue, "a PostgreSQL store cannot hold \(value) as an attribute value")
        }
    }

    /// Text as stored: NFC; PostgreSQL's text cannot hold the NUL character.
    package static func text(_ s: String) throws(StoreError) -> String {
        guard !s.utf8.contains(0) else {
            throw StoreError(.invalidValue, "PostgreSQL text cannot hold the NUL character (U+0000)")
        }
        return StringFolding.nfc(s)
    }

    /// A date as a `timestamptz`, rounded to the nearest microsecond.
    package static func timestamp(_ date: Date) throws(StoreError) -> PostgreSQLTimestamp {
        let seconds = date.timeIntervalSinceReferenceDate
        if seconds == .infinity { return .infinity }
        if seconds == -.infinity { return .negativeInfinity }
        let microseconds = (seconds * 1_000_000).rounded(.toNearestOrAwayFromZero)
        guard let exact = Int64(exactly: microseconds),
              case let (sum, overflow) = exact.addingReportingOverflow(microsecondsFrom2000To2001), !overflow,
              sum != .max, sum != .min else {
            throw StoreError(.invalidValue, "the date \(seconds) seconds from 2001-01-01 is outside PostgreSQL's timestamptz range")
        }
        return PostgreSQLTimestamp(microsecondsSince2000: sum)
    }

    /// The date a `timestamptz` holds.
    package static func date(_ timestamp: PostgreSQLTimestamp) -> Date {
        if timestamp == .infinity { return Date(timeIntervalSinceReferenceDate: .infinity) }
        if timestamp == .negativeInfinity { return Date(timeIntervalSinceReferenceDate: -.infinity) }
        return Date(timeIntervalSinceReferenceDate: Double(timestamp.microsecondsSince2000 - microsecondsFrom2000To2001) / 1_000_000)
    }

    /// A column's value read back as an attribute of `type` (nil: as what it is).
    package static func decode(_ stored: PostgreSQLValue, as type: AttributeType?) -> Value {
        switch stored {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int64(let i):
            switch type {
            case .double?, .float?: return .double(Double(i))
            case .decimal?: return .decimal(Decimal(i))
            case .boolean?: return .bool(i != 0)
            default: return .int(i)
            }
        case .double(let d): return .double(d)
        case .text(let s): return .string(s)
        case .bytes(let b): return .data(Data(b))
        case .timestamp(let t): return .date(date(t))
        case .typed(let s, let oid):
            if oid == .numeric { return DecimalText.decimal(s).map(Value.decimal) ?? .string(s) }
            if oid == .uuid { return UUID(uuidString: s).map(Value.uuid) ?? .string(s) }
            return .string(s)
        case .binary(let bytes, _): return .data(Data(bytes))
        }
    }

    /// A value a compiled query selected, in the form SQLite would hold it, as the compiler
    /// reads columns (`PostgreSQLDialect`): booleans and integers as integers, doubles as
    /// reals (NaN too), dates as reals (seconds since 2001), numerics and text as text, bytes
    /// (a `uuid_send`'s too) as blobs.
    package static func stored(_ value: PostgreSQLValue) -> SQLValue {
        switch value {
        case .null: .null
        case .bool(let b): .integer(b ? 1 : 0)
        case .int64(let i): .integer(i)
        case .double(let d): .real(d)
        case .text(let s), .typed(let s, _): .text(s)
        case .bytes(let b), .binary(let b, _): .blob(b)
        case .timestamp(let t): .real(date(t).timeIntervalSinceReferenceDate)
        }
    }
}
