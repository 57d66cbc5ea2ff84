/// JSON text without its insignificant whitespace: everything else (number spellings, escapes,
/// key order) stays as written. Used to put a pretty-printed record on one line.
public enum JSONCompaction {
    /// Whether `text` has a line break (outside strings, where JSON allows only escaped ones).
    public static func containsLineBreak(_ text: [UInt8]) -> Bool {
        text.contains(0x0A) || text.contains(0x0D)
    }

    /// `text` with whitespace outside strings removed. `text` is valid JSON.
    public static func compacted(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var inString = false
        var escaped = false
        for b in text {
            if inString {
                out.append(b)
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if b == UInt8(ascii: "\"") {
                inString = true
                out.append(b)
            } else if !JSONScanner.isWhitespace(b) {
                out.append(b)
            }
        }
        return out
    }
}
