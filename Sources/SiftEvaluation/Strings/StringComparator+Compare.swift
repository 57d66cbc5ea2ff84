import SiftLanguage

/// The sort comparators on strings (FETCH.md §3), deterministic and locale-independent, identical
/// in both engines (the SQL engine registers `compare(_:_:)` as SQLite collations).
extension StringComparator {
    /// -1, 0 or 1 for `a` against `b`:
    /// - `compare`: code-point (Unicode scalar) order after NFC; `"B" < "a"`.
    /// - `caseInsensitiveCompare`: order of the `[c]`-folded strings; equal folded strings tie (0).
    /// - `localizedCompare`: order of the `[cd]`-folded strings, then `compare` on equal ones, so
    ///   only canonically equivalent strings tie.
    /// - `localizedCaseInsensitiveCompare`: order of the `[cd]`-folded strings (ties → 0).
    /// - `localizedStandardCompare`: as `localizedCaseInsensitiveCompare`, but where both strings
    ///   have a run of ASCII digits at the same place the runs compare by numeric value
    ///   ("file2" < "file10"), of any length (no overflow). Runs of equal value tie whatever
    ///   their leading zeros ("a01" and "a1" compare 0; the sort's insertion-order tie-break
    ///   then decides). Other digits (Arabic-Indic, full-width) are ordinary characters.
    public func compare(_ a: String, _ b: String) -> Int {
        switch self {
        case .compare:
            return StringPredicates.compare(a, b)
        case .caseInsensitiveCompare:
            return StringPredicates.compare(a, b, options: .caseInsensitive)
        case .localizedCompare:
            let folded = StringPredicates.compare(a, b, options: [.caseInsensitive, .diacriticInsensitive])
            return folded != 0 ? folded : StringPredicates.compare(a, b)
        case .localizedCaseInsensitiveCompare:
            return StringPredicates.compare(a, b, options: [.caseInsensitive, .diacriticInsensitive])
        case .localizedStandardCompare:
            let p = Preparation([.caseInsensitive, .diacriticInsensitive])
            return p.withUTF8(a) { x in p.withUTF8(b) { y in Self.numericAwareCompare(x, y) } }
        }
    }

    /// Byte order, except that runs of ASCII digits present in both at the same place compare by
    /// value: leading zeros skipped, then the longer run is larger, then digit by digit.
    static func numericAwareCompare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        @inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
        var i = 0, j = 0
        while i < a.count && j < b.count {
            let x = a[i], y = b[j]
            if isDigit(x) && isDigit(y) {
                var i0 = i, j0 = j
                while i0 < a.count && a[i0] == 0x30 { i0 += 1 }  // leading zeros
                while j0 < b.count && b[j0] == 0x30 { j0 += 1 }
                var i1 = i0, j1 = j0
                while i1 < a.count && isDigit(a[i1]) { i1 += 1 }
                while j1 < b.count && isDigit(b[j1]) { j1 += 1 }
                let lengthA = i1 - i0, lengthB = j1 - j0
                if lengthA != lengthB { return lengthA < lengthB ? -1 : 1 }
                for k in 0..<lengthA where a[i0 + k] != b[j0 + k] { return a[i0 + k] < b[j0 + k] ? -1 : 1 }
                i = i1
                j = j1
                continue
            }
            if x != y { return x < y ? -1 : 1 }
            i += 1
            j += 1
        }
        let restA = a.count - i, restB = b.count - j
        return restA == restB ? 0 : (restA < restB ? -1 : 1)
    }
}

extension StringComparator {
    /// A text whose code-point (UTF-8 byte) order is this comparator's order, equal texts for
    /// strings that tie: what a store without Sift's functions (PostgreSQL) keeps beside a text
    /// column to sort by it in SQL. Nil for `compare` and `localizedCompare` (the text itself; the
    /// `[cd]` fold then the text); the `[c]` fold for `caseInsensitiveCompare`, the `[cd]` fold for
    /// `localizedCaseInsensitiveCompare`, and for `localizedStandardCompare` the `[cd]` fold with
    /// each run of ASCII digits written as its value's length then its digits (leading zeros
    /// dropped): the length as one digit `0`…`8`, or `9` then the length less 9 written the same
    /// way, so a longer run sorts after a shorter one and runs of one length by their digits.
    /// Every byte but the runs' is the fold's, and a run still begins with an ASCII digit, so it
    /// orders against any other byte as the run's first digit does.
    public func sortKey(_ s: String) -> String? {
        switch self {
        case .compare, .localizedCompare: return nil
        case .caseInsensitiveCompare: return StringFolding.fold(s, options: .caseInsensitive)
        case .localizedCaseInsensitiveCompare: return StringFolding.fold(s, options: [.caseInsensitive, .diacriticInsensitive])
        case .localizedStandardCompare:
            let folded = Array(StringFolding.fold(s, options: [.caseInsensitive, .diacriticInsensitive]).utf8)
            @inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
            var key: [UInt8] = []
            key.reserveCapacity(folded.count + 4)
            var i = 0
            while i < folded.count {
                guard isDigit(folded[i]) else {
                    key.append(folded[i])
                    i += 1
                    continue
                }
                var start = i
                while start < folded.count && folded[start] == 0x30 { start += 1 }
                var end = start
                while end < folded.count && isDigit(folded[end]) { end += 1 }
                var length = end - start
                while length >= 9 {
                    key.append(0x39)
                    length -= 9
                }
                key.append(0x30 + UInt8(length))
                key.append(contentsOf: folded[start..<end])
                i = end
            }
            return String(decoding: key, as: UTF8.self)
        }
    }
}
