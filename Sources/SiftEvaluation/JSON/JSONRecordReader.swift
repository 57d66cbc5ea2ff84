#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads records one at a time from a JSON array or from JSON Lines, in chunks, so memory stays
/// flat however large the input is (it holds one chunk, or one record if a record is larger).
///
/// The format is decided by the first byte that is not whitespace (a UTF-8 byte order mark is
/// skipped): `[` means one JSON array whose elements are the records; anything else means JSON
/// Lines, one value per line, blank lines skipped.
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
    /// How the records are laid out.
    public enum Format: Sendable, Hashable {
        /// One JSON array; its elements are the records.
        case array
        /// JSON Lines: one value per line.
        case lines
    }

    /// One record.
    public struct Record: Sendable {
        /// The record, parsed.
        public let value: Value
        /// The record's JSON text as it is in the input (for an array element, from its first to
        /// its last byte; for a line, without surrounding whitespace). Empty when the reader was
        /// made with `keepingText: false`.
        public let text: [UInt8]
        /// 0-based position among the records.
        public let position: Int
        /// The 1-based line the record starts on.
        public let line: Int
    }

    /// The format, once the first byte has been read (nil before, and for empty input).
    public private(set) var format: Format?

    private enum State {
        case start, lines, arrayFirstElement, arrayElement, arrayEnd, finished
    }

    private let fileDescriptor: Int32
    private let fileHandle: FileHandle?
    private let chunkSize: Int
    private let keepingText: Bool
    private let maximumDepth: Int
    private let projection: JSONProjection?
    private var workspace = JSONScanWorkspace()
    private var state = State.start
    private var nextPosition = 0

    // The buffer: bytes [start, end) are read and not consumed; storage[0] is at `bufferBase`
    // in the whole input.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private var bufferBase = 0
    private var endOfInput = false
    /// JSON Lines: where to look for the next newline (bytes before it were searched).
    private var searchFrom = 0

    // Lines: newlines are counted up to `trackedOffset` (absolute); the line there is `line`,
    // starting at absolute offset `lineStart`. When the line started before the buffer,
    // `charactersBeforeBuffer` holds the characters of it that were discarded.
    private var trackedOffset = 0
    private var line = 1
    private var lineStart = 0
    private var charactersBeforeBuffer = 0
    /// Whether the character that ends the dropped part of the line and the one that starts the
    /// buffer are one character (cut in two): it is counted once, when both parts are counted.
    private var joinsAtBufferStart = false
    /// JSON Lines: characters of the first record's line dropped before it was read.
    private var columnBias = 0

    /// Reads from an open file descriptor (which the reader does not close).
    /// - Parameters:
    ///   - chunkSize: how many bytes to read at a time.
    ///   - keepingText: whether records carry their text (``Record/text``).
    ///   - projection: when given, object records keep only these top-level keys (the others
    ///     are checked, not built: see ``JSONProjection``).
    public init(fileDescriptor: Int32, chunkSize: Int = 1 << 20, keepingText: Bool = true, projection: JSONProjection? = nil) {
        self.fileDescriptor = fileDescriptor
        self.fileHandle = nil
        self.chunkSize = max(16, chunkSize)
        self.keepingText = keepingText
        self.maximumDepth = JSONParser.maximumDepth
        self.projection = projection
        capacity = self.chunkSize
        storage = .allocate(capacity: capacity)
    }

    /// Reads from a file handle (kept open while the reader lives).
    public init(fileHandle: FileHandle, chunkSize: Int = 1 << 20, keepingText: Bool = true, projection: JSONProjection? = nil) {
        self.fileDescriptor = fileHandle.fileDescriptor
        self.fileHandle = fileHandle
        self.chunkSize = max(16, chunkSize)
        self.keepingText = keepingText
        self.maximumDepth = JSONParser.maximumDepth
        self.projection = projection
        capacity = self.chunkSize
        storage = .allocate(capacity: capacity)
    }

    /// Reads from bytes in memory.
    public init(bytes: some Collection<UInt8>, keepingText: Bool = true, projection: JSONProjection? = nil) {
        self.fileDescriptor = -1
        self.fileHandle = nil
        self.chunkSize = max(16, bytes.count)
        self.keepingText = keepingText
        self.maximumDepth = JSONParser.maximumDepth
        self.projection = projection
        capacity = max(1, bytes.count)
        storage = .allocate(capacity: capacity)
        end = UnsafeMutableBufferPointer(start: storage, count: capacity).initialize(fromContentsOf: bytes)
        endOfInput = true
    }

    /// Reads from a string in memory.
    public convenience init(text: String, keepingText: Bool = true, projection: JSONProjection? = nil) {
        self.init(bytes: Array(text.utf8), keepingText: keepingText, projection: projection)
    }

    deinit {
        storage.deallocate()
    }

    /// The next record, or nil at the end of the input.
    public func next() throws -> Record? {
        while true {
            switch state {
            case .start:
                try startReading()
            case .lines:
                return try nextLine()
            case .arrayFirstElement:
                guard let b = try peekNonWhitespace() else { throw syntaxError("unexpected end of JSON in an array", at: absolute(end)) }
                if b == UInt8(ascii: "]") {
                    start += 1
                    state = .arrayEnd
                } else {
                    state = .arrayElement
                }
            case .arrayElement:
                return try nextElement()
            case .arrayEnd:
                if try peekNonWhitespace() != nil {
                    throw syntaxError("unexpected text after the JSON array", at: absolute(start))
                }
                state = .finished
            case .finished:
                return nil
            }
        }
    }

    // MARK: Starting

    private func startReading() throws {
        // A byte order mark.
        while end - start < 3, !endOfInput { try fill() }
        if end - start >= 3, storage[start] == 0xEF, storage[start + 1] == 0xBB, storage[start + 2] == 0xBF {
            start += 3
            trackedOffset = 3
            lineStart = 3
        }
        guard let b = try peekNonWhitespace() else {
            state = .finished
            return
        }
        if b == UInt8(ascii: "[") {
            format = .array
            start += 1
            state = .arrayFirstElement
        } else {
            format = .lines
            // Count the blank lines before the first record.
            track(to: absolute(start))
            // Records start at the beginning of their line (whose leading whitespace may have
            // been dropped already, in a pathological input: count it for columns).
            if lineStart >= bufferBase {
                start = lineStart - bufferBase
            } else {
                columnBias = bufferBase - lineStart
                start = 0
            }
            searchFrom = start
            state = .lines
        }
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

    // MARK: JSON Lines

    private func nextLine() throws -> Record? {
        while true {
            let lineEnd: Int
            let nextStart: Int
            if let found = memchr(storage + searchFrom, 0x0A, end - searchFrom) {
                lineEnd = UnsafeMutablePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - storage
                nextStart = lineEnd + 1
            } else if endOfInput {
                if start == end {
                    state = .finished
                    return nil
                }
                lineEnd = end
                nextStart = end
            } else {
                searchFrom = end
                try fill()
                continue
            }
            // The line is [start, lineEnd); trim whitespace (including a CR before the LF).
            var first = start, last = lineEnd
            while first < last, JSONScanner.isWhitespace(storage[first]) { first += 1 }
            while last > first, JSONScanner.isWhitespace(storage[last - 1]) { last -= 1 }
            let recordLine = line
            let recordLineStart = start
            defer { columnBias = 0 }
            if nextStart > lineEnd {
                // Past the newline: the next line starts after it.
                line += 1
                lineStart = absolute(nextStart)
                trackedOffset = lineStart
            } else {
                trackedOffset = absolute(lineEnd)
            }
            start = nextStart
            searchFrom = nextStart
            if first == last { continue }  // a blank line

            var scanner = JSONScanner(UnsafeBufferPointer(start: storage, count: last), from: first, maximumDepth: maximumDepth)
            let value: Value
            do throws(JSONScanFailure) {
                if let projection {
                    value = try scanner.scanProjectedDocument(&workspace, projection)
                } else {
                    value = try scanner.scanDocument(&workspace)
                }
            } catch {
                let column = JSONTextPosition.characterCount(
                    UnsafeBufferPointer(start: storage + recordLineStart, count: error.offset - recordLineStart)) + 1 + columnBias
                throw JSONSyntaxError(message: error.message, line: recordLine, column: column, offset: absolute(error.offset))
            }
            return makeRecord(value, text: first..<last, line: recordLine)
        }
    }

    // MARK: Arrays

    /// The element at `start`, and the `,` or `]` after it.
    private func nextElement() throws -> Record? {
        while true {
            var scanner = JSONScanner(UnsafeBufferPointer(start: storage, count: end), from: start, maximumDepth: maximumDepth - 1)
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
                let record = makeRecord(value, text: valueStart..<valueEnd, line: line)
                start = scanner.index + 1
                state = delimiter == UInt8(ascii: ",") ? .arrayElement : .arrayEnd
                return record
            } catch where !endOfInput && (error.ranOut || end - error.offset < 4) {
                // The element goes on past the bytes read so far: read at least as many again
                // (so a huge element is scanned a logarithmic number of times) and rescan it.
                // So does an error within a character's length of the end: its message quotes
                // the character there, which must not be cut off by where a chunk ends.
                try fill(atLeast: 2 * (end - start))
            } catch {
                throw syntaxError(error.message, at: absolute(error.offset))
            }
        }
    }

    // MARK: Records

    private func makeRecord(_ value: Value, text range: Range<Int>, line: Int) -> Record {
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
        searchFrom = max(0, searchFrom - start)
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

/// Reading the input failed (not its JSON): the system's message.
public struct JSONReadError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
