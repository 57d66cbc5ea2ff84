import Foundation
import Sift

/// A JSON value as the CLI reads it for `--arg` and `--var`, keeping integers and doubles apart
/// (`2` is an integer, `2.0` a double) and reading the typed forms of LANGUAGE.md §3:
/// `{"$date": "<ISO 8601>"}`, `{"$uuid": "..."}`, `{"$data": "<base64>"}`, `{"$decimal": "1.5"}`.
indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.double(x), .double(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    struct SyntaxError: Error, CustomStringConvertible {
        let message: String
        let line: Int
        let column: Int
        var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Parses one JSON text (surrounding whitespace allowed).
    static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        let value = try parser.parseDocument()
        return value
    }

    /// The Swift value for a format argument or variable (`nil`, Bool, Int64, Double, String,
    /// Date, UUID, Data, Decimal, arrays of these).
    func argumentValue() throws -> Any? {
        switch self {
        case .null: return nil
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .string(let s): return s
        case .array(let elements): return try elements.map { try $0.argumentValue() } as [Any?]
        case .object(let fields):
            if fields.count == 1, case .string(let text) = fields[0].1 {
                switch fields[0].0 {
                case "$date":
                    guard let date = ISO8601.date(from: text) else { throw ArgumentError("invalid ISO 8601 date '\(text)'") }
                    return date
                case "$uuid":
                    guard let uuid = UUID(uuidString: text) else { throw ArgumentError("invalid UUID '\(text)'") }
                    return uuid
                case "$data":
                    guard let data = Data(base64Encoded: text) else { throw ArgumentError("invalid base64 in $data") }
                    return data
                case "$decimal":
                    guard let decimal = Decimal(string: text, locale: nil) else { throw ArgumentError("invalid decimal '\(text)'") }
                    return decimal
                default: break
                }
            }
            throw ArgumentError("a JSON object is not a value here (typed values are {\"$date\": ...}, {\"$uuid\": ...}, {\"$data\": ...}, {\"$decimal\": ...})")
        }
    }
}

struct ArgumentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A recursive-descent JSON parser over bytes, with a nesting limit.
struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0
    static let maximumDepth = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONValue.SyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    func error(_ message: String) -> JSONValue.SyntaxError {
        var line = 1
        var lineStart = 0
        for i in 0..<min(index, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: bytes[lineStart..<min(index, bytes.count)], as: UTF8.self).count + 1
        return JSONValue.SyntaxError(message: message, line: line, column: column)
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func parseValue() throws(JSONValue.SyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            depth += 1
            defer { depth -= 1 }
            guard depth <= JSONParser.maximumDepth else { throw error("JSON nested too deeply") }
            index += 1
            var fields: [(String, JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
                fields.append((key, try parseValue()))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of JSON in an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            guard depth <= JSONParser.maximumDepth else { throw error("JSON nested too deeply") }
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try parseValue())
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of JSON in an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw error("unexpected character '\(String(decoding: [bytes[index]], as: UTF8.self))'")
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONValue.SyntaxError) -> JSONValue {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else { throw error("invalid literal") }
        index += w.count
        return value
    }

    mutating func parseNumber() throws(JSONValue.SyntaxError) -> JSONValue {
        let start = index
        var isDouble = false
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        guard index > digitsStart else { throw error("invalid number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isDouble = true
            index += 1
            let fractionStart = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > fractionStart else { throw error("invalid number") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isDouble = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let expStart = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > expStart else { throw error("invalid number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if !isDouble, let i = Int64(text) { return .int(i) }
        guard let d = Double(text) else { throw error("invalid number") }
        return .double(d)
    }

    mutating func parseString() throws(JSONValue.SyntaxError) -> String {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { index += 1; return String(decoding: out, as: UTF8.self) }
            if b < 0x20 { throw error("control character in a string") }
            if b == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                switch bytes[index] {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var value = try hex4(at: index + 1)
                    index += 4
                    if (0xD800...0xDBFF).contains(value), index + 6 < bytes.count,
                       bytes[index + 1] == UInt8(ascii: "\\"), bytes[index + 2] == UInt8(ascii: "u") {
                        let low = try hex4(at: index + 3)
                        if (0xDC00...0xDFFF).contains(low) {
                            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                            index += 6
                        }
                    }
                    let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
                    out.append(contentsOf: String(Character(scalar)).utf8)
                default: throw error("invalid escape in a string")
                }
                index += 1
                continue
            }
            out.append(b)
            index += 1
        }
        throw error("unterminated string")
    }

    func hex4(at i: Int) throws(JSONValue.SyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for k in 0..<4 {
            let b = bytes[i + k]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
        }
        return value
    }
}
