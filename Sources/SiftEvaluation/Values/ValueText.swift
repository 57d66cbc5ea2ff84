import Foundation
import SiftLanguage

/// The text form of a value (FETCH.md §4, section names; CAST to NSString; table output):
/// a string itself; an integer in decimal; a double in its shortest round-trip form; a
/// boolean `1`/`0`; a date in ISO 8601 UTC; nil the empty string.
public enum ValueText {
    public static func text(_ value: Value) -> String {
        switch value {
        case .null: ""
        case .bool(let b): b ? "1" : "0"
        case .int(let i): String(i)
        case .double(let d): d.description
        case .decimal(let d): d.description
        case .string(let s): s
        case .date(let d): ISO8601.string(from: d)
        case .data(let d): d.base64EncodedString()
        case .uuid(let u): u.uuidString
        case .array(let e), .set(let e): "(" + e.map(text).joined(separator: ", ") + ")"
        case .dictionary(let d): "{" + d.pairs.map { "\($0.0) = \(text($0.1))" }.joined(separator: ", ") + "}"
        case .object(let o): "\(o.objectIdentity)"
        }
    }

    /// A value for an error message: strings quoted, others as text.
    static func describe(_ value: Value) -> String {
        if case .string(let s) = value { return CanonicalPrinter.formatString(s) }
        return text(value)
    }
}
