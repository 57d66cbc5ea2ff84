import SiftLanguage

/// The string comparison operators (`== < BEGINSWITH ENDSWITH CONTAINS` with `[c] [d] [n]`,
/// LANGUAGE.md §3–§4) on two strings, with the options already known. Pure, deterministic and
/// locale-independent: the SQL engine registers these very functions into SQLite.
///
/// Both operands are prepared the same way (see `Preparation`): as they are under `[n]`, NFC
/// without options, `StringFolding`'s NFC result under `[c]`/`[d]`. The prepared forms are then
/// compared **Unicode scalar by Unicode scalar** (equivalently, UTF-8 byte by byte), not
/// Character by Character: so `"é" BEGINSWITH "e"` is false (NFC "é" is the single scalar U+00E9)
/// unless `[d]` removes the accent, and `"e\u{301}" == "é"` is true (same NFC). A prefix, suffix
/// or substring may end inside a grapheme cluster when the text has marks that do not compose
/// (`"ẹ́" BEGINSWITH "ẹ"` is true) — this is the same answer SQLite's byte operations give on the
/// NFC text the SQL engine stores.
///
/// An empty needle never matches (LANGUAGE.md §4, as in Apple's Foundation, whose substring
/// search finds nothing for `""`): no string — `""` included — BEGINSWITH, ENDSWITH or CONTAINS
/// `""`, under any options. "Empty" is judged on the **prepared** needle, the form the search
/// runs on: a needle that `[d]` folds away entirely (a lone combining mark, `"\u{301}"`) is
/// empty too, so `"café" ENDSWITH[d] "\u{301}"` is false. (Foundation's diacritic-insensitive
/// search compares such a needle with the text's marks one by one, so what it finds depends on
/// how the text happens to be composed; with nothing left to search for after folding, Sift
/// finds nothing, on every representation alike.) The SQL engine calls these same functions,
/// and compiles a constant needle that prepares to empty as false.
public enum StringPredicates {
    /// `a == b` (after preparation).
    public static func equals(_ a: String, _ b: String, options: ComparisonOptions = []) -> Bool {
        let p = Preparation(options)
        // Swift's String == is canonical equivalence, which is exactly "equal NFC forms", and has
        // fast paths of its own.
        if p == .nfc { return a == b }
        return evaluate(.equals, a, b, p) != 0
    }

    /// -1, 0 or 1: code-point (Unicode scalar) order of the prepared strings, a proper prefix
    /// first. `"B" < "a"`; canonically equivalent strings are equal.
    public static func compare(_ a: String, _ b: String, options: ComparisonOptions = []) -> Int {
        evaluate(.compare, a, b, Preparation(options))
    }

    /// `string BEGINSWITH prefix` (false when the prepared prefix is empty).
    public static func beginsWith(_ string: String, _ prefix: String, options: ComparisonOptions = []) -> Bool {
        evaluate(.beginsWith, string, prefix, Preparation(options)) != 0
    }

    /// `string ENDSWITH suffix` (false when the prepared suffix is empty).
    public static func endsWith(_ string: String, _ suffix: String, options: ComparisonOptions = []) -> Bool {
        evaluate(.endsWith, string, suffix, Preparation(options)) != 0
    }

    /// `string CONTAINS substring` (also `substring IN string`; false when the prepared
    /// substring is empty).
    public static func contains(_ string: String, _ substring: String, options: ComparisonOptions = []) -> Bool {
        evaluate(.contains, string, substring, Preparation(options)) != 0
    }

    /// The text as these tests compare it under `options`: folded under `[c]`/`[d]`, NFC without
    /// options, as it is under `[n]`. (What the SQL compiler binds for a constant.)
    package static func prepared(_ s: String, options: ComparisonOptions) -> String {
        Preparation(options).apply(s)
    }

    enum Operation { case equals, compare, beginsWith, endsWith, contains }

    /// Whether `needle`, prepared with `options`, is empty: the needle no search matches.
    /// (The SQL compiler asks it of a constant needle, to compile the test as false.)
    public static func isEmptyNeedle(_ needle: String, options: ComparisonOptions = []) -> Bool {
        needle.isEmpty || Preparation(options).withUTF8(needle) { $0.isEmpty }
    }

    /// The operation on the prepared forms: a Bool as 0/1, or the order for `compare`.
    static func evaluate(_ op: Operation, _ a: String, _ b: String, _ p: Preparation) -> Int {
        // An empty needle never matches; one that folds to empty is caught below.
        if b.isEmpty, op != .equals, op != .compare { return 0 }
        if case .fold(caseFold: true, stripMarks: _) = p, op != .contains {
            // Both ASCII under [c] (or [cd]): compare lower-cased bytes on the fly, no copies.
            let r: Int? = UTF8Bytes.with(a) { x in
                UTF8Bytes.with(b) { y in
                    guard UTF8Bytes.maxByte(x) < 0x80 && UTF8Bytes.maxByte(y) < 0x80 else { return nil }
                    return asciiCaseless(op, x, y)
                }
            }
            if let r { return r }
        }
        return p.withUTF8(a) { x in
            p.withUTF8(b) { y in
                switch op {
                case .equals: UTF8Bytes.equal(x, y) ? 1 : 0
                case .compare: UTF8Bytes.compare(x, y)
                case .beginsWith: !y.isEmpty && UTF8Bytes.hasPrefix(x, y) ? 1 : 0
                case .endsWith: !y.isEmpty && UTF8Bytes.hasSuffix(x, y) ? 1 : 0
                case .contains: !y.isEmpty && UTF8Bytes.contains(x, y) ? 1 : 0
                }
            }
        }
    }

    /// `op` on two ASCII strings, letters compared lower-cased (a non-empty ASCII needle stays
    /// non-empty, so the empty needle was answered before).
    private static func asciiCaseless(_ op: Operation, _ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        @inline(__always) func order(_ x: UnsafeBufferPointer<UInt8>, _ xFrom: Int, _ y: UnsafeBufferPointer<UInt8>, _ count: Int) -> Int {
            for k in 0..<count {
                let c = UTF8Bytes.lowercasedASCII(x[xFrom + k]), d = UTF8Bytes.lowercasedASCII(y[k])
                if c != d { return c < d ? -1 : 1 }
            }
            return 0
        }
        switch op {
        case .equals:
            return x.count == y.count && order(x, 0, y, x.count) == 0 ? 1 : 0
        case .compare:
            let r = order(x, 0, y, min(x.count, y.count))
            return r != 0 ? r : (x.count == y.count ? 0 : (x.count < y.count ? -1 : 1))
        case .beginsWith:
            return y.count <= x.count && order(x, 0, y, y.count) == 0 ? 1 : 0
        case .endsWith:
            return y.count <= x.count && order(x, x.count - y.count, y, y.count) == 0 ? 1 : 0
        case .contains:
            preconditionFailure("CONTAINS goes through the lower-cased copies")
        }
    }
}
