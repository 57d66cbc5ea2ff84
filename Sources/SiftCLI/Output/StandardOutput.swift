#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered bytes to standard output (or another file descriptor, or a collector: the REPL's
/// `.output FILE`, the tests' transcripts): results are written in large blocks, or line by
/// line when a terminal shows them, so results show as they are found.
final class StandardOutput {
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    /// Whether a terminal shows the output.
    let interactive: Bool
    private let descriptor: Int32
    /// Receives the bytes instead of a file descriptor.
    private let collector: ((String) -> Void)?
    /// Whether anything was written and the last byte was not a newline.
    private var lineIsOpen = false

    init(descriptor: Int32 = STDOUT_FILENO) {
        buffer.reserveCapacity(capacity)
        self.descriptor = descriptor
        self.collector = nil
        interactive = isatty(descriptor) != 0
    }

    /// Output handed to `collector` (as text) at every flush; `interactive` says whether to
    /// flush at the end of every result, as for a terminal.
    init(collector: @escaping (String) -> Void, interactive: Bool = false) {
        self.descriptor = -1
        self.collector = collector
        self.interactive = interactive
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
        if let collector {
            if !buffer.isEmpty { collector(String(decoding: buffer, as: UTF8.self)) }
            buffer.removeAll(keepingCapacity: true)
            return
        }
        var written = 0
        buffer.withUnsafeBytes { bytes in
            while written < bytes.count {
                guard let base = bytes.baseAddress else { return }
                let n = writeToDescriptor(descriptor, base + written, bytes.count - written)
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

/// `write(2)` (outside the class, whose `write` methods would shadow it).
private func writeToDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
