import Foundation
import SiftLanguage

/// Writes a ``Value`` as JSON text, the inverse of ``JSONParser``: what it writes reads back as
/// the same value.
///
///     Value.dictionary(ValueDictionary([("at", .date(d))])).jsonString()   // {"at":{"$date":"2021-03-04T05:06:07Z"}}
///
/// - integers as digits; doubles in their shortest round-trip form, always with a `.` or an
///   exponent (`2.0`, `1e+100`), so they read back as doubles; infinities and NaN, which JSON
///   has no number for, in the typed form `{"$double": "1e999"}` (`"-1e999"`, `"NaN"`);
/// - the typed forms: `{"$date": "<ISO 8601>"}`, `{"$uuid": "..."}`, `{"$data": "<base64>"}`,
///   `{"$decimal": "1.5"}`;
/// - sets as arrays; dictionaries in their key order; objects as `{"$ref": "<identity>"}`;
/// - strings with `"`, `\` and control characters escaped, other characters as they are.
public enum JSONWriter {
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Two-space indentation, one element or key per line, `"key": value`.
        public static let prettyPrinted = Options(rawValue: 1)
    }

    /// Appends the JSON text of `value` to `output`.
    public static func write(_ value: Value, to output: inout [UInt8], options: Options = []) {
        var writer = Writer(output: output, pretty: options.contains(.prettyPrinted))
        output = []
        writer.write(value, indent: 0)
        output = writer.output
    }

    /// The JSON text of `value`.
    public static func string(_ value: Value, options: Options = []) -> String {
        var bytes: [UInt8] = []
        write(value, to: &bytes, options: options)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a JSON string literal (quoted and escaped).
    public static func writeString(_ text: String, to output: inout [UInt8]) {
        var writer = Writer(output: output, pretty: false)
        output = []
        writer.writeString(text)
        output = writer.output
    }

    /// The shortest text that reads back as `d`, with a `.` or an exponent; nil for NaN and
    /// infinities.
    public static func doubleText(_ d: Double) -> String? {
        guard d.isFinite else { return nil }
        return d.description  // "2.0", "0.1", "1e+100", "-0.0"
    }

    struct Writer {
        var output: [UInt8]
        let pretty: Bool

        mutating func write(_ value: Value, indent: Int) {
            switch value {
            case .null: append("null")
            case .bool(let b): append(b ? "true" : "false")
            case .int(let i): append(String(i))
            case .double(let d):
                if let text = JSONWriter.doubleText(d) { append(text) } else { writeTyped("$double", JSONTypedForm.doubleText(d), indent: indent) }
            case .decimal(let d): writeTyped("$decimal", d.description, indent: indent)
            case .string(let s): writeString(s)
            case .date(let d): writeTyped("$date", ISO8601.string(from: d), indent: indent)
            case .data(let d): writeTyped("$data", d.base64EncodedString(), indent: indent)
            case .uuid(let u): writeTyped("$uuid", u.uuidString, indent: indent)
            case .array(let elements), .set(let elements): writeArray(elements, indent: indent)
            case .dictionary(let dictionary): writeObject(dictionary.keys, dictionary.values, indent: indent)
            case .object(let object):
                writeTyped("$ref", String(describing: object.objectIdentity.base), indent: indent)
            }
        }

        mutating func writeTyped(_ key: String, _ text: String, indent: Int) {
            writeObject([key], [.string(text)], indent: indent)
        }

        mutating func writeArray(_ elements: [Value], indent: Int) {
            guard !elements.isEmpty else { return append("[]") }
            output.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "]"))
        }

        mutating func writeObject(_ keys: [String], _ values: [Value], indent: Int) {
            guard !keys.isEmpty else { return append("{}") }
            output.append(UInt8(ascii: "{"))
            for i in keys.indices {
                if i > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(keys[i])
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                write(values[i], indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "}"))
        }

        mutating func newline(_ indent: Int) {
            guard pretty else { return }
            output.append(0x0A)
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
        }

        mutating func append(_ text: String) {
            output.append(contentsOf: text.utf8)
        }

        /// `text` quoted, with `"`, `\\` and control characters escaped. Runs of bytes that
        /// need no escape (nearly all of them) are appended whole.
        mutating func writeString(_ text: String) {
            output.append(UInt8(ascii: "\""))
            var text = text
            text.withUTF8 { bytes in
                var start = 0
                for i in bytes.indices {
                    let b = bytes[i]
                    guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    writeEscape(b)
                    start = i + 1
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            }
            output.append(UInt8(ascii: "\""))
        }

        private mutating func writeEscape(_ b: UInt8) {
            switch b {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            default:
                let hex = Array("0123456789abcdef".utf8)
                append("\\u00")
                output.append(hex[Int(b >> 4)])
                output.append(hex[Int(b & 0xF)])
            }
        }
    }
}

extension Value {
    /// The value as JSON text (see ``JSONWriter``).
    public func jsonString(prettyPrinted: Bool = false) -> String {
        JSONWriter.string(self, options: prettyPrinted ? .prettyPrinted : [])
    }
}
