#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Sift
import SiftEvaluation
import Synchronization

/// What finds `sift filter`'s matches: ``Matcher`` on one thread, ``ParallelMatcher`` on many.
protocol MatchSource {
    /// Calls `body` with each record the predicate holds for, in input order, until `body`
    /// returns false.
    func forEachMatch(_ body: (Match) throws(FilterFailure) -> Bool) throws(FilterFailure)
}

extension Matcher: MatchSource {}

/// `sift filter --jobs N` (N > 1) over JSON Lines (or any sequence of values that is not an
/// array): the input is cut into chunks at line boundaries (``LineChunks``), N threads read and
/// evaluate the chunks with the one compiled predicate, and this thread takes each chunk's
/// matches in input order (``OrderedPipeline``) and hands them to `body` exactly as ``Matcher``
/// would: the same matches, positions and lines, the same error at the same point, the same
/// records noted for the missing-key warnings.
///
/// A cut need not fall between two values (a pretty-printed value spans lines): a chunk whose
/// last value runs past its end says so (``JSONChunkEnded``), and is read again joined with the
/// chunks after it, doubling each time, until it ends between values. Chunks are cut before
/// lines that start a value (not before an indented line), so jq's pretty output is cut well.
struct ParallelMatcher: MatchSource {
    let descriptor: Int32
    /// The input's first bytes, read to tell its format.
    let readAlready: [UInt8]
    let work: ChunkWork
    let inputName: String
    let jobs: Int
    let chunkBytes: Int
    let missingKeys: MissingKeys
    let keysSeen: KeysSeenReplay

    /// The default chunk size, and SIFT_FILTER_CHUNK_BYTES (internal: for tests that cut
    /// small inputs into many chunks).
    static var chunkBytes: Int {
        if let text = ProcessInfo.processInfo.environment["SIFT_FILTER_CHUNK_BYTES"], let bytes = Int(text), bytes > 0 {
            return bytes
        }
        return 1 << 20
    }

    func forEachMatch(_ body: (Match) throws(FilterFailure) -> Bool) throws(FilterFailure) {
        let chunks = LineChunks(fileDescriptor: descriptor, chunkBytes: chunkBytes, readAlready: readAlready,
                                prefersCutBefore: JSONLinesStart.startsValue)
        let work = self.work
        work.flags.noting.store(missingKeys.isNoting, ordering: .relaxed)
        work.flags.collecting.store(keysSeen.collectsKeys, ordering: .relaxed)
        var taker = ChunkTaker(matcher: self)
        try OrderedPipeline.run(
            jobs: jobs, inFlight: 2 * jobs,
            produce: { chunks.next() },
            work: { chunk -> ChunkOutcome? in
                guard case .bytes(let bytes, let isFirst, let isLast) = chunk else { return nil }
                return work.run(bytes, startsInput: isFirst, endsInput: isLast, noting: work.flags.noting.load(ordering: .relaxed),
                                collecting: work.flags.collecting.load(ordering: .relaxed))
            },
            take: { (chunk, outcome) throws(FilterFailure) -> Bool in try taker.take(chunk, outcome, body) })
        try taker.finish(body)
    }
}

/// The matcher's side of the pipeline: takes the chunks' outcomes in order, joins chunks cut
/// inside a value, and hands the matches on with their positions and lines in the whole input.
private struct ChunkTaker {
    let matcher: ParallelMatcher
    /// Records, lines and bytes of the chunks taken so far.
    var recordBase = 0
    var lineBase = 0
    var byteBase = 0
    /// Chunks joined because the first of them ended inside a value; read again once they are
    /// twice as long as when last read (or the input ends).
    var joiner = ChunkJoiner()
    /// Whether `body` asked for no more matches.
    var stopped = false

    mutating func take(_ chunk: LineChunks.Chunk, _ outcome: ChunkOutcome?,
                       _ body: (Match) throws(FilterFailure) -> Bool) throws(FilterFailure) -> Bool {
        let bytes: [UInt8], isFirst: Bool, isLast: Bool
        switch chunk {
        case .failed(let message):
            throw FilterFailure("error: \(matcher.inputName): \(message)")
        case .bytes(let b, let first, let last):
            (bytes, isFirst, isLast) = (b, first, last)
        }
        let matcher = self.matcher
        let read = { (bytes: [UInt8], startsInput: Bool, endsInput: Bool) in
            matcher.work.run(bytes, startsInput: startsInput, endsInput: endsInput,
                             noting: matcher.missingKeys.isNoting, collecting: matcher.keysSeen.collectsKeys)
        }
        guard let outcome = joiner.take(bytes, isFirst: isFirst, isLast: isLast, outcome: outcome!, isIncomplete: Self.isIncomplete, read: read)
        else { return true }
        return try deliver(outcome, body)
    }

    /// After the last chunk: chunks still joined (the input ended inside a value; the last
    /// chunk is read as ending the input, so this only guards against a producer that did not
    /// say which chunk was its last).
    mutating func finish(_ body: (Match) throws(FilterFailure) -> Bool) throws(FilterFailure) {
        guard !stopped else { return }
        let matcher = self.matcher
        guard let outcome = joiner.finish(read: { bytes, startsInput, endsInput in
            matcher.work.run(bytes, startsInput: startsInput, endsInput: endsInput,
                             noting: matcher.missingKeys.isNoting, collecting: matcher.keysSeen.collectsKeys)
        }) else { return }
        _ = try deliver(outcome, body)
    }

    private static func isIncomplete(_ outcome: ChunkOutcome) -> Bool {
        if case .incomplete = outcome.end { true } else { false }
    }

    /// Hands on the matches of a chunk that starts and ends between values.
    private mutating func deliver(_ outcome: ChunkOutcome, _ body: (Match) throws(FilterFailure) -> Bool) throws(FilterFailure) -> Bool {
        let missingKeys = matcher.missingKeys, keysSeen = matcher.keysSeen
        for item in outcome.items {
            if !item.keyNotes.isEmpty && keysSeen.collectsKeys {
                keysSeen.replay(item.keyNotes)
                if !keysSeen.collectsKeys { matcher.work.flags.collecting.store(false, ordering: .relaxed) }
            }
            if let value = item.noted, missingKeys.isNoting {
                missingKeys.note(value)
                if !missingKeys.isNoting { matcher.work.flags.noting.store(false, ordering: .relaxed) }
                if !keysSeen.collectsKeys { matcher.work.flags.collecting.store(false, ordering: .relaxed) }
            }
            if let match = item.match {
                let whole = Match(value: match.value, position: recordBase + match.position, text: match.text)
                if !(try body(whole)) {
                    stopped = true
                    return false
                }
            }
        }
        switch outcome.end {
        case .complete:
            recordBase += outcome.records
            lineBase += outcome.lines
            byteBase += outcome.bytes
            matcher.work.retire(outcome)
            return true
        case .incomplete:
            preconditionFailure("an incomplete chunk is joined, not delivered")
        case .failed(let failure):
            switch failure {
            case .syntax(let error):
                let whole = JSONSyntaxError(message: error.message, line: lineBase + error.line, column: error.column,
                                            offset: byteBase + error.offset)
                throw FilterFailure("error: \(matcher.inputName): \(whole)")
            case .evaluation(let line, let message):
                throw FilterFailure("error: \(matcher.inputName): line \(lineBase + line): \(message)")
            case .other(let message):
                throw FilterFailure("error: \(matcher.inputName): \(message)")
            }
        }
    }
}

/// What the reader of a chunk is told by the thread taking the outcomes: whether it still
/// needs every record (for ``MissingKeys``) and their keys (``KeysSeenReplay``). Each only goes
/// from true to false, so a chunk read with it false is one whose records are not needed.
final class ChunkFlags: Sendable {
    let noting = Atomic<Bool>(true)
    let collecting = Atomic<Bool>(true)
}

/// One chunk's records, matched (on a worker thread).
struct ChunkOutcome: Sendable {
    struct FoundMatch: Sendable {
        let value: Value
        /// 0-based among the chunk's records.
        let position: Int
        let text: [UInt8]
    }

    /// A record: noted (for the missing-key warnings), matched, or both.
    struct Item: Sendable {
        var noted: Value?
        var keyNotes: [[String]]
        var match: FoundMatch?
    }

    enum Failure: Sendable {
        /// Malformed JSON (line, column and offset in the chunk).
        case syntax(JSONSyntaxError)
        /// The predicate failed on the record at `line` of the chunk.
        case evaluation(line: Int, message: String)
        /// Any other error, with its whole text.
        case other(String)
    }

    enum End: Sendable {
        case complete
        /// The chunk's last value (or an error near its end) may go on past it.
        case incomplete
        /// An error after `items`.
        case failed(Failure)
    }

    var items: [Item] = []
    var records = 0
    var lines = 0
    var bytes = 0
    var end = End.complete
}

/// Reads and matches one chunk: what ``Matcher/forEachMatch(_:)`` does for its records.
struct ChunkWork: Sendable {
    let predicate: CompiledPredicate
    let projection: JSONProjection?
    let reparse: Bool
    let keepsText: Bool
    let flags = ChunkFlags()
    /// The key lists of the first chunk read, which every later chunk starts from: records of
    /// one shape in all chunks let the shared predicate find a key once for all of them.
    let shapes = Locked<DictionaryShapes?>(nil)
    /// Outcomes the taking thread is done with, freed by the next worker to start a chunk: their
    /// records were allocated on a worker, and freed on a worker they go back to that thread's
    /// malloc cache rather than through the arena's lock from the taking thread, which also
    /// left the workers' caches empty (docs/PERFORMANCE.md, "Every core").
    let spent = Locked<[ChunkOutcome]>([])

    /// Hands an outcome the taking thread is done with to the workers, to free.
    func retire(_ outcome: ChunkOutcome) {
        spent.withLock { $0.append(outcome) }
    }

    func run(_ bytes: [UInt8], startsInput: Bool, endsInput: Bool, noting: Bool, collecting: Bool) -> ChunkOutcome {
        do {
            var done = spent.withLock { spent -> [ChunkOutcome] in
                defer { spent = [] }
                return spent
            }
            done.removeAll()
        }
        var outcome = ChunkOutcome()
        outcome.bytes = bytes.count
        bytes.withUnsafeBytes { raw in
            // The reader reads the chunk where it lies (it does not outlive this closure).
            let reader = JSONRecordReader(borrowing: raw, startsInput: startsInput, endsInput: endsInput,
                                          keepingText: keepsText || reparse, projection: projection)
            reader.collectsKeys = collecting
            reader.logsKeyNotes = collecting
            let seed = shapes.withLock { $0 }
            if let seed { reader.shapes = seed }
            defer {
                if seed == nil {
                    let learned = reader.shapes
                    shapes.withLock { if $0 == nil { $0 = learned } }
                }
            }
            outcome.end = read(reader, noting: noting, collecting: collecting, into: &outcome)
            if case .complete = outcome.end {
                outcome.lines = LineChunks.newlines(in: raw)
            }
        }
        return outcome
    }

    private func read(_ reader: JSONRecordReader, noting: Bool, collecting: Bool, into outcome: inout ChunkOutcome) -> ChunkOutcome.End {
        while true {
            let record: JSONRecordReader.Record
            do {
                guard let next = try reader.next() else { return .complete }
                record = next
            } catch is JSONChunkEnded {
                return .incomplete
            } catch let error as JSONSyntaxError {
                return .failed(.syntax(error))
            } catch {
                return .failed(.other("\(error)"))
            }
            outcome.records += 1
            // Most records are neither noted nor matched: an item is made only for the others.
            let keyNotes = collecting ? reader.takeKeyNotes() : []
            func item(_ match: ChunkOutcome.FoundMatch?) -> ChunkOutcome.Item {
                ChunkOutcome.Item(noted: noting ? record.value : nil, keyNotes: keyNotes, match: match)
            }
            let matches: Bool
            do {
                matches = try predicate.evaluate(record.value)
            } catch {
                outcome.items.append(item(nil))
                return .failed(.evaluation(line: record.line, message: error.message))
            }
            if matches {
                var value = record.value
                if reparse {
                    do {
                        value = try JSONParser.parse(record.text)
                    } catch {
                        outcome.items.append(item(nil))
                        return .failed(.other("\(error)"))
                    }
                }
                outcome.items.append(item(ChunkOutcome.FoundMatch(value: value, position: record.position, text: keepsText ? record.text : [])))
            } else if noting || !keyNotes.isEmpty {
                outcome.items.append(item(nil))
            }
        }
    }
}
