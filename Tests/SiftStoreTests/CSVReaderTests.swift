import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// `CSVReader`: records read a chunk at a time are the records of the whole text, wherever a
/// chunk ends (inside a quoted field, between a CR and its LF, inside a character); a model is
/// inferred from a sample of the input, and a later value that does not fit its column's type
/// is an error naming its line, never a value read as something else.
@Suite struct CSVReaderTests {
    /// Every record of `bytes` (fields as text, nil for an unquoted empty one) and the line it
    /// starts on, read `chunkSize` bytes at a time from a pipe (nil: from memory, at once).
    static func records(_ bytes: [UInt8], chunkSize: Int?) throws -> [(line: Int, fields: [String?])] {
        let reader: CSVReader
        var pipe: Pipe?
        if let chunkSize {
            let channel = Pipe()
            pipe = channel
            let writer = channel.fileHandleForWriting
            let input = Data(bytes)
            Thread { try? writer.write(contentsOf: input); try? writer.close() }.start()
            reader = CSVReader(fileHandle: channel.fileHandleForReading, chunkSize: chunkSize)
        } else {
            reader = CSVReader(bytes: bytes)
        }
        defer { _ = pipe }
        var records: [(line: Int, fields: [String?])] = []
        while try reader.next() { records.append((reader.recordLine, reader.strings)) }
        return records
    }

    static func same(_ a: [(line: Int, fields: [String?])], _ b: [(line: Int, fields: [String?])]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.line == $1.line && $0.fields == $1.fields }
    }

    @Test func fieldsQuotesAndLines() throws {
        let text = "\u{FEFF}a,b,c\r\n\"x,1\",\"say \"\"hi\"\"\",\r\n\n\"two\nlines\",\"\",é\rlast,,\"ü\"\"\""
        let records = try Self.records(Array(text.utf8), chunkSize: nil)
        #expect(records.map(\.line) == [1, 2, 4, 6])
        #expect(records[0].fields == ["a", "b", "c"])
        #expect(records[1].fields == ["x,1", "say \"hi\"", nil])
        #expect(records[2].fields == ["two\nlines", "", "é"])
        #expect(records[3].fields == ["last", nil, "ü\""])
        // A comma that ends the input is one more, empty field.
        #expect(try Self.records(Array("a,b\n1,".utf8), chunkSize: nil).last?.fields == ["1", nil])
    }

    @Test(arguments: [16, 17, 31, 64, 1000])
    func chunksEndAnywhere(_ chunkSize: Int) throws {
        // Random records of awkward fields, written as CSV and read back a chunk at a time.
        var random = SystemRandomNumberGenerator()
        let pieces = ["", "x", "a b", "\"", "\"\"", ",", "\n", "\r\n", "é", "日本", "🙂", "  7 ", "1.5e3"]
        var rows: [[String?]] = []
        for _ in 0..<200 {
            rows.append((0..<3).map { _ in
                let n = Int.random(in: 0...3, using: &random)
                let text = (0..<n).map { _ in pieces.randomElement(using: &random)! }.joined()
                return text.isEmpty && Bool.random(using: &random) ? nil : text
            })
        }
        let text = rows.map { row in
            row.map { field -> String in
                guard let field else { return "" }
                return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }.joined(separator: ",")
        }.joined(separator: Bool.random(using: &random) ? "\r\n" : "\n") + "\n"
        let whole = try Self.records(Array(text.utf8), chunkSize: nil)
        #expect(whole.map(\.fields) == rows)
        let chunked = try Self.records(Array(text.utf8), chunkSize: chunkSize)
        #expect(Self.same(chunked, whole))
    }

    @Test(arguments: [16, 1 << 20])
    func errorsNameTheirLineInChunksToo(_ chunkSize: Int) throws {
        for (text, line, message) in [
            ("a,b\n1,\"open\nstill\n", 2, "no closing quote"),
            ("a,b\n1,2\n3,x\"y\n", 3, "a quote inside an unquoted field"),
            ("a,b\n\"x\"y,1\n", 2, "after a closing quote"),
        ] as [(String, Int, String)] {
            do {
                _ = try Self.records(Array(text.utf8), chunkSize: chunkSize)
                Issue.record("no error for \(text)")
            } catch let error as CSVReader.Failure {
                #expect(error.line == line, "\(text)")
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
        let invalid = Array("a\n\"ok\nthen \u{FF}\"\n".unicodeScalars.map { $0 == "\u{FF}" ? UInt8(0xFF) : UInt8($0.value) })
        #expect(throws: CSVReader.Failure.self) { _ = try Self.records(invalid, chunkSize: chunkSize) }
    }

    // MARK: A model of a sample

    @Test func aModelOfASampleAndAValueThatDoesNotFitIt() throws {
        // Integers for the first ~40 bytes, then text: the sample types n as Integer 64.
        let text = "n,s\n1,a\n2,b\n3,c\n4,d\n5,e\n6,f\n7,g\n8,h\nnine,i\n"
        let sample = CSVReader(bytes: Array(text.utf8))
        var inference = ModelInference(entity: "Row")
        #expect(try inference.addCSV(sample, byteLimit: 20) == false, "the input goes on past the sample")
        let model = try inference.model()
        #expect(model.isInferred)
        #expect(model.entities[0].attributes.map(\.type) == [.integer64, .string])
        // The import reads the value that does not fit as an error naming its line.
        let store = AtomicStore.inMemory(model: model)
        let error = #expect(throws: StoreError.self) { try StoreImporter.importCSV(CSVReader(bytes: Array(text.utf8)), entity: "Row", into: store) }
        #expect(error?.message == "Row CSV line 10, n: 'nine' is not a valid Integer 64")
        #expect(try store.count(FetchRequest(entityName: "Row")) == 0)
        // Read through, the same input types n as a String.
        var whole = ModelInference(entity: "Row")
        #expect(try whole.addCSV(CSVReader(bytes: Array(text.utf8))) == true)
        #expect(try whole.model().entities[0].attributes.map(\.type) == [.string, .string])
    }

    @Test func recordingLetsASecondReaderReadTheSampleAgain() throws {
        let text = (1...5000).map { "\($0),row \($0)" }.joined(separator: "\n") + "\n"
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        Thread { try? writer.write(contentsOf: Data(("n,s\n" + text).utf8)); try? writer.close() }.start()
        let first = CSVReader(fileHandle: pipe.fileHandleForReading, chunkSize: 4096)
        first.startRecording()
        var inference = ModelInference(entity: "Row")
        #expect(try inference.addCSV(first, byteLimit: 10_000) == false)
        let again = CSVReader(prefix: first.recorded, fileDescriptor: pipe.fileHandleForReading.fileDescriptor, chunkSize: 4096)
        var count = 0, sum = 0
        while try again.next() {
            if count > 0, let n = again.string(0).flatMap(Int.init) { sum += n }
            count += 1
        }
        #expect(count == 5001)
        #expect(sum == 5000 * 5001 / 2)
    }
}
