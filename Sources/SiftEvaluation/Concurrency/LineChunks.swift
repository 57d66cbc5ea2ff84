#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts what a file descriptor reads into chunks of about `chunkBytes` at line boundaries: each
/// chunk but the last ends with a newline, and a line longer than a chunk is one chunk. For
/// ``OrderedPipeline``'s producer: the chunks, in order, joined, are the input.
///
/// A chunk is cut after the last newline of the bytes read whose next byte `prefersCutBefore`
/// accepts (JSON Lines: a line that starts a value, not an indented line of a pretty-printed
/// one), after the last newline if none does. When the input is a pipe with nothing more to read
/// for now, the lines read so far are a chunk at once (as a reader of one record at a time would
/// have printed them), so a slow writer's records are not held back.
package final class LineChunks: @unchecked Sendable {
    /// One chunk: its bytes, or the error that ended reading (after the chunks before it).
    package enum Chunk: Sendable {
        case bytes([UInt8], isFirst: Bool, isLast: Bool)
        case failed(String)
    }

    private let fileDescriptor: Int32
    private let chunkBytes: Int
    private let prefersCutBefore: @Sendable (UInt8) -> Bool
    /// Read and not yet in a chunk.
    private var pending: [UInt8]
    private var endOfInput = false
    private var finished = false
    /// A read that failed after the last chunk was cut: the next chunk.
    private var readError: String?
    /// Whether a chunk was made yet.
    private var started = false
    /// The index of the last newline in `pending`.
    private var lastNewline: Int?

    /// - Parameters:
    ///   - readAlready: the input's first bytes, read before (they start the first chunk).
    package init(fileDescriptor: Int32, chunkBytes: Int, readAlready: [UInt8] = [],
                 prefersCutBefore: @escaping @Sendable (UInt8) -> Bool = { _ in true }) {
        self.fileDescriptor = fileDescriptor
        self.chunkBytes = max(1, chunkBytes)
        self.pending = readAlready
        self.prefersCutBefore = prefersCutBefore
        lastNewline = readAlready.lastIndex(of: 0x0A)
    }

    /// The next chunk; nil after the last. Called by one thread at a time.
    package func next() -> Chunk? {
        guard !finished else { return nil }
        if let readError {
            finished = true
            return .failed(readError)
        }
        // Read up to a chunk's worth, then on until a newline (a line longer than a chunk); from
        // a pipe that has nothing more for now, the whole lines read so far.
        var idle = false
        while !endOfInput {
            if pending.count >= chunkBytes && lastNewline != nil { break }
            if lastNewline != nil && !moreIsReady() {
                idle = true
                break
            }
            if let error = readMore() {
                finished = true
                return .failed(error)
            }
        }
        if endOfInput && (pending.count <= chunkBytes || lastNewline == nil) {
            finished = true
            if pending.isEmpty { return nil }
            let last = pending
            pending = []
            defer { started = true }
            return .bytes(last, isFirst: !started, isLast: true)
        }
        let cut = idle ? lastNewline! + 1 : cutPoint()
        // The chunk keeps `pending`'s buffer (no copy of its megabyte); what follows the cut (part
        // of a line, mostly) starts the next.
        var chunk = pending
        pending = Array(chunk[cut...])
        chunk.removeLast(chunk.count - cut)
        if let newline = lastNewline { lastNewline = newline >= cut ? newline - cut : nil }
        // Whether the input ends with this cut: read on to know, where a read returns at once.
        if pending.isEmpty && !endOfInput && moreIsReady() { readError = readMore() }
        let isLast = endOfInput && pending.isEmpty && readError == nil
        if isLast { finished = true }
        defer { started = true }
        return .bytes(chunk, isFirst: !started, isLast: isLast)
    }

    /// Where to cut `pending` (which has a newline): after the last newline followed by a byte
    /// `prefersCutBefore` accepts, within a chunk's length if one is; else after the last newline
    /// within a chunk's length; else after the first newline.
    private func cutPoint() -> Int {
        let limit = min(pending.count, chunkBytes)
        return pending.withUnsafeBufferPointer { bytes -> Int in
            var anyNewline: Int? = nil
            var i = limit - 1
            while i >= 0 {
                if bytes[i] == 0x0A {
                    if anyNewline == nil { anyNewline = i + 1 }
                    // The byte after it must have been read to be judged.
                    if i + 1 < bytes.count && prefersCutBefore(bytes[i + 1]) { return i + 1 }
                }
                i -= 1
            }
            if let anyNewline { return anyNewline }
            // The first newline past a chunk's length (a long line).
            var j = limit
            while j < bytes.count && bytes[j] != 0x0A { j += 1 }
            return min(j + 1, bytes.count)
        }
    }

    /// Where `read` puts its bytes before they join `pending` (made once: a pipe gives 64 KiB a
    /// read, and zero-filling a chunk's length of `pending` for each cost more than the input).
    private var readBuffer: [UInt8] = []

    /// Reads once into `pending`; the system's message on failure.
    private func readMore() -> String? {
        let old = pending.count
        let outcome: ReadOutcome
        // After a cut `pending` holds part of a line: a new buffer starts with it and is read
        // into up to a chunk's length where it lies, so a file's chunk is one read and no copy
        // (from a pipe, 64 KiB a read, the reads after the first few are copied as below).
        if old <= 1 << 17 {
            let size = max(chunkBytes - old, 1 << 16)
            var read = ReadOutcome.endOfInput
            let fresh = [UInt8](unsafeUninitializedCapacity: old + size) { buffer, count in
                if old > 0 {
                    _ = pending.withUnsafeBufferPointer { buffer.initialize(fromContentsOf: $0) }
                }
                read = readOnce(into: buffer.baseAddress! + old, size)
                if case .bytes(let n) = read { count = old + n } else { count = old }
            }
            pending = fresh
            outcome = read
        } else {
            let want = max(chunkBytes, 1 << 16)
            if readBuffer.count < want { readBuffer = [UInt8](repeating: 0, count: want) }
            outcome = readBuffer.withUnsafeMutableBufferPointer { readOnce(into: $0.baseAddress!, want) }
            if case .bytes(let n) = outcome {
                readBuffer.withUnsafeBufferPointer { pending.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<n])) }
            }
        }
        switch outcome {
        case .bytes:
            if let newline = pending[old...].lastIndex(of: 0x0A) { lastNewline = newline }
            return nil
        case .endOfInput:
            endOfInput = true
            return nil
        case .failed(let code):
            return String(cString: strerror(code))
        }
    }

    /// What one `read` of the input gave.
    private enum ReadOutcome {
        case bytes(Int)
        case endOfInput
        case failed(Int32)
    }

    /// Reads up to `size` bytes into `buffer`, again when a signal interrupts the read.
    private func readOnce(into buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> ReadOutcome {
        while true {
            let n = read(fileDescriptor, buffer, size)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .endOfInput }
            let code = errno
            if code != EINTR { return .failed(code) }
        }
    }

    /// Whether a read would return at once (a regular file always; a pipe with bytes waiting).
    private func moreIsReady() -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// How many newlines `bytes` has (a chunk's lines, for the line numbers of the chunks after it).
    package static func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        var from = base
        let end = base + bytes.count
        while from < end, let found = memchr(from, 0x0A, end - from) {
            count += 1
            from = UnsafeRawPointer(found) + 1
        }
        return count
    }
}
