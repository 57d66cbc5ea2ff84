/// Turns byte offsets into 1-based lines and columns (columns count characters).
enum JSONTextPosition {
    /// The line and column of `offset` in `bytes` (the whole text).
    static func lineAndColumn(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let end = max(0, min(offset, bytes.count))
        var line = 1
        var lineStart = 0
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, characterCount(UnsafeBufferPointer(rebasing: bytes[lineStart..<end])) + 1)
    }

    /// Characters (grapheme clusters) in UTF-8 bytes.
    static func characterCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // ASCII (the usual case) is one character per byte, except CR LF, which is one.
        var ascii = true
        for b in bytes where b >= 0x80 || b == 0x0D {
            ascii = false
            break
        }
        if ascii { return bytes.count }
        return String(decoding: bytes, as: UTF8.self).count
    }

    /// Unicode scalars in UTF-8 bytes (bytes that are not continuation bytes).
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for b in bytes where b & 0xC0 != 0x80 { count += 1 }
        return count
    }
}
