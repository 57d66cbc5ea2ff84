import Foundation
import Sift

/// Values as the text of a table or CSV cell: strings as they are, numbers as in JSON, nil as
/// an empty cell, dates in ISO 8601, data in base64, arrays and dictionaries as compact JSON.
enum CellText {
    static func text(_ value: Value) -> String {
        switch value {
        case .null: ""
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): JSONWriter.doubleText(d) ?? d.description
        case .decimal(let d): d.description
        case .string(let s): s
        case .date(let d): ISO8601.string(from: d)
        case .data(let d): d.base64EncodedString()
        case .uuid(let u): u.uuidString
        case .array, .set, .dictionary, .object: value.jsonString()
        }
    }

    /// Numbers are right-aligned in tables.
    static func isNumber(_ value: Value) -> Bool {
        switch value {
        case .int, .double, .decimal: true
        default: false
        }
    }
}
