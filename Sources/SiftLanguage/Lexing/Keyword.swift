/// The reserved words of the language (LANGUAGE.md §1). Matching is case-insensitive.
/// A reserved word is used as a key with a `#` prefix: `#size`, `#in`.
public enum Keyword: UInt8, Sendable, CaseIterable {
    case and, or, `in`, not, all, any, some, none, like, caseInsensitive, ci, matches, contains
    case beginsWith, endsWith, between, null, `nil`, `self`, `true`, yes, `false`, no
    case first, last, size, anyKey, subquery, fetch, cast, truePredicate, falsePredicate
    case utiConformsTo, utiEquals, function, ternary

    /// The spelling, upper-case.
    public var spelling: String {
        switch self {
        case .and: "AND"
        case .or: "OR"
        case .in: "IN"
        case .not: "NOT"
        case .all: "ALL"
        case .any: "ANY"
        case .some: "SOME"
        case .none: "NONE"
        case .like: "LIKE"
        case .caseInsensitive: "CASEINSENSITIVE"
        case .ci: "CI"
        case .matches: "MATCHES"
        case .contains: "CONTAINS"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .between: "BETWEEN"
        case .null: "NULL"
        case .nil: "NIL"
        case .self: "SELF"
        case .true: "TRUE"
        case .yes: "YES"
        case .false: "FALSE"
        case .no: "NO"
        case .first: "FIRST"
        case .last: "LAST"
        case .size: "SIZE"
        case .anyKey: "ANYKEY"
        case .subquery: "SUBQUERY"
        case .fetch: "FETCH"
        case .cast: "CAST"
        case .truePredicate: "TRUEPREDICATE"
        case .falsePredicate: "FALSEPREDICATE"
        case .utiConformsTo: "UTI-CONFORMS-TO"
        case .utiEquals: "UTI-EQUALS"
        case .function: "FUNCTION"
        case .ternary: "TERNARY"
        }
    }

    /// The words a key must prefix with `#` to be read as a key (`#size`, `#in`): every
    /// keyword but the hyphenated UTI operators, which no key can be spelt as.
    public static let reservedWords: [String] = allCases.filter(\.isOneWord).map(\.spelling)

    /// Whether the keyword is one word: every one but the hyphenated UTI operators, which the
    /// lexer reads on their own (no identifier or key is spelt with a hyphen).
    var isOneWord: Bool { !spelling.contains("-") }

    /// The hyphenated keywords, each with what follows its first word (`UTI`): `-CONFORMS-TO`,
    /// `-EQUALS`, as bytes, for the lexer.
    static let hyphenatedTails: [(tail: [UInt8], keyword: Keyword)] = allCases.filter { !$0.isOneWord }.map { keyword in
        (Array(keyword.spelling.drop { $0 != "-" }.utf8), keyword)
    }

    /// The comparison operator this keyword spells, if any.
    var comparisonOperator: ComparisonOperator? {
        switch self {
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .contains: .contains
        case .like: .like
        case .matches: .matches
        case .in: .in
        case .between: .between
        case .utiConformsTo: .utiConformsTo
        case .utiEquals: .utiEquals
        case .and, .or, .not, .all, .any, .some, .none, .caseInsensitive, .ci, .null, .nil, .self, .true, .yes, .false, .no,
             .first, .last, .size, .anyKey, .subquery, .fetch, .cast, .truePredicate, .falsePredicate, .function, .ternary:
            nil
        }
    }

    /// Keywords by length: each a list of (lower-case ASCII bytes packed into an integer,
    /// keyword). A lookup packs the word once and compares integers with the few keywords of
    /// its length: no hashing, no allocation.
    private static let byLength: [[(UInt128, Keyword)]] = {
        var table = [[(UInt128, Keyword)]](repeating: [], count: 16)
        for keyword in Keyword.allCases where keyword.isOneWord {
            let bytes = Array(keyword.spelling.lowercased().utf8)
            table[bytes.count].append((pack(bytes), keyword))
        }
        return table
    }()

    static func pack<C: Collection<UInt8>>(_ bytes: C) -> UInt128 {
        var packed: UInt128 = 0
        for byte in bytes { packed = packed << 8 | UInt128(byte | 0x20) }
        return packed
    }

    /// The keyword spelt by an ASCII identifier, if it is one (case-insensitive).
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Keyword? {
        let length = end - start
        guard length >= 2 && length <= 15 else { return nil }
        let candidates = byLength[length]
        if candidates.isEmpty { return nil }
        var packed: UInt128 = 0
        for i in start..<end { packed = packed << 8 | UInt128(bytes[i] | 0x20) }
        for (key, keyword) in candidates where key == packed { return keyword }
        return nil
    }

    /// The spellings of `keywords`, upper-case: the words an error expects or suggests.
    static func spellings(_ keywords: Keyword...) -> [String] { keywords.map(\.spelling) }

    /// Every reserved word, for suggestions and for deciding when a key needs `#`.
    static let allSpellings: [String] = allCases.map(\.spelling)

    /// True if `key` (any case) is a reserved word and so must be written `#key`.
    public static func isReserved(_ key: String) -> Bool {
        let upper = key.uppercased()
        return allSpellings.contains(upper)
    }
}

