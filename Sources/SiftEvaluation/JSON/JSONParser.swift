import Foundation

/// Reads one JSON text into a ``Value``.
///
///     let v = try Value(json: #"{"name": "Ann", "born": {"$date": "1990-05-01"}, "tags": ["a"]}"#)
///
/// Objects become `.dictionary` keeping their key order, arrays `.array`, integers that fit 64
/// bits `.int`, other numbers `.double`, and the typed forms of ``JSONTypedForm`` (`$date`,
/// `$uuid`, `$data`, `$decimal`, `$double`) their values. Nesting deeper than ``maximumDepth`` is an error
/// (the parser does not recurse, so no input can overflow the stack). Errors name the 1-based
/// line and column. Invalid UTF-8 in a string is an error (JSON text is UTF-8); a lone
/// surrogate escape (`"\ud800"`) reads as U+FFFD.
///
/// For many records from a file or a pipe, use ``JSONRecordReader``.
public enum JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 512

    /// Parses a whole JSON text (whitespace around the value is allowed).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> Value {
        var scanner = JSONScanner(bytes, maximumDepth: maximumDepth)
        var workspace = JSONScanWorkspace()
        do throws(JSONScanFailure) {
            return try scanner.scanDocument(&workspace)
        } catch {
            let (line, column) = JSONTextPosition.lineAndColumn(of: error.offset, in: bytes)
            throw JSONSyntaxError(message: error.message, line: line, column: column, offset: error.offset)
        }
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> Value {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(JSONSyntaxError) in try parse(bytes) } }.get()
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> Value {
        try bytes.withUnsafeBufferPointer { buffer in Result { () throws(JSONSyntaxError) in try parse(buffer) } }.get()
    }

    public static func parse(_ data: Data) throws(JSONSyntaxError) -> Value {
        try data.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) in try parse(raw.bindMemory(to: UInt8.self)) }
        }.get()
    }
}

extension Value {
    /// Parses a JSON text (see ``JSONParser``).
    public init(json text: String) throws(JSONSyntaxError) {
        self = try JSONParser.parse(text)
    }

    /// Parses UTF-8 JSON bytes (see ``JSONParser``).
    public init(json bytes: [UInt8]) throws(JSONSyntaxError) {
        self = try JSONParser.parse(bytes)
    }

    /// Parses UTF-8 JSON data (see ``JSONParser``).
    public init(json data: Data) throws(JSONSyntaxError) {
        self = try JSONParser.parse(data)
    }
}
