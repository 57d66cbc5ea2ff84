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
    public var keyPath: String
    public var ascending: Bool
    public var comparator: StringComparator

    public init(_ keyPath: String, ascending: Bool = true, comparator: StringComparator = .compare) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparator = comparator
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
