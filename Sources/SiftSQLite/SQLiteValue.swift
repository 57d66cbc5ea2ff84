/// A value as SQLite stores it: one of its five storage classes.
public enum SQLiteValue: Sendable, Hashable, CustomStringConvertible {
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
        case .text(let s):
            var out = "'"
            for c in s.unicodeScalars {
                if c == "'" { out.unicodeScalars.append(c) }
                out.unicodeScalars.append(c)
            }
            return out + "'"
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
