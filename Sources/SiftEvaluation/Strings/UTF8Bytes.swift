#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level helpers on UTF-8 text, the common ground of every string operation here.
///
/// Everything in `Strings/` ends up comparing UTF-8 bytes: on valid UTF-8, byte order is Unicode
/// scalar (code point) order, a byte prefix/suffix/substring is a scalar prefix/suffix/substring
/// (UTF-8 is self-synchronising), and the SQL engine, which stores NFC text, sees the same bytes.
enum UTF8Bytes {
    /// Calls `body` with the string's UTF-8 bytes, in place when the string is contiguous
    /// (every native Swift string is), otherwise from a contiguous copy.
    @inline(__always)
    static func with<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = string
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable(body)!
    }

    /// The largest byte (0 when empty). `< 0x80`: ASCII. `< 0xCC`: every scalar is below U+0300,
    /// and such text is always NFC (no scalar below U+0300 decomposes or combines with a
    /// neighbour below U+0300) — the fast path that skips normalisation for Latin-1 text.
    @inline(__always)
    static func maxByte(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var m: UInt8 = 0
        for b in bytes { m = max(m, b) }
        return m
    }

    /// Bytes below this are all scalars below U+0300: text made of them is NFC as it is.
    static let trivialNFCLimit: UInt8 = 0xCC

    @inline(__always)
    static func hasUppercaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where b &- 0x41 < 26 { return true }
        return false
    }

    @inline(__always)
    static func lowercasedASCII(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// Copies `source` into `destination`, lower-casing ASCII letters (other bytes unchanged).
    @inline(__always)
    static func lowercaseASCII(_ source: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutableBufferPointer<UInt8>) {
        for i in source.indices { destination[i] = lowercasedASCII(source[i]) }
    }

    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// -1, 0 or 1: lexicographic byte order, a proper prefix first (= code-point order on UTF-8).
    @inline(__always)
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let r = memcmp(a.baseAddress!, b.baseAddress!, common)
            if r != 0 { return r < 0 ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    @inline(__always)
    static func hasPrefix(_ s: UnsafeBufferPointer<UInt8>, _ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        prefix.count <= s.count && (prefix.count == 0 || memcmp(s.baseAddress!, prefix.baseAddress!, prefix.count) == 0)
    }

    @inline(__always)
    static func hasSuffix(_ s: UnsafeBufferPointer<UInt8>, _ suffix: UnsafeBufferPointer<UInt8>) -> Bool {
        suffix.count <= s.count
            && (suffix.count == 0 || memcmp(s.baseAddress! + (s.count - suffix.count), suffix.baseAddress!, suffix.count) == 0)
    }

    /// Whether `needle` occurs in `haystack` (an empty needle always does here, as bytes;
    /// `StringPredicates` answers the language's empty needle before it asks): memchr for the
    /// needle's first byte, memcmp for the rest. Worst case haystack × needle on repetitive text.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        if needle.count == 0 { return true }
        if needle.count > haystack.count { return false }
        let h = haystack.baseAddress!
        let n = needle.baseAddress!
        let first = Int32(n[0])
        let last = haystack.count - needle.count  // last possible start
        var i = 0
        while i <= last {
            guard let hit = memchr(h + i, first, last - i + 1) else { return false }
            let at = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - h
            if memcmp(h + at + 1, n + 1, needle.count - 1) == 0 { return true }
            i = at + 1
        }
        return false
    }
}
