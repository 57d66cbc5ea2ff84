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

/// The columns of tabular output: the union of the results' top-level keys, in the order they
/// are first seen. A result that is not a dictionary (a number in a JSON array of numbers) is
/// shown in a `SELF` column.
struct Columns {
    static let selfColumn = "SELF"
    private(set) var names: [String] = []
    private var seen: Set<String> = []

    init(_ values: some Sequence<Value>) {
        for value in values {
            if case .dictionary(let dictionary) = value {
                for key in dictionary.keys where seen.insert(key).inserted { names.append(key) }
            } else if seen.insert(Self.selfColumn).inserted {
                names.append(Self.selfColumn)
            }
        }
    }

    /// The value of a result in a column (nil where it has no such key).
    func cell(_ value: Value, _ column: String) -> Value {
        if case .dictionary(let dictionary) = value { return dictionary[column] ?? .null }
        return column == Self.selfColumn ? value : .null
    }
}
