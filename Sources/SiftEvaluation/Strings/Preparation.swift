@_spi(_Unicode) import Swift
import SiftLanguage

/// How a string operation reads its operands, from the options (LANGUAGE.md §3, §4):
/// - `literal` (`[n]`, which wins over `[c]`/`[d]`): the bytes as they are — a speed promise that
///   both sides are already normalised.
/// - `nfc` (no folding option; `[l]` alone changes nothing): the NFC form, so canonically
///   equivalent strings are equal.
/// - `fold`: `StringFolding`'s result (which is NFC).
enum Preparation: Sendable, Hashable {
    case literal
    case nfc
    case fold(caseFold: Bool, stripMarks: Bool)

    init(_ options: ComparisonOptions) {
        if options.contains(.normalized) { self = .literal; return }
        let c = options.contains(.caseInsensitive)
        let d = options.contains(.diacriticInsensitive)
        self = c || d ? .fold(caseFold: c, stripMarks: d) : .nfc
    }

    /// The prepared form as a string.
    func apply(_ s: String) -> String {
        switch self {
        case .literal: return s
        case .nfc: return StringFolding.nfc(s)
        case let .fold(c, d): return StringFolding.fold(s, caseFold: c, stripMarks: d)
        }
    }

    /// Calls `body` with the UTF-8 bytes of the prepared form, without allocating when the string
    /// is ASCII (or below U+0300: Latin text folds through `LatinFoldTable`; for `nfc`, also when
    /// it passes the NFC quick check): the bytes in place, or ASCII lower-cased into a
    /// temporary (stack) buffer for `[c]`. Only non-ASCII text that needs work builds a new string.
    @inline(__always)
    func withUTF8<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        UTF8Bytes.with(s) { bytes in
            switch self {
            case .literal:
                return body(bytes)
            case .nfc:
                if UTF8Bytes.maxByte(bytes) < UTF8Bytes.trivialNFCLimit || StringFolding.isQuickNFC(s) { return body(bytes) }
                return s._nfcCodeUnits.withUnsafeBufferPointer(body)
            case let .fold(caseFold, stripMarks):
                let top = UTF8Bytes.maxByte(bytes)
                if top < 0x80 {
                    if !caseFold || !UTF8Bytes.hasUppercaseASCII(bytes) { return body(bytes) }
                    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer in
                        UTF8Bytes.lowercaseASCII(bytes, into: buffer)
                        return body(UnsafeBufferPointer(buffer))
                    }
                }
                if top < UTF8Bytes.trivialNFCLimit {
                    let table = LatinFoldTable.shared
                    let mode = LatinFoldTable.mode(caseFold: caseFold, stripMarks: stripMarks)
                    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: table.foldedCount(bytes, mode: mode)) { buffer in
                        table.fold(bytes, mode: mode, into: buffer)
                        return body(UnsafeBufferPointer(buffer))
                    }
                }
                let folded = StringFolding.foldUnicode(s, caseFold: caseFold, stripMarks: stripMarks)
                return UTF8Bytes.with(folded, body)
            }
        }
    }
}
