import Foundation
import SiftEvaluation
import SiftLanguage

/// Why a value does not fit an attribute.
public struct AttributeValueError: Error, Sendable {
    public let message: String
    init(_ message: String) { self.message = message }
}

/// Converts values into an attribute's stored form — the one conversion every store and the
/// importer use, so every engine holds the same values:
///
/// | type | accepts | stored as |
/// |---|---|---|
/// | Integer 16/32/64 | integers (and integral doubles) in range | `.int` |
/// | Double | numbers | `.double` |
/// | Float | numbers | `.double`, rounded to Float precision |
/// | Decimal | numbers, numeric strings | `.decimal` |
/// | String, URI | strings | `.string`, NFC |
/// | Boolean | booleans, the integers 0 and 1 | `.bool` |
/// | Date | dates, ISO 8601 strings | `.date` |
/// | Binary, Transformable | data, base64 strings | `.data` |
/// | UUID | UUIDs, UUID strings | `.uuid` |
/// | Undefined | integers, doubles, booleans, strings, data | as it is (strings NFC, booleans 0/1) |
///
/// nil stays nil (whether it is allowed is checked on save). NaN is refused; infinities are
/// numbers like any other.
public enum AttributeCoercion {
    public static func storedValue(_ value: Value, for type: AttributeType) throws(AttributeValueError) -> Value {
        if case .null = value { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            let range = type.integerRange ?? (Int64.min...Int64.max)
            let integer: Int64
            switch value {
            case .int(let i): integer = i
            case .double(let d) where d.rounded() == d && d >= -9.223372036854775808e18 && d < 9.223372036854775808e18:
                integer = Int64(d)
            default: throw mismatch(value, type)
            }
            guard range.contains(integer) else {
                throw AttributeValueError("\(integer) is out of range for \(type.name) (\(range.lowerBound)...\(range.upperBound))")
            }
            return .int(integer)
        case .double:
            if isNaN(value) { throw notANumber(type) }
            switch value {
            case .int(let i): return .double(Double(i))
            case .double(let d): return .double(d + 0.0)  // -0.0 is stored as 0.0 (SQLite cannot keep the sign)
            case .decimal(let d): return .double(NSDecimalNumber(decimal: d).doubleValue + 0.0)
            default: throw mismatch(value, type)
            }
        case .float:
            if isNaN(value) { throw notANumber(type) }
            switch value {
            case .int(let i): return .double(Double(Float(i)))
            case .double(let d): return .double(Double(Float(d)) + 0.0)
            case .decimal(let d): return .double(Double(Float(NSDecimalNumber(decimal: d).doubleValue)))
            default: throw mismatch(value, type)
            }
        case .decimal:
            if isNaN(value) { throw notANumber(type) }
            switch value {
            case .decimal: return value
            case .int(let i): return .decimal(Decimal(i))
            case .double(let d) where d.isFinite: return .decimal(Decimal(d))
            case .string(let s):
                guard let d = Decimal(string: s, locale: nil), !d.isNaN else { throw AttributeValueError("'\(s)' is not a decimal number") }
                return .decimal(d)
            default: throw mismatch(value, type)
            }
        case .string, .uri:
            guard case .string(let s) = value else { throw mismatch(value, type) }
            return .string(StringFolding.nfc(s))
        case .boolean:
            switch value {
            case .bool: return value
            case .int(0): return .bool(false)
            case .int(1): return .bool(true)
            default: throw mismatch(value, type)
            }
        case .date:
            switch value {
            case .date: return value
            case .string(let s):
                guard let date = ISO8601.date(from: s) else { throw AttributeValueError("'\(s)' is not an ISO 8601 date") }
                return .date(date)
            default: throw mismatch(value, type)
            }
        case .binary, .transformable:
            switch value {
            case .data: return value
            case .string(let s):
                guard let data = Data(base64Encoded: s) else { throw AttributeValueError("'\(s.prefix(40))' is not base64") }
                return .data(data)
            default: throw mismatch(value, type)
            }
        case .uuid:
            switch value {
            case .uuid: return value
            case .string(let s):
                guard let uuid = UUID(uuidString: s) else { throw AttributeValueError("'\(s)' is not a UUID") }
                return .uuid(uuid)
            default: throw mismatch(value, type)
            }
        case .undefined:
            // What every store keeps alike (SQLite's storage classes): integers, doubles, text, bytes.
            switch value {
            case .string(let s): return .string(StringFolding.nfc(s))
            case .bool(let b): return .int(b ? 1 : 0)
            case .int, .data: return value
            case .double(let d):
                if d.isNaN { throw notANumber(type) }
                return .double(d + 0.0)
            default: throw mismatch(value, type)
            }
        }
    }

    /// NaN is not a value: it equals nothing, not even itself, and has no place in a sort.
    private static func isNaN(_ value: Value) -> Bool {
        switch value {
        case .double(let d): d.isNaN
        case .decimal(let d): d.isNaN
        default: false
        }
    }

    private static func notANumber(_ type: AttributeType) -> AttributeValueError {
        AttributeValueError("NaN is not a value a \(type.name) attribute can hold")
    }

    private static func mismatch(_ value: Value, _ type: AttributeType) -> AttributeValueError {
        AttributeValueError("expected a value of type \(type.name), got \(value.kindName)")
    }
}
