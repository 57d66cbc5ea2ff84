/// Passing Swift strings to SQLite as UTF-8 with an explicit length.
enum SQLiteText {
    /// Calls `body` with the UTF-8 bytes of `s` (NUL characters included). The base address is
    /// never nil, even for "": SQLite reads a nil text pointer as NULL.
    static func withUTF8<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var s = s
        return s.withUTF8 { bytes in
            if bytes.baseAddress != nil { return body(bytes) }
            return withUnsafeBytes(of: UInt8(0)) { empty in
                body(UnsafeBufferPointer(start: empty.bindMemory(to: UInt8.self).baseAddress, count: 0))
            }
        }
    }
}
