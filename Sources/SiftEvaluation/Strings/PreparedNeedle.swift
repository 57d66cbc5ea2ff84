import SiftLanguage

/// A string test's constant right-hand side (`name BEGINSWITH[cd] "st"`, `name ==[c] "ann"`),
/// prepared once for many texts: its prepared bytes (see `Preparation`), so that each
/// evaluation prepares only the text. The answers are exactly `StringPredicates`': the needle's
/// prepared form is a function of the needle and the options alone, and the ASCII shortcut
/// below compares the same lower-cased bytes `Preparation.withUTF8` would give.
///
/// A class: a comparison reaches it through an optional, and copying a struct of a string and an
/// array out of one on every evaluation cost more than the test (a retain here instead). The
/// prepared bytes are its own buffer, so that a test reads them without retaining an array.
/// `@unchecked Sendable`: nothing changes after `init`.
final class PreparedNeedle: @unchecked Sendable {
    enum Operation: Sendable { case equals, beginsWith, endsWith, contains }

    let operation: Operation
    let preparation: Preparation
    /// The needle as written (`==` without options compares strings as Swift does).
    let needle: String
    /// The needle's prepared UTF-8 bytes (allocated here, freed in `deinit`).
    private let prepared: UnsafeMutableBufferPointer<UInt8>
    /// Whether every byte is ASCII (then a `[c]` test on ASCII text lower-cases on the fly).
    let isASCII: Bool
    /// Whether the preparation folds case (so ASCII text prepares to its lower-cased bytes).
    private let foldsCase: Bool

    init(_ operation: Operation, _ needle: String, options: ComparisonOptions) {
        self.operation = operation
        self.preparation = Preparation(options)
        self.needle = needle
        let bytes = preparation.withUTF8(needle) { Array($0) }
        prepared = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = prepared.initialize(from: bytes)
        self.isASCII = bytes.allSatisfy { $0 < 0x80 }
        if case .fold(caseFold: true, stripMarks: _) = preparation { foldsCase = true } else { foldsCase = false }
    }

    deinit { prepared.deallocate() }

    /// `text <operation> needle`, as `StringPredicates` answers it.
    func matches(_ text: String) -> Bool {
        if operation == .equals, preparation == .nfc { return text == needle }
        let y = UnsafeBufferPointer(prepared)
        // An empty needle never matches (LANGUAGE.md §4), nor one that prepares to empty.
        if operation != .equals, needle.isEmpty || y.isEmpty { return false }
        if isASCII, foldsCase, let answer = UTF8Bytes.with(text, { x in Self.asciiCaseless(operation, x, y) }) {
            return answer
        }
        if operation == .beginsWith, case .fold(let caseFold, let stripMarks) = preparation,
           let answer = UTF8Bytes.with(text, { x in Self.latinPrefix(x, y, mode: LatinFoldTable.mode(caseFold: caseFold, stripMarks: stripMarks)) }) {
            return answer
        }
        return preparation.withUTF8(text) { x in
            switch operation {
            case .equals: UTF8Bytes.equal(x, y)
            case .beginsWith: UTF8Bytes.hasPrefix(x, y)
            case .endsWith: UTF8Bytes.hasSuffix(x, y)
            case .contains: UTF8Bytes.contains(x, y)
            }
        }
    }

    /// `operation` with an ASCII needle already lower-cased (folded), on text whose folded form
    /// is decided by its ASCII bytes: the text's letters are lower-cased as they are compared.
    /// Nil when the text must be prepared first.
    ///
    /// ASCII text folds to its lower-cased bytes. For `BEGINSWITH`, only the needle's length of
    /// text and the byte after it need be ASCII: an ASCII character is never a combining mark,
    /// so the text before it folds on its own, whatever follows.
    @inline(__always)
    private static func asciiCaseless(_ operation: Operation, _ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool? {
        if operation == .beginsWith, y.count < x.count {
            for i in 0...y.count where x[i] >= 0x80 { return nil }
            return asciiCaseless(operation, ascii: x, y)
        }
        return UTF8Bytes.maxByte(x) < 0x80 ? asciiCaseless(operation, ascii: x, y) : nil
    }

    /// Whether text folded under `mode` begins with the folded needle `y`, decided on as much of
    /// the text as the needle needs when that part is below U+0300 (Latin text): such scalars
    /// fold one by one through ``LatinFoldTable``, and a scalar below U+0300 is a starter, so
    /// the text before it folds on its own whatever follows. So the answer is decided once the
    /// scalars read fold to the needle's length, or differ from it, and the next scalar (if
    /// any) is below U+0300. Nil otherwise: the text must be folded whole.
    @inline(__always)
    private static func latinPrefix(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, mode: Int) -> Bool? {
        let table = LatinFoldTable.shared
        var i = 0, k = 0
        while i < x.count {
            guard x[i] < UTF8Bytes.trivialNFCLimit else { return nil }
            let (scalar, next) = LatinFoldTable.scalar(in: x, at: i)
            var differs = false
            for b in table.folded(scalar, mode: mode) where k < y.count {
                if b != y[k] { differs = true; break }
                k += 1
            }
            i = next
            if differs || k == y.count {
                guard i == x.count || x[i] < UTF8Bytes.trivialNFCLimit else { return nil }
                return !differs
            }
        }
        return false  // the whole text folds to less than the needle
    }

    /// `operation` on ASCII text (for `BEGINSWITH`, text whose needle's length is ASCII and
    /// followed by ASCII) and an ASCII needle already lower-cased (folded): the text's letters
    /// are lower-cased as they are compared.
    @inline(__always)
    private static func asciiCaseless(_ operation: Operation, ascii x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        @inline(__always) func same(from start: Int) -> Bool {
            for k in 0..<y.count where UTF8Bytes.lowercasedASCII(x[start + k]) != y[k] { return false }
            return true
        }
        switch operation {
        case .equals: return x.count == y.count && same(from: 0)
        case .beginsWith: return y.count <= x.count && same(from: 0)
        case .endsWith: return y.count <= x.count && same(from: x.count - y.count)
        case .contains:
            guard y.count <= x.count else { return false }
            for start in 0...(x.count - y.count) where same(from: start) { return true }
            return false
        }
    }
}
