#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SiftEvaluation

extension StoreImporter {
    /// Imports JSON Lines read from `fileDescriptor` (from where it stands, to its end; it is
    /// not closed), and saves: the same rows in the same order, and the same error naming the
    /// same line, as the import of a `JSONRecordReader` of the same input, with the lines read
    /// and checked on ``ImportOptions/jobs`` threads.
    ///
    /// With more than one job the input is cut into chunks at line boundaries (`LineChunks`, as
    /// `sift filter --jobs` cuts it), the jobs parse and check the chunks, and this thread
    /// inserts each chunk's rows in input order (`OrderedPipeline`). At most twice `jobs`
    /// chunks of 256 KiB (and their rows) are in flight, so memory stays flat
    /// however long the input is. A value that spans lines past a chunk's end is read again
    /// joined with the chunks after it. Input that is a top-level JSON array is read on one
    /// thread. The rows still go into the store on one thread — SQLite allows one writer a
    /// transaction — so the import is at best as fast as inserting alone (docs/PERFORMANCE.md).
    @discardableResult
    public static func importJSONLines(fileDescriptor: Int32, into store: any PersistentStore, options: ImportOptions = ImportOptions(),
                                       progress: Progress? = nil) throws(StoreError) -> ImportSummary {
        try importJSONLines(fileDescriptor: fileDescriptor, into: store, options: options, chunkBytes: parallelChunkBytes, progress: progress)
    }

    /// The size of the chunks JSON Lines are cut into for several jobs: about 2,400 rows of
    /// four attributes, a few hundred kilobytes once checked.
    static var parallelChunkBytes: Int { 256 << 10 }

    /// ``importJSONLines(fileDescriptor:into:options:progress:)`` with chunks of about
    /// `chunkBytes` (tests cut small inputs into many).
    static func importJSONLines(fileDescriptor: Int32, into store: any PersistentStore, options: ImportOptions, chunkBytes: Int,
                                progress: Progress?) throws(StoreError) -> ImportSummary {
        guard options.jobs > 1 else {
            return try importJSONLines(JSONRecordReader(fileDescriptor: fileDescriptor, keepingText: false), into: store, options: options, progress: progress)
        }
        // A top-level array (its elements are the records) is read on one thread, as is input
        // whose start cannot be read (that reader reads on and reports the failure).
        let start = JSONLinesStart.readFirstBytes(fileDescriptor)
        guard let start, JSONLinesStart.firstValueByte(start) != UInt8(ascii: "[") else {
            let reader = JSONRecordReader(fileDescriptor: fileDescriptor, readAlready: start ?? [], keepingText: false)
            return try importJSONLines(reader, into: store, options: options, progress: progress)
        }
        let jobs = options.jobs
        let chunks = LineChunks(fileDescriptor: fileDescriptor, chunkBytes: chunkBytes, readAlready: start,
                                prefersCutBefore: JSONLinesStart.startsValue)
        return try run(into: store, options: options, progress: progress) { (rows: inout ImportRun) throws(StoreError) in
            // (With the options' new entities, which `run` added.)
            let model = store.model
            var taker = CheckedChunkTaker(model: model, options: options)
            try OrderedPipeline.run(
                jobs: jobs, inFlight: 2 * jobs,
                produce: { chunks.next() },
                work: { (chunk: LineChunks.Chunk) -> CheckedChunk? in
                    guard case .bytes(let bytes, let isFirst, let isLast) = chunk else { return nil }
                    return CheckedChunk.check(bytes, startsInput: isFirst, endsInput: isLast, model: model, options: options)
                },
                take: { (chunk: LineChunks.Chunk, checked: CheckedChunk?) throws(StoreError) -> Bool in
                    guard let ready = try taker.ready(chunk, checked) else { return true }
                    try insert(ready, into: &rows, store: store, model: model)
                    return true
                })
            if let ready = taker.finish() { try insert(ready, into: &rows, store: store, model: model) }
        }
    }

    /// Inserts a chunk's rows, then throws its error, if it ended with one, naming the line in
    /// the whole input as the reader of one thread would.
    private static func insert(_ ready: CheckedChunkTaker.Ready, into rows: inout ImportRun, store: any PersistentStore,
                               model: DataModel) throws(StoreError) {
        for item in ready.chunk.rows {
            let line = ready.lineBase + item.line
            do throws(StoreError) {
                try rows.add(item.row, line: line)
            } catch {
                throw error.prefixed("line \(line): ")
            }
        }
        switch ready.chunk.end {
        case .complete:
            return
        case .incomplete:
            // A chunk that may end inside a value is joined with the next, not handed on.
            throw StoreError(.invalidValue, "import data is not valid JSON Lines: the input ends inside a value")
        case .syntax(let error):
            let whole = JSONSyntaxError(message: error.message, line: ready.lineBase + error.line, column: error.column,
                                        offset: ready.byteBase + error.offset)
            throw StoreError(.invalidValue, "import data is not valid JSON Lines: \(whole)")
        case .row(let error, let line):
            throw explained(error.prefixed("line \(ready.lineBase + line): "), in: store, model: model)
        case .other(let error):
            throw error
        }
    }
}

/// One chunk of JSON Lines, read and checked on a job's thread: its rows, with lines counted
/// from the chunk's start, and how it ended.
struct CheckedChunk: Sendable {
    enum End: Sendable {
        case complete
        /// The chunk's last value (or an error near its end) may go on past it.
        case incomplete
        /// Malformed JSON (line, column and offset in the chunk), after `rows`.
        case syntax(JSONSyntaxError)
        /// The record at `line` of the chunk is not a row of the model, after `rows`.
        case row(StoreError, line: Int)
        /// Any other failure, whole.
        case other(StoreError)
    }

    var rows: [StoreImporter.LineRow] = []
    /// The newlines of a complete chunk.
    var lines = 0
    var bytes = 0
    var end = End.complete

    static func check(_ bytes: [UInt8], startsInput: Bool, endsInput: Bool, model: DataModel, options: ImportOptions) -> CheckedChunk {
        var checked = CheckedChunk()
        checked.bytes = bytes.count
        let dates = options.dateFormat.map(ImportDateFormat.Parser.init)
        bytes.withUnsafeBytes { raw in
            let reader = JSONRecordReader(chunk: raw, startsInput: startsInput, endsInput: endsInput, keepingText: false)
            var keys = StoreImporter.RowKeys()
            checked.end = .complete
            while true {
                let record: JSONRecordReader.Record
                do {
                    guard let next = try reader.next() else { break }
                    record = next
                } catch is JSONChunkEnded {
                    checked.end = .incomplete
                    return
                } catch let error as JSONSyntaxError {
                    checked.end = .syntax(error)
                    return
                } catch {
                    checked.end = .other(StoreError(.fileSystem, "reading the import data failed: \(error)"))
                    return
                }
                do throws(StoreError) {
                    let row = try StoreImporter.lineRow(record.value, model: model, options: options, dates: dates, keys: &keys)
                    checked.rows.append(StoreImporter.LineRow(row: row, line: record.line))
                } catch {
                    checked.end = .row(error, line: record.line)
                    return
                }
            }
            checked.lines = LineChunks.newlines(in: raw)
        }
        return checked
    }
}

/// The inserting thread's side of the jobs: takes the checked chunks in order, joins a chunk
/// that ended inside a value with the ones after it (read again on this thread once twice as
/// long, or at the input's end), and counts the lines and bytes before each chunk.
struct CheckedChunkTaker {
    /// A chunk to insert, and the lines and bytes of the input before it.
    struct Ready {
        let chunk: CheckedChunk
        let lineBase: Int
        let byteBase: Int
    }

    let model: DataModel
    let options: ImportOptions
    var lineBase = 0
    var byteBase = 0
    /// Chunks joined because the first of them ended inside a value.
    var joiner = ChunkJoiner()

    init(model: DataModel, options: ImportOptions) {
        self.model = model
        self.options = options
    }

    /// The chunk to insert now, if any (nil while chunks are joined).
    mutating func ready(_ chunk: LineChunks.Chunk, _ checked: CheckedChunk?) throws(StoreError) -> Ready? {
        let bytes: [UInt8], isFirst: Bool, isLast: Bool
        switch chunk {
        case .failed(let message):
            // (Chunks joined and waiting are dropped: the import fails whole.)
            joiner.drop()
            throw StoreError(.fileSystem, "reading the import data failed: \(message)")
        case .bytes(let b, let first, let last):
            (bytes, isFirst, isLast) = (b, first, last)
        }
        let (model, options) = (self.model, self.options)
        guard let checked = joiner.take(bytes, isFirst: isFirst, isLast: isLast, outcome: checked!, isIncomplete: Self.isIncomplete,
                                        read: { CheckedChunk.check($0, startsInput: $1, endsInput: $2, model: model, options: options) })
        else { return nil }
        return hand(checked)
    }

    private static func isIncomplete(_ checked: CheckedChunk) -> Bool {
        if case .incomplete = checked.end { true } else { false }
    }

    /// After the last chunk: chunks still joined, read as ending the input.
    mutating func finish() -> Ready? {
        let (model, options) = (self.model, self.options)
        return joiner.finish(read: { CheckedChunk.check($0, startsInput: $1, endsInput: $2, model: model, options: options) }).map { hand($0) }
    }

    private mutating func hand(_ checked: CheckedChunk) -> Ready {
        let ready = Ready(chunk: checked, lineBase: lineBase, byteBase: byteBase)
        lineBase += checked.lines
        byteBase += checked.bytes
        return ready
    }
}
