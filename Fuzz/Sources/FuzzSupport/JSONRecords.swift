import Foundation
import Sift

/// fuzz-json-records: any bytes as the input of `sift filter` — a JSON array of records or
/// JSON Lines. The reader over the bytes in memory and the reader over a file in small chunks
/// (16 to 47 bytes, so records and tokens straddle chunk boundaries) must read the same
/// records (values, texts, positions, lines) and fail with the same error. Each record's text
/// parses alone to its value, and what the writer makes of a value parses back to it. The
/// whole input also goes through `JSONParser.parse`.
public enum JSONRecordsHarness {
    static let maximumRecords = 256

    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        if let whole = try? JSONParser.parse(data) { checkWriter(whole) }

        let chunk = 16 + data.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % 32
        let file = FuzzTemporaryDirectory.file(named: "records.json", contents: data)
        defer { FuzzTemporaryDirectory.clear() }
        let descriptor = open(file.path, O_RDONLY)
        guard descriptor >= 0 else { fatalError("cannot open \(file.path)") }
        defer { close(descriptor) }

        let memory = JSONRecordReader(bytes: data)
        let chunked = JSONRecordReader(fileDescriptor: descriptor, chunkSize: chunk)
        for position in 0..<maximumRecords {
            let a = Result { try memory.next() }
            let b = Result { try chunked.next() }
            switch (a, b) {
            case (.failure(let x), .failure(let y)):
                fuzzCheck("\(x)" == "\(y)", "the chunked reader (\(chunk)-byte chunks) fails differently at record \(position): \(x) ≠ \(y)")
                return
            case (.success(nil), .success(nil)):
                return
            case (.success(let x?), .success(let y?)):
                fuzzCheck(x.position == position && y.position == position, "record \(position) has position \(x.position) / \(y.position)")
                fuzzCheck(x.line == y.line, "record \(position) starts on line \(x.line) in memory and \(y.line) in \(chunk)-byte chunks")
                fuzzCheck(x.text == y.text, "record \(position) has different texts in memory and in \(chunk)-byte chunks")
                let exact = FuzzObservation.exactText(x.value)
                fuzzCheck(exact == FuzzObservation.exactText(y.value),
                          "record \(position) differs in \(chunk)-byte chunks: \(exact.prefix(300)) ≠ \(FuzzObservation.exactText(y.value).prefix(300))")
                do {
                    let alone = try JSONParser.parse(x.text)
                    fuzzCheck(FuzzObservation.exactText(alone) == exact,
                              "record \(position)'s text parses to another value: \(FuzzObservation.exactText(alone).prefix(300)) ≠ \(exact.prefix(300))")
                } catch {
                    fuzzFailure("record \(position)'s text does not parse alone: \(error)\n  text: \(quoted(String(decoding: x.text, as: UTF8.self)))")
                }
                checkWriter(x.value)
            default:
                fuzzFailure("at record \(position) one reader fails or ends and the other does not: memory \(a), \(chunk)-byte chunks \(b)")
            }
        }
    }

    /// What the writer makes of a value parses back to the same value (doubles the writer cannot
    /// write, infinities and NaN, are written as null and left out of the comparison).
    static func checkWriter(_ value: Value) {
        let written = JSONWriter.string(value)
        guard !written.contains("null") || !containsNonFinite(value) else { return }
        do {
            let back = try JSONParser.parse(written)
            fuzzCheck(FuzzObservation.exactText(back) == FuzzObservation.exactText(value),
                      "written JSON parses to another value:\n  value: \(FuzzObservation.exactText(value).prefix(300))\n  written: \(written.prefix(300))\n  back: \(FuzzObservation.exactText(back).prefix(300))")
        } catch {
            fuzzFailure("written JSON does not parse: \(error)\n  written: \(written.prefix(300))")
        }
    }

    static func containsNonFinite(_ value: Value) -> Bool {
        switch value {
        case .double(let d): !d.isFinite
        case .array(let elements), .set(let elements): elements.contains(where: containsNonFinite)
        case .dictionary(let d): d.pairs.contains { containsNonFinite($0.1) }
        default: false
        }
    }
}
