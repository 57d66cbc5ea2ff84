#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Sift

/// Standard input read as import data (`sift import ... -`): its start is read first, to tell
/// the format, and then either the rest is read into memory after it, or the whole stream
/// (start and rest) is handed on to be read a record at a time.
final class StandardInput {
    /// The bytes read so far.
    private(set) var head: [UInt8] = []
    /// Whether the input has ended.
    private(set) var atEnd = false
    let descriptor: Int32

    init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    /// Reads until the head holds a line with something on it, the input ends, or `limit`
    /// bytes are in.
    func readFirstLine(limit: Int = 1 << 20) throws(StoreError) {
        var searched = 0
        while !atEnd, head.count < limit {
            try readChunk(max: limit - head.count)
            if let start = head[searched...].firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
               head[start...].contains(0x0A) {
                return
            }
            searched = head.count
        }
    }

    /// Takes `bytes` as what has been read so far: the input from its start, read by another
    /// reader (a CSV reader's ``CSVReader/recorded`` sample), which the descriptor goes on from.
    func replaceHead(with bytes: [UInt8]) {
        head = bytes
    }

    /// A CSV reader of the whole input, the head first.
    func csvReader() -> CSVReader {
        CSVReader(prefix: head, fileDescriptor: descriptor)
    }

    /// The whole input, read into memory, or nil when it holds more than `limit` bytes.
    func readAll(limit: Int) throws(StoreError) -> Data? {
        while !atEnd {
            guard head.count <= limit else { return nil }
            try readChunk(max: 1 << 20)
        }
        return head.count <= limit ? Data(head) : nil
    }

    /// A handle reading the whole input, the head first: a thread writes the head and then
    /// the rest of the input into a pipe the handle reads.
    func stream() -> FileHandle {
        if head.isEmpty && !atEnd { return FileHandle(fileDescriptor: descriptor, closeOnDealloc: false) }
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let source = descriptor
        let start = head
        let ended = atEnd
        let thread = Thread {
            // A reader that stops early (an error on line 2) makes the writes fail with EPIPE
            // instead of ending the process.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &set, nil)
            defer { try? writer.close() }
            guard (try? writer.write(contentsOf: start)) != nil, !ended else { return }
            let size = 1 << 20
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
            defer { buffer.deallocate() }
            while true {
                let count = read(source, buffer, size)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                guard (try? writer.write(contentsOf: Data(bytes: buffer, count: count))) != nil else { return }
            }
        }
        thread.start()
        return pipe.fileHandleForReading
    }

    private func readChunk(max: Int) throws(StoreError) {
        let size = Swift.max(1, Swift.min(max, 1 << 20))
        var buffer = [UInt8](repeating: 0, count: size)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, size) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError(.fileSystem, "cannot read standard input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { atEnd = true } else { head.append(contentsOf: buffer[..<count]) }
            return
        }
    }
}
