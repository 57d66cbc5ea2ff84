/// `StringFolding`'s results for every scalar below U+0300 (ASCII, Latin-1, Latin Extended A/B,
/// IPA), under `[c]`, `[d]` and `[cd]`, computed once from the general algorithm.
///
/// Text made only of such scalars (every UTF-8 byte below 0xCC) folds scalar by scalar through
/// this table, with no normalisation: such text is NFC and NFD-decomposes scalar by scalar (every
/// scalar below U+0300 is a starter), and the folded pieces never compose or reorder across their
/// boundaries — `LatinFoldTableTests` checks that against the general algorithm for every pair.
struct LatinFoldTable: @unchecked Sendable {
    /// Scalars covered: U+0000 ..< U+0300.
    static let limit = 0x300

    /// The folded UTF-8 of scalar `s` under mode `m` is `bytes[offsets[m * limit + s] ..< offsets[m * limit + s + 1]]`.
    private let offsets: UnsafeMutableBufferPointer<UInt16>
    private let bytes: UnsafeMutableBufferPointer<UInt8>

    static let shared = LatinFoldTable()

    /// 0: `[c]`, 1: `[d]`, 2: `[cd]`.
    @inline(__always)
    static func mode(caseFold: Bool, stripMarks: Bool) -> Int {
        caseFold ? (stripMarks ? 2 : 0) : 1
    }

    private init() {
        var offsets: [UInt16] = [0]
        var bytes: [UInt8] = []
        for mode in 0..<3 {
            for value in 0..<Self.limit {
                let s = String(Unicode.Scalar(UInt32(value))!)
                bytes += StringFolding.foldUnicode(s, caseFold: mode != 1, stripMarks: mode != 0).utf8
                offsets.append(UInt16(bytes.count))
            }
        }
        self.offsets = .allocate(capacity: offsets.count)
        _ = self.offsets.initialize(from: offsets)
        self.bytes = .allocate(capacity: bytes.count)
        _ = self.bytes.initialize(from: bytes)
    }

    /// Calls `body` with each scalar's folded UTF-8, for UTF-8 text whose bytes are all below 0xCC.
    @inline(__always)
    func forEachFolded(_ text: UnsafeBufferPointer<UInt8>, mode: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var i = 0
        while i < text.count {
            let (scalar, next) = Self.scalar(in: text, at: i)
            body(folded(scalar, mode: mode))
            i = next
        }
    }

    /// The scalar whose UTF-8 starts at `i` in text whose bytes there are below 0xCC (one byte,
    /// or a two-byte sequence with lead byte C2...CB), and where the next one starts.
    @inline(__always)
    static func scalar(in text: UnsafeBufferPointer<UInt8>, at i: Int) -> (scalar: Int, next: Int) {
        let b0 = text[i]
        if b0 < 0x80 { return (Int(b0), i + 1) }
        return (Int(b0 & 0x1F) << 6 | Int(text[i + 1] & 0x3F), i + 2)
    }

    /// The folded UTF-8 of a scalar below U+0300 under `mode`.
    @inline(__always)
    func folded(_ scalar: Int, mode: Int) -> UnsafeBufferPointer<UInt8> {
        let at = mode * Self.limit + scalar
        return UnsafeBufferPointer(rebasing: bytes[Int(offsets[at])..<Int(offsets[at + 1])])
    }

    /// The folded length in bytes.
    func foldedCount(_ text: UnsafeBufferPointer<UInt8>, mode: Int) -> Int {
        var count = 0
        forEachFolded(text, mode: mode) { count += $0.count }
        return count
    }

    /// Writes the folded text into `destination` (exactly `foldedCount` bytes long).
    func fold(_ text: UnsafeBufferPointer<UInt8>, mode: Int, into destination: UnsafeMutableBufferPointer<UInt8>) {
        var at = 0
        forEachFolded(text, mode: mode) { piece in
            for b in piece {
                destination[at] = b
                at += 1
            }
        }
    }
}
