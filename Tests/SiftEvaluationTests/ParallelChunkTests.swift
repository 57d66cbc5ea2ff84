import Foundation
import Testing
@testable import SiftEvaluation

/// The engine-neutral parts of `sift filter --jobs`: the ordered pipeline, line chunks, the
/// JSON reader of one chunk, and the count of usable processors.
@Suite("parallel chunks")
struct ParallelChunkTests {
    /// A counter for producers (one thread calls it at a time).
    final class Counter: @unchecked Sendable {
        var next = 0
        let end: Int
        init(end: Int) { self.end = end }
        func produce() -> Int? {
            guard next < end else { return nil }
            defer { next += 1 }
            return next
        }
    }

    @Test("results are taken in the chunks' order, whatever finishes first", arguments: [1, 2, 7])
    func order(_ jobs: Int) {
        let counter = Counter(end: 500)
        var taken: [Int] = []
        OrderedPipeline.run(jobs: jobs, inFlight: 2 * jobs, produce: { counter.produce() }, work: { n -> Int in
            // Uneven work: later chunks often finish before earlier ones.
            var x = n
            for _ in 0..<((n * 7919) % 13) * 1000 { x = (x &* 31) &+ 7 }
            return n * 2 + (x == .min ? 1 : 0)
        }, take: { chunk, output in
            taken.append(output)
            #expect(output == chunk * 2)
            return true
        })
        #expect(taken == (0..<500).map { $0 * 2 })
    }

    @Test("stopping early, and an error, end the pipeline")
    func stopping() {
        let counter = Counter(end: 10_000)
        var taken = 0
        OrderedPipeline.run(jobs: 3, inFlight: 6, produce: { counter.produce() }, work: { $0 }, take: { _, _ in
            taken += 1
            return taken < 10
        })
        #expect(taken == 10)
        // At most what was in flight was produced past what was taken.
        #expect(counter.next <= 10 + 6 + 1)

        struct Stop: Error {}
        let more = Counter(end: 100)
        #expect(throws: Stop.self) {
            try OrderedPipeline.run(jobs: 2, inFlight: 4, produce: { more.produce() }, work: { $0 }, take: { (chunk, _) throws(Stop) -> Bool in
                if chunk == 5 { throw Stop() }
                return true
            })
        }
        let none = Counter(end: 0)
        var any = false
        OrderedPipeline.run(jobs: 2, inFlight: 4, produce: { none.produce() }, work: { $0 }, take: { _, _ in
            any = true
            return true
        })
        #expect(!any)
    }

    /// The chunks `LineChunks` makes of `text` read through a pipe.
    static func chunks(_ text: String, chunkBytes: Int, prefers: @escaping @Sendable (UInt8) -> Bool = { _ in true }) throws -> [LineChunks.Chunk] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("line-chunks-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let cutter = LineChunks(fileDescriptor: handle.fileDescriptor, chunkBytes: chunkBytes, prefersCutBefore: prefers)
        var chunks: [LineChunks.Chunk] = []
        while let chunk = cutter.next() { chunks.append(chunk) }
        return chunks
    }

    @Test("chunks end at newlines, join to the input, and a long line is one chunk", arguments: [1, 5, 16, 1000])
    func lineChunks(_ chunkBytes: Int) throws {
        let lines = "a\nbb\n\nccccccccccccccccccccccccccccc\ndd\r\ne\n"
        for text in [lines + String(repeating: "f", count: 40), lines] {
            try Self.expectChunks(of: text, chunkBytes: chunkBytes)
        }
        #expect(try Self.chunks("", chunkBytes: chunkBytes).isEmpty)
    }

    /// The chunks `LineChunks` makes of `text` written into a pipe by another thread (reads of
    /// at most a pipe's buffer, so a chunk of more is read in several reads).
    static func pipedChunks(_ text: String, chunkBytes: Int) throws -> [LineChunks.Chunk] {
        let pipe = Pipe()
        let writing = pipe.fileHandleForWriting
        let data = Data(text.utf8)
        let writer = Thread {
            writing.write(data)
            try? writing.close()
        }
        writer.start()
        let cutter = LineChunks(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, chunkBytes: chunkBytes)
        var chunks: [LineChunks.Chunk] = []
        while let chunk = cutter.next() { chunks.append(chunk) }
        try pipe.fileHandleForReading.close()
        return chunks
    }

    /// Lines of 1 to 200 bytes, `count` bytes in all.
    static func manyLines(_ count: Int) -> String {
        var text = ""
        var length = 1
        while text.utf8.count < count {
            text += String(repeating: "x", count: length) + "\n"
            length = length * 37 % 199 + 1
        }
        return text
    }

    @Test("chunks of a large input, from a file and from a pipe, join to the input",
          arguments: [(4_096, false), (100_000, false), (100_000, true), (300_000, true)])
    func largeChunks(_ chunkBytes: Int, _ piped: Bool) throws {
        let text = Self.manyLines(700_000)
        let chunks = piped ? try Self.pipedChunks(text, chunkBytes: chunkBytes) : try Self.chunks(text, chunkBytes: chunkBytes)
        try Self.expect(chunks, of: text, chunkBytes: chunkBytes, piped: piped)
        // From a file every chunk but the last ends at the last newline within the chunk size.
        if !piped {
            for case .bytes(let bytes, _, false) in chunks { #expect(bytes.count <= chunkBytes && bytes.count > chunkBytes - 200) }
        }
    }

    static func expectChunks(of text: String, chunkBytes: Int) throws {
        try expect(try Self.chunks(text, chunkBytes: chunkBytes), of: text, chunkBytes: chunkBytes)
    }

    /// - Parameter piped: whether the chunks were read from a pipe. The last of them may then
    ///   not say so: when the reader catches up with a writer that has not closed the pipe yet,
    ///   the lines read are a chunk at once, and the end comes after it (a loaded machine's
    ///   writer thread does this at any point; the readers of the chunks take an end without a
    ///   last chunk). A chunk that says it is the last still must be.
    static func expect(_ chunks: [LineChunks.Chunk], of text: String, chunkBytes: Int, piped: Bool = false) throws {
        var joined: [UInt8] = []
        for (i, chunk) in chunks.enumerated() {
            guard case .bytes(let bytes, let isFirst, let isLast) = chunk else {
                Issue.record("a failed chunk")
                continue
            }
            #expect(isFirst == (i == 0))
            if isLast || !piped {
                #expect(isLast == (i == chunks.count - 1))
            }
            if !isLast { #expect(bytes.last == 0x0A) }
            #expect(!bytes.isEmpty)
            // No chunk ends before a newline it could have ended at within its size.
            if !isLast, bytes.count > chunkBytes { #expect(!bytes.dropLast().contains(0x0A)) }
            joined += bytes
        }
        #expect(joined == Array(text.utf8))
    }

    @Test("chunks are cut before the lines the caller prefers")
    func preferredCuts() throws {
        let text = "{\n  \"a\": 1\n}\n{\n  \"a\": 2\n}\n"
        let chunks = try Self.chunks(text, chunkBytes: 14, prefers: { $0 == UInt8(ascii: "{") })
        let texts = chunks.map { chunk -> String in
            guard case .bytes(let bytes, _, _) = chunk else { return "" }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(texts == ["{\n  \"a\": 1\n}\n", "{\n  \"a\": 2\n}\n"])
    }

    /// The records of `text` read as one chunk.
    static func chunkRecords(_ text: String, startsInput: Bool = true, endsInput: Bool = false, borrowing: Bool = false) throws -> [String] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { raw in
            let reader = borrowing ? JSONRecordReader(borrowing: raw, startsInput: startsInput, endsInput: endsInput)
                : JSONRecordReader(chunk: raw, startsInput: startsInput, endsInput: endsInput)
            var texts: [String] = []
            while let record = try reader.next() { texts.append("\(record.position)@\(record.line):" + String(decoding: record.text, as: UTF8.self)) }
            return texts
        }
    }

    @Test("a chunk's reader reads its values, and says when the last one goes on past it (a copy or the chunk in place)",
          arguments: [false, true])
    func chunkReader(_ borrowing: Bool) throws {
        #expect(try Self.chunkRecords("{\"a\": 1}\n\n[2, 3]\n4\n", borrowing: borrowing) == ["0@1:{\"a\": 1}", "1@3:2", "2@3:3", "3@4:4"])
        #expect(throws: JSONChunkEnded.self) { try Self.chunkRecords("{\"a\": 1}\n{\"b\":\n", borrowing: borrowing) }
        #expect(throws: JSONChunkEnded.self) { try Self.chunkRecords("[1,\n", borrowing: borrowing) }
        // An error far from the end is the input's; near the end it may read otherwise with more.
        #expect(throws: JSONSyntaxError.self) { try Self.chunkRecords("{\"a\" 1}\n{\"b\": 2}\n", borrowing: borrowing) }
        #expect(throws: JSONChunkEnded.self) { try Self.chunkRecords("{\"a\": 1}\ntr\n", borrowing: borrowing) }
        // The last chunk ends the input: what is cut is an error.
        #expect(throws: JSONSyntaxError.self) { try Self.chunkRecords("{\"b\":\n", endsInput: true, borrowing: borrowing) }
        #expect(try Self.chunkRecords("12", endsInput: true, borrowing: borrowing) == ["0@1:12"])
        // A byte order mark is skipped only at the start of the input.
        #expect(try Self.chunkRecords("\u{FEFF}1\n", borrowing: borrowing) == ["0@1:1"])
        #expect(throws: JSONSyntaxError.self) { try Self.chunkRecords("\u{FEFF}1\n2\n", startsInput: false, borrowing: borrowing) }
    }

    @Test("the keys of records read in chunks are replayed as one reader collects them")
    func keysReplayed() throws {
        let text = "{\"a\": 1, \"b\": 2}\n{\"c\": 3}\n"
        let whole = JSONRecordReader(text: text, projection: JSONProjection(keys: ["a"]))
        whole.collectsKeys = true
        while try whole.next() != nil {}
        let replay = KeysSeenReplay(collectsKeys: true)
        try Array(text.utf8).withUnsafeBytes { raw in
            let reader = JSONRecordReader(chunk: raw, startsInput: true, endsInput: true, projection: JSONProjection(keys: ["a"]))
            reader.collectsKeys = true
            reader.logsKeyNotes = true
            while try reader.next() != nil { replay.replay(reader.takeKeyNotes()) }
            #expect(reader.keysSeen.isEmpty)
        }
        #expect(replay.keysSeen == whole.keysSeen)
        #expect(replay.keysSeen == ["a", "b", "c"])
    }

    @Test("usable processors: at least one, at most the machine's; quotas round up")
    func usableProcessors() {
        #expect(UsableProcessors.count >= 1)
        #expect(UsableProcessors.count <= ProcessInfo.processInfo.processorCount)
        #expect(UsableProcessors.quota(150_000, 100_000) == 2)
        #expect(UsableProcessors.quota(200_000, 100_000) == 2)
        #expect(UsableProcessors.quota(-1, 100_000) == nil)
        #expect(UsableProcessors.quota(nil, 100_000) == nil)
    }
}
