/// Pieces of the regular expressions the tree's ``SQLBinaryOperator/regexMatch`` takes (POSIX
/// advanced regular expressions, as PostgreSQL's `~` reads them), written from Swift.
package enum SQLRegexPattern {
    /// A bracket matching these scalars: `[\\u0300-\\u036F…]`, in ranges.
    package static func bracket(_ values: some Sequence<UInt32>) -> String {
        var ranges: [(UInt32, UInt32)] = []
        for value in values.sorted() {
            if let last = ranges.last, last.1 + 1 >= value { ranges[ranges.count - 1].1 = max(last.1, value) } else { ranges.append((value, value)) }
        }
        return "[" + ranges.map { $0.0 == $0.1 ? escape($0.0) : escape($0.0) + "-" + escape($0.1) }.joined() + "]"
    }

    /// A scalar as `\\uXXXX` or `\\UXXXXXXXX`.
    package static func escape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return value <= 0xFFFF ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
