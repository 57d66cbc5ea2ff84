import SiftSQL

/// The values of a long `IN` list as PostgreSQL array literals, one per kind of value
/// (``PostgreSQLDialect``'s `membership`): `{1,2,3}` for `bigint[]`, `{"a","b\"c"}` for `text[]`.
///
/// Each element reads back as exactly the value bound alone would be: an integer's digits; a
/// double's shortest round-trip digits (`5e-324`, `-0.0`), `Infinity`, `-Infinity`, and NULL for
/// NaN (bound alone, a NaN is sent as NULL); a text quoted, `\` and `"` escaped (so spaces, commas,
/// braces and the word NULL stay text); bytes in bytea's hex form. A NULL value joins the first
/// list as a NULL element.
struct PostgreSQLArrayLiteral {
    /// The element type: `bigint`, `float8`, `text` or `bytea`.
    let type: String
    /// The array's text: `{1,2,NULL}`.
    let literal: String

    /// One literal per kind of value in `values`, in the order the kinds first appear.
    static func lists(_ values: [SQLValue]) -> [PostgreSQLArrayLiteral] {
        var order: [String] = []
        var elements: [String: [String]] = [:]
        var nulls = 0
        for value in values {
            let type: String
            let element: String
            switch value {
            case .null:
                nulls += 1
                continue
            case .integer(let integer):
                (type, element) = ("bigint", String(integer))
            case .real(let double):
                (type, element) = ("float8", Self.element(double))
            case .text(let text):
                (type, element) = ("text", Self.quoted(text))
            case .blob(let bytes):
                (type, element) = ("bytea", Self.quoted(Self.hex(bytes)))
            }
            if elements[type] == nil { order.append(type) }
            elements[type, default: []].append(element)
        }
        if order.isEmpty { order.append("text") }
        elements[order[0], default: []].append(contentsOf: repeatElement("NULL", count: nulls))
        return order.map { type in PostgreSQLArrayLiteral(type: type, literal: "{" + (elements[type] ?? []).joined(separator: ",") + "}") }
    }

    /// A double as `float8in` reads it back bit for bit.
    static func element(_ double: Double) -> String {
        if double.isNaN { return "NULL" }
        if double.isInfinite { return double < 0 ? "-Infinity" : "Infinity" }
        return double.description
    }

    /// A text as an array element: double-quoted, with `\` and `"` escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for character in text.unicodeScalars {
            if character == "\\" || character == "\"" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(character)
        }
        result += "\""
        return result
    }

    /// Bytes in bytea's hex input form: `\x0aff`.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        var text = "\\x"
        text.unicodeScalars.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.unicodeScalars.append(digits[Int(byte >> 4)])
            text.unicodeScalars.append(digits[Int(byte & 0xF)])
        }
        return text
    }
}
