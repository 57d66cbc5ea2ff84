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

    /// Whether the character ending just before `cut` and the one starting at it are one
    /// character (`e` and a combining accent, CR and LF, an emoji and a modifier), judged from
    /// a few scalars on each side; `from` is where the bytes before the cut start. Both sides
    /// are ASCII in almost every input, and then they never join (but for CR LF).
    static func joins(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, at cut: Int) -> Bool {
        guard from < cut, cut < bytes.count else { return false }
        if bytes[cut - 1] < 0x80 && bytes[cut] < 0x80 { return bytes[cut - 1] == 0x0D && bytes[cut] == 0x0A }
        let window = 32
        var tailStart = max(from, cut - window)
        while tailStart < cut, bytes[tailStart] & 0xC0 == 0x80 { tailStart += 1 }
        var headEnd = min(bytes.count, cut + window)
        while headEnd > cut, headEnd < bytes.count, bytes[headEnd] & 0xC0 == 0x80 { headEnd -= 1 }
        guard tailStart < cut, headEnd > cut else { return false }
        let tail = characterCount(UnsafeBufferPointer(rebasing: bytes[tailStart..<cut]))
        let head = characterCount(UnsafeBufferPointer(rebasing: bytes[cut..<headEnd]))
        return characterCount(UnsafeBufferPointer(rebasing: bytes[tailStart..<headEnd])) < tail + head
    }
}
