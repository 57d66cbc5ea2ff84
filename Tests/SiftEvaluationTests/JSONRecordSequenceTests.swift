import Foundation
import Testing
@testable import SiftEvaluation

/// The reader takes any sequence of JSON values, as jq does, and follows a key path to the
/// array of records.
@Suite("JSON record sequences")
struct JSONRecordSequenceTests {
    typealias T = JSONTestSupport

    static func texts(_ records: [JSONRecordReader.Record]) -> [String] {
        records.map { String(decoding: $0.text, as: UTF8.self) }
    }

    static func error(in text: String, path: [String] = [], chunkSize: Int? = nil) throws -> JSONSyntaxError? {
        do {
            if let chunkSize {
                _ = try T.withTemporaryFile(Array(text.utf8)) { file in
                    let handle = try #require(FileHandle(forReadingAtPath: file))
                    defer { try? handle.close() }
                    return try T.records(JSONRecordReader(fileHandle: handle, chunkSize: chunkSize, path: path))
                }
            } else {
                _ = try T.records(JSONRecordReader(text: text, path: path))
            }
            return nil
        } catch let error as JSONSyntaxError {
            return error
        }
    }

    static func records(_ text: String, path: [String] = [], chunkSize: Int) throws -> [JSONRecordReader.Record] {
        try T.withTemporaryFile(Array(text.utf8)) { file in
            let handle = try #require(FileHandle(forReadingAtPath: file))
            defer { try? handle.close() }
            return try T.records(JSONRecordReader(fileHandle: handle, chunkSize: chunkSize, path: path))
        }
    }

    /// JSON Lines, concatenated values and pretty-printed values (what `jq '.[]'` prints) give
    /// the same records, whatever the chunk size.
    @Test func everyLayoutGivesTheSameRecords() throws {
        let lines = "{\"a\": 1, \"b\": [1, 2]}\n{\"a\": 2}\n\"x\"\n12.50\n"
        let concatenated = "{\"a\": 1, \"b\": [1, 2]}{\"a\": 2}\"x\" 12.50"
        let pretty = """
            {
              "a": 1,
              "b": [
                1,
                2
              ]
            }
            {
              "a": 2
            }
            "x"
            12.50
            """
        let reference = try T.records(JSONRecordReader(text: lines))
        #expect(reference.count == 4)
        for text in [concatenated, pretty, "\t" + pretty + "\r\n\n"] {
            for chunkSize in [nil, 16, 17, 64] as [Int?] {
                let records = try chunkSize.map { try Self.records(text, chunkSize: $0) } ?? T.records(JSONRecordReader(text: text))
                #expect(records.count == reference.count, "chunk \(String(describing: chunkSize))")
                for (a, b) in zip(records, reference) {
                    #expect(T.same(a.value, b.value) && a.position == b.position, "chunk \(String(describing: chunkSize))")
                }
            }
        }
        let prettyRecords = try T.records(JSONRecordReader(text: pretty))
        #expect(prettyRecords.map(\.line) == [1, 8, 11, 12])
        #expect(Self.texts(prettyRecords)[1] == "{\n  \"a\": 2\n}")
    }

    /// A number that a chunk ends in is read whole.
    @Test func aValueAtTheEndOfAChunkIsReadWhole() throws {
        let text = String(repeating: "1234567 ", count: 20)
        for chunkSize in 16...24 {
            let records = try Self.records(text, chunkSize: chunkSize)
            #expect(records.count == 20 && records.allSatisfy { T.same($0.value, .int(1234567)) }, "chunk \(chunkSize)")
        }
    }

    @Test func aPathPicksTheNestedArray() throws {
        let text = """
            {"page": 1, "data": {"note": {"items": 0}, "items": [{"n": 1}, {"n": 2}]}, "after": [1, {"x": "]"}]}
            {
              "data": {
                "items": [
                  {"n": 3}
                ]
              }
            }
            {"data": {"items": []}}
            """
        for chunkSize in [nil, 16, 19, 64] as [Int?] {
            let records = try chunkSize.map { try Self.records(text, path: ["data", "items"], chunkSize: $0) }
                ?? T.records(JSONRecordReader(text: text, path: ["data", "items"]))
            #expect(Self.texts(records) == [#"{"n": 1}"#, #"{"n": 2}"#, #"{"n": 3}"#], "chunk \(String(describing: chunkSize))")
            #expect(records.map(\.line) == [1, 1, 5])
            #expect(records.map(\.position) == [0, 1, 2])
        }
    }

    @Test(arguments: [
        ("{\"items\": [1]}\n{\"other\": 2}", 2, 12, "--path items: no key 'items' in this object"),
        ("{\"items\": [1]}\n[{\"items\": 2}]", 2, 1, "--path items: expected an object, found an array"),
        ("{\"items\": {\"a\": 1}}", 1, 11, "--path items: 'items' is an object, not an array"),
        ("{\"items\": [1,\n  2,\n  {\"a\" 1}]}", 3, 8, "expected ':'"),
        ("{\"a\": [1, 2 3], \"items\": []}", 1, 13, "expected ',' or ']'"),
        ("{\"items\": [1]", 1, 14, "unexpected end of JSON in an object"),
    ])
    func pathErrorsNameTheLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        for chunkSize in [nil, 16, 17] as [Int?] {
            let error = try #require(try Self.error(in: text, path: ["items"], chunkSize: chunkSize))
            #expect(error.message == message && error.line == line && error.column == column,
                    "chunk \(String(describing: chunkSize)): \(error)")
        }
    }

    @Test func keysSeenIncludeKeysAProjectionSkips() throws {
        let reader = JSONRecordReader(text: "{\"a\": 1, \"tag\": 2}\n{\"b\": 3}\n5", projection: JSONProjection(keys: ["a"]))
        reader.collectsKeys = true
        let records = try T.records(reader)
        #expect(records.count == 3)
        #expect(reader.keysSeen == ["a", "tag", "b"])
    }
}

extension JSONRecordSequenceTests {
    /// Random sequences of values (pretty, compact, concatenated, some arrays), one byte broken:
    /// reading in chunks of any size gives the records and the error a read of the whole text gives.
    @Test func chunkedSequencesMatchTheWholeText() throws {
        var random = JSONTestRandom(seed: 15)
        for round in 0..<80 {
            let values = (1...random.int(1...10)).map { _ in random.value() }
            let separators = ["", " ", "\n", "\r\n", "\n\n  "]
            var text = Array(values.map { value in
                value.jsonString(prettyPrinted: random.chance(50)) + separators[random.int(0...separators.count - 1)]
            }.joined().utf8)
            if random.chance(70) {
                var at = random.int(0...text.count - 1)
                while text[at] >= 0x80 { at = random.int(0...text.count - 1) }
                text[at] = [UInt8(ascii: "}"), UInt8(ascii: "x"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "\"")][random.int(0...4)]
            }
            let whole = JSONRecordReader(bytes: text)
            var reference: [JSONRecordReader.Record] = []
            var referenceError: JSONSyntaxError?
            do {
                while let record = try whole.next() { reference.append(record) }
            } catch let error as JSONSyntaxError {
                referenceError = error
            }
            for chunkSize in [16, 23, 64] {
                var records: [JSONRecordReader.Record] = []
                var error: JSONSyntaxError?
                try T.withTemporaryFile(text) { file in
                    let handle = try #require(FileHandle(forReadingAtPath: file))
                    defer { try? handle.close() }
                    let reader = JSONRecordReader(fileHandle: handle, chunkSize: chunkSize)
                    do {
                        while let record = try reader.next() { records.append(record) }
                    } catch let e as JSONSyntaxError {
                        error = e
                    }
                }
                #expect(error == referenceError, "round \(round), chunk \(chunkSize)")
                #expect(records.count == reference.count, "round \(round), chunk \(chunkSize)")
                for (a, b) in zip(records, reference) {
                    #expect(a.text == b.text && a.line == b.line && T.same(a.value, b.value), "round \(round), chunk \(chunkSize)")
                }
            }
        }
    }
}
