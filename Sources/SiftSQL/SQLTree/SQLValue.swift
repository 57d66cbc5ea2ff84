/// A value bound to a statement's placeholder or read from a result column, in no engine's own
/// type: the five kinds every SQL engine Sift speaks to can hold (SQLite's storage classes;
/// PostgreSQL's `bigint`, `double precision`, `text` and `bytea`, and NULL).
///
/// The compiler writes its constants as these (``GeneratedSQL/bindings``); each store's
/// connection binds them in its own form and reads its columns back into them.
public enum SQLValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as SQL text would write it (for printing bindings, never for building SQL).
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d): return "\(d)"
        case .text(let s): return SQLStringLiteral.quoted(s)
        case .blob(let bytes):
            let hex = "0123456789ABCDEF".utf8.map { $0 }
            var out = "X'"
            out.reserveCapacity(bytes.count * 2 + 3)
            for b in bytes {
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b & 0xF)]))
            }
            return out + "'"
        }
    }
}
