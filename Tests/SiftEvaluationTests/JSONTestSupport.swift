import Foundation
import Testing
@testable import SiftEvaluation

/// Helpers for the JSON tests.
enum JSONTestSupport {
    /// Structural equality of values (the language's equality is the evaluator's business):
    /// same kinds and contents; doubles by bit pattern; sets in order.
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.double(x), .double(y)): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case let (.decimal(x), .decimal(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.date(x), .date(y)): x == y
        case let (.data(x), .data(y)): x == y
        case let (.uuid(x), .uuid(y)): x == y
        case let (.array(x), .array(y)), let (.set(x), .set(y)):
            x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case let (.dictionary(x), .dictionary(y)):
            x.keys == y.keys && zip(x.values, y.values).allSatisfy { same($0, $1) }
        default: false
        }
    }

    static func parse(_ text: String) throws -> Value {
        try JSONParser.parse(text)
    }

    /// The syntax error for `text`, if it has one.
    static func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    static func object(_ pairs: KeyValuePairs<String, Value>) -> Value {
        .dictionary(ValueDictionary(pairs.map { ($0.key, $0.value) }))
    }

    /// All records of `reader`.
    static func records(_ reader: JSONRecordReader) throws -> [JSONRecordReader.Record] {
        var records: [JSONRecordReader.Record] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    /// A temporary file holding `bytes`, removed by `body`'s end.
    static func withTemporaryFile<R>(_ bytes: [UInt8], _ body: (String) throws -> R) throws -> R {
        let path = NSTemporaryDirectory() + "sift-json-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// The records of a file read through a file descriptor in chunks of `chunkSize` bytes.
    static func recordsFromFile(_ bytes: [UInt8], chunkSize: Int) throws -> [JSONRecordReader.Record] {
        try withTemporaryFile(bytes) { path in
            let handle = try #require(FileHandle(forReadingAtPath: path))
            defer { try? handle.close() }
            return try records(JSONRecordReader(fileHandle: handle, chunkSize: chunkSize))
        }
    }

    /// The error reading a file in chunks of `chunkSize` bytes.
    static func errorFromFile(_ bytes: [UInt8], chunkSize: Int) throws -> JSONSyntaxError? {
        do {
            _ = try recordsFromFile(bytes, chunkSize: chunkSize)
            return nil
        } catch let error as JSONSyntaxError {
            return error
        }
    }
}

/// A small deterministic generator (SplitMix64) for property tests.
struct JSONTestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    mutating func string() -> String {
        let alphabet: [String] = ["a", "b", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "é", "e\u{301}", "日本", "🎉", "\u{7F}", "{", "]", ","]
        return (0..<int(0...8)).map { _ in alphabet[int(0...alphabet.count - 1)] }.joined()
    }

    /// A random value of every kind the parser produces (no sets or objects).
    mutating func value(depth: Int = 0) -> Value {
        let kind = depth > 4 ? int(0...9) : int(0...11)
        switch kind {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .int(Int64(bitPattern: next()) >> UInt64(int(0...63)))
        case 3:
            let d = Double(bitPattern: next())
            return .double(d.isFinite ? d : Double(int(-1000...1000)) / 8)
        case 4: return .string(string())
        case 5: return .date(Date(timeIntervalSince1970: Double(int(-2_000_000_000...4_000_000_000))))
        case 6: return .uuid(UUID())
        case 7: return .data(Data((0..<int(0...12)).map { _ in UInt8(truncatingIfNeeded: next()) }))
        case 8: return .decimal(Decimal(string: "\(int(-99999...99999)).\(int(0...999))", locale: nil)!)
        case 9: return .double(Double(int(-100...100)) / 4)
        case 10: return .array((0..<int(0...4)).map { _ in value(depth: depth + 1) })
        default:
            var dictionary = ValueDictionary()
            for _ in 0..<int(0...4) { dictionary[string()] = value(depth: depth + 1) }
            return .dictionary(dictionary)
        }
    }
}
