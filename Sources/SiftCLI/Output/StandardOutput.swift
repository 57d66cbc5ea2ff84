#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered bytes to standard output: results are written in large blocks (or line by line
/// when standard output is a terminal, so results show as they are found).
final class StandardOutput {
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    private let interactive: Bool
    /// Whether anything was written and the last byte was not a newline.
    private var lineIsOpen = false

    init() {
        buffer.reserveCapacity(capacity)
        interactive = isatty(STDOUT_FILENO) != 0
    }

    deinit { flush() }

    func write(_ bytes: [UInt8]) {
        guard let last = bytes.last else { return }
        buffer.append(contentsOf: bytes)
        lineIsOpen = last != 0x0A
        if buffer.count >= capacity { flush() }
    }

    func write(_ text: String) {
        guard let last = text.utf8.last else { return }
        buffer.append(contentsOf: text.utf8)
        lineIsOpen = last != 0x0A
        if buffer.count >= capacity { flush() }
    }

    func write(byte: UInt8) {
        buffer.append(byte)
        lineIsOpen = byte != 0x0A
    }

    /// Ends the last line (output cut short by an error stays as it is, but on its own lines).
    func endLine() {
        if lineIsOpen { write(byte: 0x0A) }
    }

    /// The end of a result: flushes when a person is watching.
    func endOfResult() {
        if interactive || buffer.count >= capacity { flush() }
    }

    func flush() {
        var written = 0
        buffer.withUnsafeBytes { bytes in
            while written < bytes.count {
                let n = writeToStandardOutput(bytes.baseAddress! + written, bytes.count - written)
                if n > 0 {
                    written += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return  // a closed pipe: SIGPIPE ends the process as for other tools
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `write(2)` on standard output (outside the class, whose `write` methods would shadow it).
private func writeToStandardOutput(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(STDOUT_FILENO, bytes, count)
}
