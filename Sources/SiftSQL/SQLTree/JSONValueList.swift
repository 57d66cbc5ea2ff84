import SiftSQLite

/// The values of a long `IN` list as one JSON array, bound as one parameter
/// (``SQLDialect/membership(_:inJSONArray:)``): `[1,2,"three"]`.
///
/// Only integers and texts are written, the values JSON gives back exactly as they were bound
/// (an integer as SQLite's INTEGER, a string as TEXT); a list holding anything else (a real,
/// whose digits SQLite's JSON reader may round differently, data, NULL, text holding U+0000)
/// keeps one parameter per value.
struct JSONValueList {
    /// The fewest values written as one array; shorter lists keep their own parameters, as
    /// `sift sql` shows them.
    static let minimumCount = 64

    /// The JSON text of the array.
    let json: String

    /// The array of the values `parameters` bind, or nil when one is not a parameter not yet
    /// bound elsewhere, or is a value this array cannot carry exactly.
    init?(parameters: [SQLExpression]) {
        var json = "["
        json.reserveCapacity(parameters.count * 8)
        for (index, expression) in parameters.enumerated() {
            guard case .parameter(let parameter) = expression else { return nil }
            if index > 0 { json += "," }
            switch parameter.value {
            case .integer(let value):
                json += String(value)
            case .text(let text):
                guard Self.appendString(text, to: &json) else { return nil }
            case .real, .blob, .null:
                return nil
            }
        }
        json += "]"
        self.json = json
    }

    /// Appends `text` as a JSON string; false when it holds U+0000.
    private static func appendString(_ text: String, to json: inout String) -> Bool {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\0": return false
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            default:
                if scalar.value < 0x20 {
                    json += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    json.unicodeScalars.append(scalar)
                }
            }
        }
        json += "\""
        return true
    }
}
