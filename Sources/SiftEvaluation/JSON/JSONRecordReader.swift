#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads records one at a time from a sequence of JSON values, as jq reads its input, in
/// chunks, so memory stays flat however large the input is (it holds one chunk, or one record
/// if a record is larger).
///
/// The input is any number of JSON values separated by optional whitespace: one JSON array,
/// JSON Lines, values written one after another (`{"a": 1}{"a": 2}`), or pretty-printed values
/// over several lines (what `jq '.[]'` prints). A top-level array is opened: its elements are
/// the records; any other top-level value is one record. A UTF-8 byte order mark is skipped.
/// With a `path` (`["data", "items"]`), each top-level value must be an object, and the
/// elements of the array at that key path are the records (read as they come, so a huge
/// `{"items": [...]}` streams too).
///
///     let reader = JSONRecordReader(fileDescriptor: STDIN_FILENO)
///     while let record = try reader.next() {
///         print(record.position, record.value, String(decoding: record.text, as: UTF8.self))
///     }
///
/// Each ``Record`` has its ``Value`` and its text exactly as written in the input, so a tool can
/// print a matching record without writing it again. Errors are ``JSONSyntaxError`` (with the
/// line and column in the whole input) or ``JSONReadError``.
public final class JSONRecordReader {
    /// How the input starts.
    public enum Format: Sendable, Hashable {
        /// With a JSON array (whose elements are the records).
        case array
        /// With any other value: JSON Lines, concatenated or pretty-printed values.
        case lines
    }

    /// One record.
    public struct Record: Sendable {
        /// The record, parsed.
        public let value: Value
        /// The record's JSON text as it is in the input, from its first to its last byte. Empty
        /// when the reader was made with `keepingText: false`.
        public let text: [UInt8]
        /// 0-based position among the records.
        public let position: Int
        /// The 1-based line the record starts on.
        public let line: Int
    }

    /// The format, once the first byte has been read (nil before, and for empty input).
    public private(set) var format: Format?

    /// Whether the top-level keys of object records are collected in ``keysSeen`` (all of
    /// them, also those a projection does not build). It turns itself off past 10,000 keys.
    public var collectsKeys: Bool {
        get { workspace.collectingKeys }
        set { workspace.collectingKeys = newValue }
    }

    /// The top-level keys of the object records read while ``collectsKeys`` was on.
    public var keysSeen: Set<String> { workspace.keysSeen }

    /// Whether the keys ``collectsKeys`` collects are logged instead, per record, for
    /// ``takeKeyNotes()`` (a chunk's reader, whose keys are replayed in order by
    /// ``KeysSeenReplay``).
    package var logsKeyNotes: Bool {
        get { workspace.keyNoteLog != nil }
        set { workspace.keyNoteLog = newValue ? (workspace.keyNoteLog ?? []) : nil }
    }

    /// The keys logged since the last call (those of the record ``next()`` just returned).
    package func takeKeyNotes() -> [[String]] {
        guard let log = workspace.keyNoteLog, !log.isEmpty else { return [] }
        workspace.keyNoteLog = []
        return log
    }

    /// The key lists the reader's dictionaries share: chunks read with the same ones make
    /// dictionaries of one shape, whose keys a shared compiled predicate finds once.
    package var shapes: DictionaryShapes {
        get { workspace.shapes }
        set { workspace.shapes = newValue }
    }

    private enum State {
        case start
        /// Before a top-level value (or the end).
        case between
        /// Just after the `{` of the object at `path[..<depth]`, which should hold `path[depth]`.
        case objectStart(depth: Int)
        /// After a `,` in that object: a member follows. `found`: `path[depth]` was read.
        case member(depth: Int, found: Bool)
        /// After a member of that object: `,` or `}` follows.
        case afterMember(depth: Int, found: Bool)
        case arrayFirstElement
        case arrayElement
        case finished
    }

    private let fileDescriptor: Int32
    private let fileHandle: FileHandle?
    private var chunkSize: Int
    private let keepingText: Bool
    private let maximumDepth: Int
    private let projection: JSONProjection?
    private let path: [String]
    private var workspace = JSONScanWorkspace()
    private var state = State.start
    private var nextPosition = 0

    // The buffer: bytes [start, end) are read and not consumed; storage[0] is at `bufferBase`
    // in the whole input.
    private var storage: UnsafeMutablePointer<UInt8>
    /// False for a borrowed chunk (``init(borrowing:startsInput:endsInput:keepingText:projection:)``):
    /// `storage` is the caller's, only read.
    private var ownsStorage = true
    private var capacity: Int
    private var start = 0
    private var end = 0
    private var bufferBase = 0
    private var endOfInput = false
    /// A chunk of a larger input (``init(chunk:startsInput:endsInput:keepingText:projection:)``)
    /// that more input follows: needing a byte past it throws ``JSONChunkEnded``.
    private var chunkContinues = false
    /// Whether a byte order mark at the start is skipped (only at the start of the whole input).
    private var skipsByteOrderMark = true

    // Newlines are counted up to `trackedOffset` (absolute); the line there is `line`,
    // starting at absolute offset `lineStart`. When the line started before the buffer,
    // `charactersBeforeBuffer` holds the characters of it that were discarded.
    private var trackedOffset = 0
    private var line = 1
    private var lineStart = 0
    private var charactersBeforeBuffer = 0
    /// Whether the character that ends the dropped part of the line and the one that starts the
    /// buffer are one character (cut in two): it is counted once, when both parts are counted.
    private var joinsAtBufferStart = false

    /// Reads from an open file descriptor (which the reader does not close).
    /// - Parameters:
    ///   - chunkSize: how many bytes to read at a time.
    ///   - keepingText: whether records carry their text (``Record/text``).
    ///   - projection: when given, object records keep only these top-level keys (the others
    ///     are checked, not built: see ``JSONProjection``).
    ///   - path: when not empty, the records are the elements of the array at this key path of
    ///     each top-level value.
    public init(fileDescriptor: Int32, chunkSize: Int = 1 << 20, keepingText: Bool = true, projection: JSONProjection? = nil,
                path: [String] = []) {
        self.fileDescriptor = fileDescriptor
        self.fileHandle = nil
        self.chunkSize = max(16, chunkSize)
        self.keepingText = keepingText
        self.maximumDepth = JSONParser.maximumDepth
        self.projection = projection
        self.path = path
        capacity = self.chunkSize
        storage = .allocate(capacity: capacity)
    }

    /// Reads from a file handle (kept open while the reader lives).
    public init(fileHandle: FileHandle, chunkSize: Int = 1 << 20, keepingText: Bool = true, projection: JSONProjection? = nil,
                path: [String] = []) {
        self.fileDescriptor = fileHandle.fileDescriptor
        self.fileHandle = fileHandle
        self.chunkSize = max(16, chunkSize)
        self.keepingText = keepingText
        self.maximumDepth = JSONParser.maximumDepth
        self.projection = projection
        self.path = path
        capacity = self.chunkSize
        storage = .allocate(capacity: capacity)
    }

    /// Reads from bytes in memory.
    public init(bytes: some Collection<UInt8>, keepingText: Bool = true, projection: JSONProjection? = nil, path: [String] = []) {
        self.fileDescriptor = -1
        self.fileHandle = nil
        self.chunkSize = max(16, bytes.count)
        self.keepingText = keepingText
        self.maximumDepth = JSONParser.maximumDepth
        self.projection = projection
        self.path = path
        capacity = max(1, bytes.count)
        storage = .allocate(capacity: capacity)
        end = UnsafeMutableBufferPointer(start: storage, count: capacity).initialize(fromContentsOf: bytes)
        endOfInput = true
    }

    /// Reads from an open file descriptor whose first bytes were already read (`readAlready`):
    /// as ``init(fileDescriptor:chunkSize:keepingText:projection:path:)`` on the whole input.
    package convenience init(fileDescriptor: Int32, readAlready: [UInt8], keepingText: Bool = true, projection: JSONProjection? = nil,
                             path: [String] = []) {
        self.init(fileDescriptor: fileDescriptor, keepingText: keepingText, projection: projection, path: path)
        if readAlready.count > capacity { grow(to: readAlready.count + chunkSize) }
        end = UnsafeMutableBufferPointer(start: storage, count: capacity).initialize(fromContentsOf: readAlready)
    }

    /// Reads the records of one chunk of a larger input that is cut between top-level values
    /// (see ``LineChunks``): positions and lines count from the chunk's start (record 0,
    /// line 1); a byte order mark is skipped only when `startsInput`. Unless `endsInput`, a value
    /// (or an error) that may go on past the chunk's end throws ``JSONChunkEnded``: the chunk
    /// was not cut between values, and must be read again with what follows it.
    package init(chunk: UnsafeRawBufferPointer, startsInput: Bool, endsInput: Bool, keepingText: Bool = true,
                 projection: JSONProjection? = nil) {
        self.fileDescriptor = -1
        self.fileHandle = nil
        self.chunkSize = max(16, chunk.count)
        self.keepingText = keepingText
        self.maximumDepth = JSONParser.maximumDepth
        self.projection = projection
        self.path = []
        capacity = max(1, chunk.count)
        storage = .allocate(capacity: capacity)
        if let base = chunk.baseAddress { storage.initialize(from: base.assumingMemoryBound(to: UInt8.self), count: chunk.count) }
        end = chunk.count
        endOfInput = endsInput
        chunkContinues = !endsInput
        skipsByteOrderMark = startsInput
    }

    /// As ``init(chunk:startsInput:endsInput:keepingText:projection:)``, reading the chunk where
    /// it lies instead of copying it: the caller keeps `chunk`'s bytes alive and unchanged for as
    /// long as the reader is used (a chunk's reader, made and dropped on one thread within a
    /// `withUnsafeBytes` of the chunk). The reader only reads the bytes: a chunk reader never reads
    /// more into its buffer nor moves what it holds.
    package convenience init(borrowing chunk: UnsafeRawBufferPointer, startsInput: Bool, endsInput: Bool, keepingText: Bool = true,
                             projection: JSONProjection? = nil) {
        guard let base = chunk.baseAddress, chunk.count > 0 else {
            self.init(chunk: chunk, startsInput: startsInput, endsInput: endsInput, keepingText: keepingText, projection: projection)
            return
        }
        self.init(chunk: UnsafeRawBufferPointer(start: nil, count: 0), startsInput: startsInput, endsInput: endsInput,
                  keepingText: keepingText, projection: projection)
        storage.deallocate()
        storage = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        capacity = chunk.count
        end = chunk.count
        chunkSize = max(16, chunk.count)
        ownsStorage = false
    }

    /// Reads from a string in memory.
    public convenience init(text: String, keepingText: Bool = true, projection: JSONProjection? = nil, path: [String] = []) {
        self.init(bytes: Array(text.utf8), keepingText: keepingText, projection: projection, path: path)
    }

    deinit {
        if ownsStorage { storage.deallocate() }
    }

    /// The next record, or nil at the end of the input.
    public func next() throws -> Record? {
        while true {
            switch state {
            case .start:
                try startReading()
            case .between:
                if chunkContinues {
                    // A chunk ends between values: whitespace to its end is its end.
                    while start < end, JSONScanner.isWhitespace(storage[start]) { start += 1 }
                    if start == end {
                        state = .finished
                        return nil
                    }
                }
                guard let b = try peekNonWhitespace() else {
                    state = .finished
                    return nil
                }
                if format == nil { format = b == UInt8(ascii: "[") ? .array : .lines }
                if !path.isEmpty {
                    guard b == UInt8(ascii: "{") else { throw pathError("expected an object, found \(Self.describe(b))", at: absolute(start)) }
                    start += 1
                    state = .objectStart(depth: 0)
                } else if b == UInt8(ascii: "[") {
                    start += 1
                    state = .arrayFirstElement
                } else {
                    return try nextValue()
                }
            case .objectStart(let depth):
                guard let b = try peekNonWhitespace() else { throw syntaxError("unexpected end of JSON in an object", at: absolute(end)) }
                if b == UInt8(ascii: "}") {
                    start += 1
                    try close(depth: depth, found: false)
                } else {
                    state = .member(depth: depth, found: false)
                }
            case .member(let depth, let found):
                try nextMember(depth: depth, found: found)
            case .afterMember(let depth, let found):
                guard let b = try peekNonWhitespace() else { throw syntaxError("unexpected end of JSON in an object", at: absolute(end)) }
                if b == UInt8(ascii: ",") {
                    start += 1
                    state = .member(depth: depth, found: found)
                } else if b == UInt8(ascii: "}") {
                    start += 1
                    try close(depth: depth, found: found)
                } else {
                    throw syntaxError("expected ',' or '}'", at: absolute(start))
                }
            case .arrayFirstElement:
                guard let b = try peekNonWhitespace() else { throw syntaxError("unexpected end of JSON in an array", at: absolute(end)) }
                if b == UInt8(ascii: "]") {
                    start += 1
                    endArray()
                } else {
                    state = .arrayElement
                }
            case .arrayElement:
                return try nextElement()
            case .finished:
                return nil
            }
        }
    }

    // MARK: Starting

    private func startReading() throws {
        // A byte order mark.
        while end - start < 3, !endOfInput, !chunkContinues { try fill() }
        if skipsByteOrderMark, end - start >= 3, storage[start] == 0xEF, storage[start + 1] == 0xBB, storage[start + 2] == 0xBF {
            start += 3
            trackedOffset = 3
            lineStart = 3
        }
        state = .between
    }

    /// The first byte at or after `start` that is not whitespace (reading more as needed), with
    /// `start` moved to it; nil at the end of the input.
    private func peekNonWhitespace() throws -> UInt8? {
        while true {
            while start < end, JSONScanner.isWhitespace(storage[start]) { start += 1 }
            if start < end { return storage[start] }
            if endOfInput { return nil }
            try fill()
        }
    }

    /// Whether a scan that failed with `error` may succeed with more of the input: the value
    /// goes on past the bytes read so far, or the error is within a character's length of
    /// their end (its message quotes the character there, which must not be cut off by where a
    /// chunk ends).
    private func mayNeedMore(_ error: JSONScanFailure) -> Bool {
        !endOfInput && (error.ranOut || end - error.offset < 4)
    }

    /// Reads more for the value at `start`: once while it is shorter than a chunk (so a value
    /// arriving through a pipe is read as soon as it is whole), then at least as many bytes
    /// again as are unconsumed (so a huge value is scanned a logarithmic number of times).
    private func readMore() throws {
        try fill(atLeast: end - start < chunkSize ? 0 : 2 * (end - start))
    }

    // MARK: Top-level values

    /// The top-level value at `start` (which is not whitespace), as a record.
    private func nextValue() throws -> Record? {
        while true {
            var scanner = JSONScanner(UnsafeBufferPointer(start: storage, count: end), from: start, maximumDepth: maximumDepth)
            var complete = false
            var record: Record?
            do throws(JSONScanFailure) {
                let valueStart = scanner.index
                let value: Value
                if let projection {
                    value = try scanner.scanProjectedValue(&workspace, projection)
                } else {
                    value = try scanner.scanValue(&workspace)
                }
                // A number that ends where the bytes read so far end may go on.
                let isNumber = storage[valueStart] == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(storage[valueStart])
                if scanner.index < end || endOfInput || !isNumber {
                    complete = true
                    track(to: absolute(valueStart))
                    record = makeRecord(value, text: valueStart..<scanner.index, line: line)
                    start = scanner.index
                }
            } catch where mayNeedMore(error) {
            } catch {
                throw syntaxError(error.message, at: absolute(error.offset))
            }
            if complete {
                state = .between
                return record
            }
            try readMore()
        }
    }

    // MARK: Following the path

    /// The member at `start` of the object at `path[..<depth]`: the array or object the path
    /// goes on with is entered; any other member is checked and skipped.
    private func nextMember(depth: Int, found: Bool) throws {
        while true {
            var scanner = JSONScanner(UnsafeBufferPointer(start: storage, count: end), from: start,
                                      maximumDepth: maximumDepth - depth - 1)
            var next: State?
            do throws(JSONScanFailure) {
                scanner.skipWhitespace()
                guard scanner.index < end, storage[scanner.index] == JSONScanner.quote else { throw scanner.failure("expected a string key") }
                let key = try scanner.scanString()
                scanner.skipWhitespace()
                guard scanner.index < end, storage[scanner.index] == UInt8(ascii: ":") else { throw scanner.failure("expected ':'") }
                scanner.index += 1
                if !found && key == path[depth] {
                    scanner.skipWhitespace()
                    guard scanner.index < end else { throw scanner.failure("unexpected end of JSON in an object") }
                    let b = storage[scanner.index]
                    let last = depth == path.count - 1
                    let wanted = last ? UInt8(ascii: "[") : UInt8(ascii: "{")
                    if b != wanted {
                        throw JSONScanFailure(
                            message: "--path \(pathText): '\(key)' is \(Self.describe(b)), not \(last ? "an array" : "an object")",
                            offset: scanner.index, ranOut: false)
                    }
                    scanner.index += 1
                    next = last ? .arrayFirstElement : .objectStart(depth: depth + 1)
                } else {
                    try scanner.skipValue(&workspace)
                    next = .afterMember(depth: depth, found: found)
                }
            } catch where mayNeedMore(error) {
            } catch {
                throw syntaxError(error.message, at: absolute(error.offset))
            }
            if let next {
                start = scanner.index
                state = next
                return
            }
            try readMore()
        }
    }

    /// The `}` just before `start` closed the object at `path[..<depth]`.
    private func close(depth: Int, found: Bool) throws {
        guard found else { throw pathError("no key '\(path[depth])' in this object", at: absolute(start - 1)) }
        state = depth == 0 ? .between : .afterMember(depth: depth - 1, found: true)
    }

    /// The `]` just before `start` closed the array of records.
    private func endArray() {
        state = path.isEmpty ? .between : .afterMember(depth: path.count - 1, found: true)
    }

    private var pathText: String { path.joined(separator: ".") }

    private func pathError(_ message: String, at offset: Int) -> JSONSyntaxError {
        syntaxError("--path \(pathText): \(message)", at: offset)
    }

    /// What the value starting with `byte` is: "an object", "a string", ...
    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "an array"
        case JSONScanner.quote: "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        default: "'\(Character(Unicode.Scalar(byte)))'"
        }
    }

    // MARK: Arrays

    /// The element at `start`, and the `,` or `]` after it.
    private func nextElement() throws -> Record? {
        while true {
            var scanner = JSONScanner(UnsafeBufferPointer(start: storage, count: end), from: start,
                                      maximumDepth: maximumDepth - 1 - path.count)
            var record: Record?
            do throws(JSONScanFailure) {
                scanner.skipWhitespace()
                let valueStart = scanner.index
                let value: Value
                if let projection {
                    value = try scanner.scanProjectedValue(&workspace, projection)
                } else {
                    value = try scanner.scanValue(&workspace)
                }
                let valueEnd = scanner.index
                scanner.skipWhitespace()
                guard scanner.index < end else { throw scanner.failure("unexpected end of JSON in an array") }
                let delimiter = storage[scanner.index]
                guard delimiter == UInt8(ascii: ",") || delimiter == UInt8(ascii: "]") else {
                    throw scanner.failure("expected ',' or ']'")
                }
                track(to: absolute(valueStart))
                record = makeRecord(value, text: valueStart..<valueEnd, line: line)
                start = scanner.index + 1
                if delimiter == UInt8(ascii: "]") { endArray() }
            } catch where mayNeedMore(error) {
            } catch {
                throw syntaxError(error.message, at: absolute(error.offset))
            }
            if let record { return record }
            try readMore()
        }
    }

    // MARK: Records

    private func makeRecord(_ value: Value, text range: Range<Int>, line: Int) -> Record {
        if workspace.collectingKeys, case .dictionary(let object) = value { workspace.noteKeys(object.keys) }
        let text = keepingText ? Array(UnsafeBufferPointer(start: storage + range.lowerBound, count: range.count)) : []
        defer { nextPosition += 1 }
        return Record(value: value, text: text, position: nextPosition, line: line)
    }

    // MARK: Reading

    @inline(__always)
    private func absolute(_ index: Int) -> Int { bufferBase + index }

    /// Drops the consumed bytes and reads more: at least one read, and then until `atLeast`
    /// bytes are unconsumed (or the input ends).
    private func fill(atLeast wanted: Int = 0) throws {
        if chunkContinues { throw JSONChunkEnded() }
        guard !endOfInput else { return }
        if start > 0 { discardConsumed() }
        repeat {
            if capacity - end < chunkSize / 2 || capacity < wanted {
                grow(to: max(capacity * 2, end + chunkSize, wanted))
            }
            let n = read(fileDescriptor, storage + end, capacity - end)
            if n > 0 {
                end += n
            } else if n == 0 {
                endOfInput = true
            } else if errno != EINTR {
                throw JSONReadError(message: String(cString: strerror(errno)))
            }
        } while !endOfInput && end - start < wanted
    }

    private func discardConsumed() {
        let newBase = absolute(start)
        track(to: newBase)
        // Keep the characters of the current line that are about to be dropped, for columns.
        // Characters, as a read of the whole line counts them (grapheme clusters, so `e` and a
        // combining accent are one): a character cut in two counts once.
        if lineStart < newBase {
            let from = max(lineStart - bufferBase, 0)
            var dropped = JSONTextPosition.characterCount(UnsafeBufferPointer(start: storage + from, count: start - from))
            if lineStart < bufferBase {
                if joinsAtBufferStart && start > 0 { dropped -= 1 }
                charactersBeforeBuffer += dropped
            } else {
                charactersBeforeBuffer = dropped
            }
            joinsAtBufferStart = JSONTextPosition.joins(UnsafeBufferPointer(start: storage, count: end), from: from, at: start)
        }
        let remaining = end - start
        if remaining > 0 { memmove(storage, storage + start, remaining) }
        bufferBase = newBase
        end = remaining
        start = 0
    }

    private func grow(to newCapacity: Int) {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: storage, count: end)
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }

    // MARK: Lines and columns

    /// Counts the newlines up to `offset` (absolute, in the buffer, not before `trackedOffset`).
    private func track(to offset: Int) {
        guard offset > trackedOffset else { return }
        var i = trackedOffset - bufferBase
        let stop = offset - bufferBase
        while i < stop {
            guard let found = memchr(storage + i, 0x0A, stop - i) else { break }
            let newline = UnsafeMutablePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - storage
            line += 1
            lineStart = absolute(newline + 1)
            i = newline + 1
        }
        trackedOffset = offset
    }

    private func syntaxError(_ message: String, at offset: Int) -> JSONSyntaxError {
        track(to: offset)
        let column: Int
        let here = offset - bufferBase
        if lineStart >= bufferBase {
            let from = lineStart - bufferBase
            column = JSONTextPosition.characterCount(UnsafeBufferPointer(start: storage + from, count: here - from)) + 1
        } else {
            column = charactersBeforeBuffer + JSONTextPosition.characterCount(UnsafeBufferPointer(start: storage, count: here)) + 1
                - (joinsAtBufferStart && here > 0 ? 1 : 0)
        }
        return JSONSyntaxError(message: message, line: line, column: column, offset: offset)
    }
}

/// A chunk read by ``JSONRecordReader/init(chunk:startsInput:endsInput:keepingText:projection:)``
/// ended inside a value, or where an error might read differently with the bytes that follow.
package struct JSONChunkEnded: Error, Sendable {}

/// Reading the input failed (not its JSON): the system's message.
public struct JSONReadError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
