import Foundation
import SiftLanguage

/// The typed values of LANGUAGE.md §3 in JSON: an object with exactly one of these keys and a
/// string value stands for a value JSON has no kind for.
///
///     {"$date": "2021-03-04T05:06:07Z"}      → .date   (ISO 8601)
///     {"$uuid": "E621E1F8-C36C-..."}          → .uuid
///     {"$data": "AQI="}                       → .data   (base64)
///     {"$decimal": "1.25"}                    → .decimal
///     {"$double": "1e999"}                    → .double (what JSON cannot write: "1e999" and
///                                               "-1e999" for the infinities, "NaN")
///
/// An invalid string (`{"$date": "yesterday"}`) is an error; any other object, including one
/// of these keys with a non-string value or next to other keys, is an ordinary dictionary.
/// (`{"$ref": ...}` names a stored object; without a store it is an ordinary dictionary.)
public enum JSONTypedForm {
    /// The keys that introduce typed values.
    public static let keys: Set<String> = ["$date", "$uuid", "$data", "$decimal", "$double"]

    /// The value for a parsed object: the typed value, or the dictionary itself.
    /// `valueOffset`/`objectOffset` place errors.
    static func value(of object: ValueDictionary, valueOffset: Int, objectOffset: Int) throws(JSONScanFailure) -> Value {
        guard object.count == 1, object.keys[0].utf8.first == UInt8(ascii: "$"),
              case .string(let text) = object.values[0]
        else { return .dictionary(object) }
        do throws(Invalid) {
            if let typed = try typedValue(key: object.keys[0], text: text) { return typed }
        } catch {
            throw JSONScanFailure(message: error.message, offset: valueOffset, ranOut: false)
        }
        return .dictionary(object)
    }

    struct Invalid: Error {
        let message: String
    }

    /// The value of `{"<key>": "<text>"}`; nil when `key` is not a typed-value key.
    static func typedValue(key: String, text: String) throws(Invalid) -> Value? {
        switch key {
        case "$date":
            guard text.utf8.count <= maximumLength, let date = ISO8601.date(from: text) else {
                throw Invalid(message: "invalid ISO 8601 date \(quoted(text))")
            }
            return .date(date)
        case "$uuid":
            guard text.utf8.count <= maximumLength, let uuid = UUID(uuidString: text) else { throw Invalid(message: "invalid UUID \(quoted(text))") }
            return .uuid(uuid)
        case "$data":
            guard let data = Data(base64Encoded: text) else { throw Invalid(message: "invalid base64 in $data") }
            return .data(data)
        case "$decimal":
            // A decimal holds 38 digits: a longer text is refused before Foundation reads it
            // (whose reading slows with the length).
            guard text.utf8.count <= maximumLength, isDecimalText(text), let decimal = Decimal(string: text, locale: nil), !decimal.isNaN else {
                throw Invalid(message: "invalid decimal \(quoted(text))")
            }
            return .decimal(decimal)
        case "$double":
            guard let double = doubleValue(text) else { throw Invalid(message: "invalid double \(quoted(text))") }
            return .double(double)
        default:
            return nil
        }
    }

    /// The double a `$double` text holds: a decimal number (`1e999` and `-1e999` are the
    /// infinities, as a JSON number too long for a double reads), or `inf`, `infinity`, `nan`
    /// in any case, with an optional sign.
    static func doubleValue(_ text: String) -> Double? {
        guard text.utf8.count <= maximumLength else { return nil }
        if isDecimalText(text) { return Double(text) }
        var word = Substring(text.lowercased())
        var negative = false
        if let sign = word.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            word = word.dropFirst()
        }
        switch word {
        case "inf", "infinity": return negative ? -.infinity : .infinity
        case "nan": return .nan
        default: return nil
        }
    }

    /// The text ``JSONWriter`` writes for a double JSON has no number for (an infinity or NaN).
    static func doubleText(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        return d < 0 ? "-1e999" : "1e999"
    }

    /// The longest text a date, UUID or decimal is read from (each needs far less).
    static let maximumLength = 256

    /// A text for a message, quoted; a long one cut, with its length.
    static func quoted(_ text: String) -> String {
        let limit = 40
        guard text.utf8.count > limit else { return "'\(text)'" }
        let count = text.count
        guard count > limit else { return "'\(text)'" }
        return "'\(text.prefix(limit))…' (\(count) characters)"
    }

    /// `-?digits(.digits)?([eE][+-]?digits)?`, also `.5` and `5.` (Foundation's Decimal reads a
    /// valid prefix of anything, so the whole text is checked first).
    static func isDecimalText(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            var n = 0
            while let b = bytes.first, b &- 0x30 < 10 { bytes.removeFirst(); n += 1 }
            return n
        }
        if let b = bytes.first, b == UInt8(ascii: "-") || b == UInt8(ascii: "+") { bytes.removeFirst() }
        var mantissaDigits = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return false }
        if let b = bytes.first, b | 0x20 == UInt8(ascii: "e") {
            bytes.removeFirst()
            if let s = bytes.first, s == UInt8(ascii: "-") || s == UInt8(ascii: "+") { bytes.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
