import Foundation
import Testing
@testable import SiftEvaluation

@Suite("JSON record reader")
struct JSONRecordReaderTests {
    typealias T = JSONTestSupport

    static func texts(_ records: [JSONRecordReader.Record]) -> [String] {
        records.map { String(decoding: $0.text, as: UTF8.self) }
    }

    @Test func jsonLinesSkipsBlankLinesAndKeepsEachLinesText() throws {
        // A top-level array is opened wherever it is: its elements are records.
        let reader = JSONRecordReader(text: "{\"a\": 1}\n\n  \t\n[1, 2]\r\n  \"x\"  \n7")
        let records = try T.records(reader)
        #expect(reader.format == .lines)
        #expect(Self.texts(records) == [#"{"a": 1}"#, "1", "2", #""x""#, "7"])
        #expect(records.map(\.position) == [0, 1, 2, 3, 4])
        #expect(records.map(\.line) == [1, 4, 4, 5, 6])
        #expect(T.same(records[0].value, T.object(["a": .int(1)])))
        #expect(T.same(records[1].value, .int(1)))
        #expect(T.same(records[4].value, .int(7)))
    }

    @Test func aJSONArraysElementsAreTheRecords() throws {
        let text = """

              [
              {"name": "Ann",
               "age": 30},
              {"name": "Bob"} ,"plain",
              12.50,
              [1, [2]]
            ]

            """
        let reader = JSONRecordReader(text: text)
        let records = try T.records(reader)
        #expect(reader.format == .array)
        #expect(Self.texts(records) == ["{\"name\": \"Ann\",\n   \"age\": 30}", #"{"name": "Bob"}"#, #""plain""#, "12.50", "[1, [2]]"])
        #expect(records.map(\.position) == [0, 1, 2, 3, 4])
        #expect(records.map(\.line) == [3, 5, 5, 6, 7])
        #expect(T.same(records[3].value, .double(12.5)))
    }

    @Test func emptyInputs() throws {
        for text in ["", "  \n\n \t", "[]", " [ \n ] \n", "\u{FEFF}", "\u{FEFF}[]"] {
            #expect(try T.records(JSONRecordReader(text: text)).isEmpty, "\(text.debugDescription)")
        }
        #expect(JSONRecordReader(text: "").format == nil)
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let records = try T.records(JSONRecordReader(text: "\u{FEFF}{\"a\": 1}\n{\"a\": 2}"))
        #expect(Self.texts(records) == [#"{"a": 1}"#, #"{"a": 2}"#])
        let error = try #require(try Self.error(in: "\u{FEFF}{\"a\": x}"))
        #expect(error.line == 1 && error.column == 7)
    }

    @Test func readersCanDropTheText() throws {
        let records = try T.records(JSONRecordReader(text: "[1, 2]", keepingText: false))
        #expect(records.map(\.text) == [[], []])
        #expect(T.same(records[1].value, .int(2)))
    }

    static func error(in text: String, chunkSize: Int? = nil) throws -> JSONSyntaxError? {
        if let chunkSize { return try T.errorFromFile(Array(text.utf8), chunkSize: chunkSize) }
        do {
            _ = try T.records(JSONRecordReader(text: text))
            return nil
        } catch let error as JSONSyntaxError {
            return error
        }
    }

    @Test(arguments: [
        ("{\"a\": 1}\n{\"a\": }\n", 2, 7, "unexpected character '}'"),
        ("1\n2 3 ]\n", 2, 5, "unexpected character ']'"),
        ("\n\n  {\"a\" 1}", 3, 8, "expected ':'"),
        ("\"abc\n\"", 1, 5, "control character in a string"),
        ("{\"a\": 1}{\"a\":\n  {\"b\": [1,\n 2 x]}}", 3, 4, "expected ',' or ']'"),
        ("{\"é\": 1}\n{\"日本\": x}", 2, 8, "unexpected character 'x'"),
        ("[1, 2", 1, 6, "unexpected end of JSON in an array"),
        ("[1, 2,]", 1, 7, "unexpected character ']'"),
        ("[1 2]", 1, 4, "expected ',' or ']'"),
        ("[", 1, 2, "unexpected end of JSON in an array"),
        ("[1]\n[2] x", 2, 5, "unexpected character 'x'"),
        ("[\n  {\"a\": 1},\n  {\"a\": tru}\n]", 3, 9, "invalid literal"),
        ("[\n  {\"a\": 1},\n  {\"a\": \"x\n\"}\n]", 3, 11, "control character in a string"),
    ])
    func errorsNameTheLineAndColumnInTheWholeInput(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        for chunkSize in [nil, 16, 17, 1 << 20] as [Int?] {
            let error = try #require(try Self.error(in: text, chunkSize: chunkSize), "chunk \(String(describing: chunkSize))")
            #expect(error.message == message, "chunk \(String(describing: chunkSize))")
            #expect(error.line == line, "chunk \(String(describing: chunkSize))")
            #expect(error.column == column, "chunk \(String(describing: chunkSize))")
        }
    }

    @Test func typedFormsInRecords() throws {
        let records = try T.records(JSONRecordReader(text: #"{"at": {"$date": "2001-01-01T00:00:10Z"}}"#))
        #expect(T.same(records[0].value, T.object(["at": .date(Date(timeIntervalSinceReferenceDate: 10))])))
        let error = try #require(try Self.error(in: "{\"a\": 1}\n{\"at\": {\"$date\": \"soon\"}}"))
        #expect(error.description == "line 2, column 18: invalid ISO 8601 date 'soon'")
    }

    /// Random records, written as JSON Lines and as a (pretty or compact) array, read back in
    /// chunks of every size from a file: the same records, texts and lines as reading at once.
    @Test func chunkedReadingGivesTheSameRecords() throws {
        var random = JSONTestRandom(seed: 42)
        for round in 0..<40 {
            // (A record that is an array would make JSON Lines that start with '[' read as an array.)
            let values = (0..<random.int(0...30)).map { _ in random.value() }.map { value -> Value in
                if case .array = value { return T.object(["v": value]) }
                return value
            }
            let pretty = random.chance(50)
            let texts = values.map { $0.jsonString(prettyPrinted: pretty && random.chance(50)) }
            let lines = texts.map { JSONCompaction.compacted(Array($0.utf8)) }
                .map { String(decoding: $0, as: UTF8.self) }
                .map { (random.chance(20) ? "\n  " : "") + $0 }
                .joined(separator: random.chance(50) ? "\n" : "\r\n")
            let array = "[" + texts.map { (random.chance(50) ? "\n  " : "") + $0 }.joined(separator: random.chance(50) ? ",\n" : " ,") + "]\n"
            for (text, expected) in [(lines, lines.isEmpty ? nil : JSONRecordReader.Format.lines), (array, .array)] {
                let whole = JSONRecordReader(text: text)
                let reference = try T.records(whole)
                #expect(whole.format == expected)
                #expect(reference.count == values.count)
                for (record, value) in zip(reference, values) {
                    #expect(T.same(record.value, value), "round \(round)")
                }
                for chunkSize in [16, 17, 64, 1000] {
                    let chunked = try T.recordsFromFile(Array(text.utf8), chunkSize: chunkSize)
                    #expect(chunked.count == reference.count, "round \(round), chunk \(chunkSize)")
                    for (a, b) in zip(chunked, reference) {
                        #expect(a.text == b.text && a.line == b.line && a.position == b.position && T.same(a.value, b.value),
                                "round \(round), chunk \(chunkSize)")
                    }
                }
            }
        }
    }

    /// An error anywhere in a JSON array is reported at the line and column a whole-text parse
    /// reports, whatever the chunk size.
    @Test func chunkedErrorsMatchTheWholeTextParser() throws {
        var random = JSONTestRandom(seed: 9)
        for round in 0..<60 {
            let values = (1...random.int(1...12)).map { _ in random.value() }
            var text = Array(("[\n" + values.map { $0.jsonString(prettyPrinted: random.chance(50)) }.joined(separator: ",\n") + "\n]").utf8)
            // Break one byte (not one inside a multi-byte character).
            var at = random.int(0...text.count - 1)
            while text[at] >= 0x80 { at = random.int(0...text.count - 1) }
            text[at] = [UInt8(ascii: "}"), UInt8(ascii: "x"), UInt8(ascii: ":"), UInt8(ascii: ",")][random.int(0...3)]
            let reference: JSONSyntaxError?
            do {
                _ = try JSONParser.parse(text)
                reference = nil
            } catch {
                reference = error
            }
            guard let reference else { continue }
            for chunkSize in [16, 33, 1 << 20] {
                let error = try T.errorFromFile(text, chunkSize: chunkSize)
                #expect(error?.line == reference.line && error?.column == reference.column,
                        "round \(round), chunk \(chunkSize): \(String(describing: error)) vs \(reference)")
            }
        }
    }

    /// An unexpected character that a chunk of the file cuts in two is quoted whole, as a read
    /// of the whole text quotes it (found by fuzz-json-records: the chunked reader quoted only
    /// the bytes of it that it had read).
    @Test func anUnexpectedCharacterAtAChunkBoundaryIsQuotedWhole() throws {
        for padding in 0...24 {
            let text = "[1," + String(repeating: " ", count: padding) + "\u{7C9E}]"
            let reference = try #require(try Self.error(in: text))
            #expect(reference.message == "unexpected character '\u{7C9E}'")
            for chunkSize in 16...24 {
                let error = try #require(try Self.error(in: text, chunkSize: chunkSize))
                #expect(error.message == reference.message && error.column == reference.column,
                        "padding \(padding), chunk \(chunkSize): \(error) vs \(reference)")
            }
        }
    }

    /// The column of an error after a chunk was dropped counts characters as a read of the
    /// whole text does, a decomposed `é` (two scalars) as one (found by fuzz-json-records: the
    /// dropped part was counted in scalars).
    @Test func columnsCountCharactersAcrossDroppedChunks() throws {
        for text in ["[\"e\u{301}\", x]", "[\"e\u{301}e\u{301}\", \"\u{1F44D}\u{1F3FD}\", 1, x]",
                     "[\"" + String(repeating: "e\u{301}", count: 20) + "\", " + String(repeating: "1, ", count: 10) + "x]",
                     // A combining accent where a record should start: the cut falls between it and
                     // the comma it joins (found by fuzz-json-records).
                     "[\"e\u{301}\",\"eJJJJJJJJJJJJJ*J\u{301}\",\u{301}\",\"e\u{301}\", x  x x]"] {
            let reference = try #require(try Self.error(in: text))
            for chunkSize in 16...40 {
                let error = try #require(try Self.error(in: text, chunkSize: chunkSize))
                #expect(error.column == reference.column && error.line == reference.line,
                        "chunk \(chunkSize): \(error) vs \(reference)")
            }
        }
    }

    /// A high surrogate followed by an invalid `\u` escape is reported at that escape, whether
    /// the bytes after the surrogate were read with it or not (found by fuzz-json-records: a
    /// whole-text read reported the surrogate's last digit, a chunked one the next escape).
    @Test func anInvalidEscapeAfterAHighSurrogateIsReportedAtItself() throws {
        let reference = try #require(try Self.error(in: #"["\ud83c\ud-;"]"#))
        #expect(reference.message == "invalid \\u escape" && reference.column == 10, "\(reference)")
        for padding in 0...24 {
            let text = "[1," + String(repeating: " ", count: padding) + #""\ud83c\ud-;x"]"#
            let whole = try #require(try Self.error(in: text))
            #expect(whole.column == 4 + padding + 8, "padding \(padding): \(whole)")
            for chunkSize in 16...40 {
                let error = try #require(try Self.error(in: text, chunkSize: chunkSize))
                #expect(error.column == whole.column && error.message == whole.message,
                        "padding \(padding), chunk \(chunkSize): \(error) vs \(whole)")
            }
        }
        // A valid pair still decodes, wherever a chunk ends.
        for padding in 0...24 {
            let text = "[1," + String(repeating: " ", count: padding) + #""\ud83d\ude00"]"#
            for chunkSize in 16...40 {
                let records = try T.recordsFromFile(Array(text.utf8), chunkSize: chunkSize)
                #expect(records.count == 2 && T.same(records[1].value, .string("\u{1F600}")), "padding \(padding), chunk \(chunkSize)")
            }
        }
    }

    @Test func recordsLargerThanAChunk() throws {
        let big = String(repeating: "é日x", count: 50_000)
        let text = "[{\"s\": \"\(big)\"}, 1]\n"
        let records = try T.recordsFromFile(Array(text.utf8), chunkSize: 1024)
        #expect(records.count == 2)
        #expect(T.same(records[0].value, T.object(["s": .string(big)])))
        let lines = try T.recordsFromFile(Array("{\"s\": \"\(big)\"}\n2\n".utf8), chunkSize: 1024)
        #expect(lines.count == 2)
        #expect(lines[1].line == 2)
        // An error far along a long line.
        let error = try #require(try T.errorFromFile(Array("[\"\(big)\" x]".utf8), chunkSize: 1024))
        #expect(error.line == 1 && error.column == big.count + 5)
    }

    @Test func numbersAtAChunkBoundaryAreNotCut() throws {
        // Chunks of 16 bytes end inside these numbers and literals.
        let text = "[123456789012345, 1234567890.12345, true, false, null, -1e-10]"
        let records = try T.recordsFromFile(Array(text.utf8), chunkSize: 16)
        #expect(Self.texts(records) == ["123456789012345", "1234567890.12345", "true", "false", "null", "-1e-10"])
    }

    @Test func readingADirectoryIsAReadError() throws {
        let fd = open(NSTemporaryDirectory(), O_RDONLY)
        defer { close(fd) }
        #expect(throws: JSONReadError.self) { try T.records(JSONRecordReader(fileDescriptor: fd)) }
    }

    @Test func compactionRemovesOnlyWhitespaceOutsideStrings() throws {
        let text = "{\n  \"a b\": [1.50, \"x \\\" y\"],\n  \"c\": {}\n}"
        #expect(JSONCompaction.containsLineBreak(Array(text.utf8)))
        #expect(String(decoding: JSONCompaction.compacted(Array(text.utf8)), as: UTF8.self) == #"{"a b":[1.50,"x \" y"],"c":{}}"#)
    }
}
