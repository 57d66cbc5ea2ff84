import SiftLanguage

/// How strings compare when sorting (NSString's comparison selectors, FETCH.md §3). All are
/// deterministic and locale-independent; on non-strings every comparator is `compare`.
public enum StringComparator: String, Sendable, Hashable, CaseIterable, Codable {
    /// Code-point order after NFC.
    case compare
    /// Order of the `[c]`-folded strings (equal folded strings tie).
    case caseInsensitiveCompare
    /// Order of the `[cd]`-folded strings, then `compare` on equal ones.
    case localizedCompare
    /// Order of the `[cd]`-folded strings (equal ones tie).
    case localizedCaseInsensitiveCompare
    /// As localizedCaseInsensitiveCompare, but runs of ASCII digits compare by value ("file2" < "file10").
    case localizedStandardCompare
}

/// One sort descriptor (NSSortDescriptor): a key path, a direction and a string comparator.
public struct SortKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The key path, as NSSortDescriptor's key: keys separated by dots, each as the data names
    /// it (`2B`, `size`, `address.city`, `tags.@count`) — not the format string's spelling
    /// (`#2B`), which ``Sorting/parseSortKeys(_:)`` and statements read into this form.
    public var keyPath: String
    public var ascending: Bool
    public var comparator: StringComparator

    public init(_ keyPath: String, ascending: Bool = true, comparator: StringComparator = .compare) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparator = comparator
    }

    /// The key path as an expression read from the evaluated object.
    package var expression: ExpressionNode { Self.expression(ofKeyPath: keyPath) }

    /// A key path of keys separated by dots (`address.city`) as an expression.
    package static func expression(ofKeyPath keyPath: String) -> ExpressionNode {
        ExpressionNode(.keyPath(base: nil, keys: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)))
    }

    /// `key [ASC|DESC] [USING comparator]`.
    public var description: String {
        var text = keyPath + (ascending ? " ASC" : " DESC")
        if comparator != .compare { text += " USING " + comparator.rawValue }
        return text
    }
}

/// A malformed sort specification, with the 1-based column.
public struct SortSpecificationError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let column: Int
    public var description: String { "column \(column): \(message)" }
}
