#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads RFC 4180 CSV a record at a time, in chunks, so memory stays flat however long the
/// input is (it holds one chunk, or one record if a record is longer): what
/// `StoreImporter.importCSV` and `ModelInference.addCSV` read.
///
/// Fields are separated by commas, records by CRLF, LF or CR; a field in double quotes may
/// hold commas, line breaks and doubled quotes (`""`). A UTF-8 byte order mark is skipped;
/// blank lines are skipped. A quoted empty field (`""`) is the empty string; an unquoted empty
/// field is no value (nil). The text must be UTF-8. Records and errors carry the line of the
/// file they are on (a quoted field spanning lines counts each of them), never a record number.
///
///     let reader = CSVReader(fileDescriptor: STDIN_FILENO)
///     try StoreImporter.importCSV(reader, entity: "Person", into: store)
public final class CSVReader {
    /// A fault in the CSV text, on a line of the file.
    struct Failure: Error {
        /// The 1-based line of the file.
        let line: Int
        let message: String
    }

    /// What a field of the current record holds.
    enum FieldKind: UInt8 {
        /// Unquoted and empty.
        case none
        /// Unquoted text.
        case plain
        /// Quoted text (maybe empty).
        case quoted
    }

    private let fileDescriptor: Int32
    private let fileHandle: FileHandle?
    private let chunkSize: Int

    // The input buffer: bytes [start, end) are read and not consumed.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private var endOfInput = false
    private var begun = false
    /// Where storage[0] is in the whole input.
    private var bufferBase = 0
    /// A copy of every byte read from the file, while ``startRecording()`` asks for it.
    private var recording: [UInt8]?
    /// The line the next record starts on (blank lines before it not yet skipped).
    private var line = 1

    /// The current record's fields.
    private var fields = Fields()
    /// The line the current record starts on.
    private(set) var recordLine = 0

    /// A record's fields, where their bytes are: in the input buffer (a field without doubled
    /// quotes, the quotes around it left out), or in `escaped` (a quoted field's bytes with its
    /// doubled quotes undone). (A value, parsed in a local variable: the properties of a class
    /// would be checked for exclusive access at every byte.)
    fileprivate struct Fields {
        struct Field {
            var start: Int
            var count: Int
            var kind: FieldKind
            var isEscaped: Bool
        }

        var fields: [Field] = []
        var escaped: [UInt8] = []

        mutating func removeAll() {
            fields.removeAll(keepingCapacity: true)
            escaped.removeAll(keepingCapacity: true)
        }

        /// Checks that a field's bytes are UTF-8, when `nonASCII` says some are not ASCII.
        static func check(_ text: UnsafeBufferPointer<UInt8>, line: Int, nonASCII: UInt8) throws(Failure) {
            guard nonASCII & 0x80 != 0, String(validating: text, as: UTF8.self) == nil else { return }
            throw Failure(line: line + CSVReader.invalidUTF8Line(text),
                          message: "the text is not UTF-8 (CSV files must be UTF-8; convert this one, e.g. with iconv)")
        }
    }

    /// Reads from an open file descriptor (which the reader does not close), `chunkSize` bytes
    /// at a time.
    public init(fileDescriptor: Int32, chunkSize: Int = 1 << 20) {
        self.fileDescriptor = fileDescriptor
        self.fileHandle = nil
        self.chunkSize = max(16, chunkSize)
        capacity = self.chunkSize
        storage = .allocate(capacity: capacity)
    }

    /// Reads from a file handle (kept open while the reader lives), `chunkSize` bytes at a time.
    public init(fileHandle: FileHandle, chunkSize: Int = 1 << 20) {
        self.fileDescriptor = fileHandle.fileDescriptor
        self.fileHandle = fileHandle
        self.chunkSize = max(16, chunkSize)
        capacity = self.chunkSize
        storage = .allocate(capacity: capacity)
    }

    /// Reads `prefix`, then the file descriptor (which the reader does not close): the start of
    /// the input that another reader read already (``recorded``), and the rest of it.
    public init(prefix: [UInt8], fileDescriptor: Int32, chunkSize: Int = 1 << 20) {
        self.fileDescriptor = fileDescriptor
        self.fileHandle = nil
        self.chunkSize = max(16, chunkSize)
        capacity = max(self.chunkSize, prefix.count + self.chunkSize)
        storage = .allocate(capacity: capacity)
        end = UnsafeMutableBufferPointer(start: storage, count: capacity).initialize(fromContentsOf: prefix)
    }

    /// Reads from bytes in memory.
    public init(bytes: some Collection<UInt8>) {
        self.fileDescriptor = -1
        self.fileHandle = nil
        self.chunkSize = max(16, bytes.count)
        capacity = max(1, bytes.count)
        storage = .allocate(capacity: capacity)
        end = UnsafeMutableBufferPointer(start: storage, count: capacity).initialize(fromContentsOf: bytes)
        endOfInput = true
    }

    deinit {
        storage.deallocate()
    }

    /// How many bytes of the input the records read so far took.
    var consumed: Int { bufferBase + start }

    /// Whether the input has ended and every record of it has been read.
    var atEnd: Bool { endOfInput && start == end }

    /// Keeps a copy of every byte read (``recorded``): a reader that reads a sample of standard
    /// input lets another read it again. Call before reading a record.
    public func startRecording() {
        precondition(!begun, "recording starts before the first record is read")
        recording = Array(UnsafeBufferPointer(start: storage, count: end))
    }

    /// The bytes read since ``startRecording()``, from the start of the input (empty when not
    /// recording).
    public var recorded: [UInt8] { recording ?? [] }

    // MARK: The current record

    /// How many fields the current record has.
    var fieldCount: Int { fields.fields.count }

    /// What field `index` holds.
    func kind(_ index: Int) -> FieldKind { fields.fields[index].kind }

    /// The bytes of field `index` (UTF-8, checked), valid until the next record is read.
    func withBytes<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let field = fields.fields[index]
        if field.isEscaped {
            return try fields.escaped.withUnsafeBufferPointer { all in
                try body(UnsafeBufferPointer(rebasing: all[field.start..<field.start + field.count]))
            }
        }
        return try body(UnsafeBufferPointer(start: storage + field.start, count: field.count))
    }

    /// The current record read in place, for a loop over its cells: `record` is valid only
    /// inside `body`.
    func withRecord<T, E: Error>(_ body: (_ record: Record) throws(E) -> T) throws(E) -> T {
        try fields.fields.withUnsafeBufferPointer { (fields) throws(E) -> T in
            try self.fields.escaped.withUnsafeBufferPointer { (escaped) throws(E) -> T in
                try body(Record(fields: fields, storage: UnsafePointer(storage), escaped: escaped))
            }
        }
    }

    /// A record's fields where they are (``withRecord(_:)``).
    struct Record {
        fileprivate let fields: UnsafeBufferPointer<Fields.Field>
        fileprivate let storage: UnsafePointer<UInt8>
        fileprivate let escaped: UnsafeBufferPointer<UInt8>

        var count: Int { fields.count }

        func kind(_ index: Int) -> FieldKind { fields[index].kind }

        /// The bytes of field `index` (UTF-8, checked).
        func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            let field = fields[index]
            if field.isEscaped { return UnsafeBufferPointer(rebasing: escaped[field.start..<field.start + field.count]) }
            return UnsafeBufferPointer(start: storage + field.start, count: field.count)
        }

        /// Field `index` as text: nil for an unquoted empty field.
        func string(_ index: Int) -> String? {
            kind(index) == .none ? nil : String(decoding: bytes(index), as: UTF8.self)
        }
    }

    /// Field `index` as text: nil for an unquoted empty field.
    func string(_ index: Int) -> String? {
        guard kind(index) != .none else { return nil }
        return withBytes(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The current record's fields as text (nil: unquoted and empty).
    var strings: [String?] { (0..<fieldCount).map(string) }

    // MARK: Reading

    /// Reads the next record (its fields are then the current record's); false at the end of
    /// the input.
    func next() throws(Failure) -> Bool {
        if !begun {
            begun = true
            try fill(atLeast: 3)
            if end - start >= 3 && storage[start] == 0xEF && storage[start + 1] == 0xBB && storage[start + 2] == 0xBF { start += 3 }
        }
        while true {
            switch try parseRecord() {
            case .record: return true
            case .blank: continue
            case .end: return false
            case .needMore:
                let before = end - start
                try fill(atLeast: before + 1)
                if end - start == before { endOfInput = true }
            }
        }
    }

    private enum Outcome { case record, blank, end, needMore }

    /// Parses the record at `start` if the buffer holds all of it (or the input has ended).
    private func parseRecord() throws(Failure) -> Outcome {
        // Locals, not properties, in the loops (see Fields).
        let storage = self.storage, end = self.end, endOfInput = self.endOfInput
        var i = self.start
        guard i < end else { return endOfInput ? .end : .needMore }
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        // A blank line: skipped.
        if storage[i] == lf || storage[i] == cr {
            if storage[i] == cr {
                if i + 1 == end && !endOfInput { return .needMore }
                if i + 1 < end && storage[i + 1] == lf { i += 1 }
            }
            self.start = i + 1
            line += 1
            return .blank
        }
        var fields = Fields()
        swap(&fields, &self.fields)
        defer { swap(&fields, &self.fields) }
        fields.removeAll()
        var currentLine = line
        while true {
            // One field, starting at i.
            let fieldLine = currentLine
            var nonASCII: UInt8 = 0
            if storage[i] == quote {
                let contentStart = i + 1
                i += 1
                var closing = -1
                var doubled = false
                while i < end {
                    let b = storage[i]
                    if b == quote {
                        if i + 1 == end && !endOfInput { return .needMore }
                        if i + 1 < end && storage[i + 1] == quote {
                            doubled = true
                            i += 2
                            continue
                        }
                        closing = i
                        i += 1
                        break
                    }
                    if b == lf { currentLine += 1 }
                    nonASCII |= b
                    i += 1
                }
                guard closing >= 0 else {
                    if !endOfInput { return .needMore }
                    throw Failure(line: fieldLine, message: "a quoted field starting on this line has no closing quote")
                }
                if i < end, storage[i] != comma, storage[i] != lf, storage[i] != cr {
                    throw Failure(line: currentLine, message: "unexpected character after a closing quote (a quote inside a quoted field is written \"\")")
                }
                if doubled {
                    // Its bytes with each doubled quote made one.
                    let from = fields.escaped.count
                    var k = contentStart
                    while k < closing {
                        fields.escaped.append(storage[k])
                        k += storage[k] == quote ? 2 : 1
                    }
                    try fields.escaped.withUnsafeBufferPointer { (escaped) throws(Failure) in
                        try Fields.check(UnsafeBufferPointer(rebasing: escaped[from...]), line: fieldLine, nonASCII: nonASCII)
                    }
                    fields.fields.append(Fields.Field(start: from, count: fields.escaped.count - from, kind: .quoted, isEscaped: true))
                } else {
                    try Fields.check(UnsafeBufferPointer(start: storage + contentStart, count: closing - contentStart), line: fieldLine, nonASCII: nonASCII)
                    fields.fields.append(Fields.Field(start: contentStart, count: closing - contentStart, kind: .quoted, isEscaped: false))
                }
            } else {
                var j = i
                // Most bytes are none of , \n \r " (all below 0x30): one comparison passes them.
                while j < end {
                    let b = storage[j]
                    if b < 0x30 {
                        if b == comma || b == lf || b == cr { break }
                        if b == quote {
                            throw Failure(line: currentLine, message: "a quote inside an unquoted field (quote the whole field, and write a quote in it as \"\")")
                        }
                    }
                    nonASCII |= b
                    j += 1
                }
                if j == end && !endOfInput { return .needMore }
                try Fields.check(UnsafeBufferPointer(start: storage + i, count: j - i), line: fieldLine, nonASCII: nonASCII)
                fields.fields.append(Fields.Field(start: i, count: j - i, kind: j == i ? .none : .plain, isEscaped: false))
                i = j
            }
            // After a field: a comma, the end of the record, or the end of the input.
            if i == end {
                guard endOfInput else { return .needMore }
                break
            }
            let b = storage[i]
            if b == comma {
                i += 1
                if i == end {
                    guard endOfInput else { return .needMore }
                    // A comma that ends the input: one more, empty field.
                    fields.fields.append(Fields.Field(start: i, count: 0, kind: .none, isEscaped: false))
                    break
                }
                continue
            }
            // A record separator: CRLF, LF or CR.
            if b == cr {
                if i + 1 == end && !endOfInput { return .needMore }
                if i + 1 < end && storage[i + 1] == lf { i += 1 }
            }
            i += 1
            currentLine += 1
            break
        }
        recordLine = line
        self.start = i
        line = currentLine
        return .record
    }

    /// Reads until the buffer holds `count` unconsumed bytes or the input ends; keeps the
    /// unconsumed bytes, moving them to the front (or into a larger buffer).
    private func fill(atLeast count: Int) throws(Failure) {
        guard !endOfInput else { return }
        if start > 0 {
            if end > start { (storage).update(from: storage + start, count: end - start) }
            end -= start
            bufferBase += start
            start = 0
        }
        if capacity < count || capacity - end < chunkSize / 2 {
            let newCapacity = max(capacity * 2, count, end + chunkSize)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            bigger.update(from: storage, count: end)
            storage.deallocate()
            storage = bigger
            capacity = newCapacity
        }
        while end < count {
            let n = read(fileDescriptor, storage + end, capacity - end)
            if n > 0 {
                recording?.append(contentsOf: UnsafeBufferPointer(start: storage + end, count: n))
                end += n
            } else if n == 0 {
                endOfInput = true
                return
            } else if errno != EINTR {
                throw Failure(line: line, message: "reading the input failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// How many lines into `bytes` (not valid UTF-8) the first invalid byte is.
    fileprivate static func invalidUTF8Line(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var newlines = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if scalar == "\n" { newlines += 1 }
            case .emptyInput, .error: return newlines
            }
        }
    }
}
