/// A value sent to PostgreSQL as a parameter or read from a result column.
///
/// Parameters are sent in binary, each declared with its type (so `$1` means the same thing
/// whatever the SQL around it), except `typed`, which is sent as text for the server to parse.
/// Result columns arrive in binary and are decoded by their type OID (`PostgreSQLValueDecoder`):
/// reading back a value sent as a parameter gives the same value.
public enum PostgreSQLValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL NULL (sent with no type: the server infers it).
    case null
    /// `boolean`.
    case bool(Bool)
    /// `bigint`; `smallint`, `integer` and `oid` columns read as this too.
    case int64(Int64)
    /// `double precision`; `real` columns read as this too. NaN, ±infinity and -0.0 survive.
    case double(Double)
    /// `text` (UTF-8; PostgreSQL refuses NUL characters in text). `varchar`, `char(n)`, `name`,
    /// `json`, `jsonb` and `xml` columns read as this too.
    case text(String)
    /// `bytea`, any bytes.
    case bytes([UInt8])
    /// `timestamptz`, in binary.
    case timestamp(PostgreSQLTimestamp)
    /// A value of type `type` written as that type's text (`numeric` `"12.50"`, `uuid`
    /// `"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"`, `date` `"2024-02-29"`), sent as text for the
    /// server to parse (`.unspecified`: of the type the server infers). `numeric` and `uuid`
    /// columns read as this, in PostgreSQL's own text.
    case typed(String, PostgreSQLTypeOID)
    /// A value in the binary form of type `type`: what a column of a type this wrapper does not
    /// decode reads as (cast it to `text` in SQL to read its text instead).
    case binary([UInt8], PostgreSQLTypeOID)

    /// The value as an SQL literal would write it (for printing, never for building SQL).
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .bool(let b): return b ? "true" : "false"
        case .int64(let i): return String(i)
        case .double(let d): return "\(d)"
        case .text(let s): return Self.quoted(s)
        case .bytes(let bytes): return "'\\x\(Self.hex(bytes))'::bytea"
        case .timestamp(let t): return t.description
        case .typed(let s, let type): return "\(Self.quoted(s))::oid(\(type))"
        case .binary(let bytes, let type): return "binary(\\x\(Self.hex(bytes)))::oid(\(type))"
        }
    }

    /// The text of `.text`; nil for every other case.
    public var stringValue: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    /// The integer of `.int64`; nil for every other case.
    public var int64Value: Int64? {
        if case .int64(let i) = self { return i }
        return nil
    }

    /// The boolean of `.bool`; nil for every other case.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// Whether the value is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    private static func quoted(_ s: String) -> String {
        "'" + s.replacingAll("'", with: "''") + "'"
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        var out = ""
        out.unicodeScalars.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.unicodeScalars.append(digits[Int(b >> 4)])
            out.unicodeScalars.append(digits[Int(b & 0xF)])
        }
        return out
    }
}
