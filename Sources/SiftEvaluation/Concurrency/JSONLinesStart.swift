#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How JSON input read from a file descriptor starts, for the readers that split JSON Lines
/// over every core (`sift filter`, `sift import`): whether it can be cut into ``LineChunks``
/// (not a top-level array, whose elements are the records), and where a chunk is best cut.
package enum JSONLinesStart {
    /// The first bytes of the input: up to its first byte that is not whitespace (after a byte
    /// order mark), or all of it if it has none. Nil when reading fails (the one-thread reader
    /// then reads on and reports it).
    package static func readFirstBytes(_ descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return bytes.isEmpty ? nil : bytes
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: buffer[..<n])
            if firstValueByte(bytes) != nil { return bytes }
        }
    }

    /// The first byte of `bytes` that is not JSON whitespace, after a byte order mark.
    package static func firstValueByte(_ bytes: [UInt8]) -> UInt8? {
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return bytes[i]
            }
        }
        return nil
    }

    /// Whether a line starting with `byte` may start a top-level value (not an indented line,
    /// a closing bracket or a separator of a pretty-printed value): where chunks are best cut
    /// (``LineChunks``' `prefersCutBefore`).
    @Sendable package static func startsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"): false
        default: true
        }
    }
}
