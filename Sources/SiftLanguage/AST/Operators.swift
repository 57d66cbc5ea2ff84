/// The operator of a comparison predicate (NSComparisonPredicate.Operator).
public enum ComparisonOperator: String, Sendable, Hashable, Codable, CaseIterable {
    case equalTo = "=="
    case notEqualTo = "!="
    case lessThan = "<"
    case lessThanOrEqualTo = "<="
    case greaterThan = ">"
    case greaterThanOrEqualTo = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case matches = "MATCHES"
    case `in` = "IN"
    case between = "BETWEEN"
    case utiConformsTo = "UTI-CONFORMS-TO"
    case utiEquals = "UTI-EQUALS"

    /// The canonical spelling (`=` prints as `==`, `<>` as `!=`, ...).
    public var symbol: String { rawValue }

    /// Every operator but the UTI ones (`UTI-CONFORMS-TO`, `UTI-EQUALS`): those an error
    /// suggests, options (`[c]`) follow, and a script's line may end with.
    public static let common: [ComparisonOperator] = allCases.filter { $0 != .utiConformsTo && $0 != .utiEquals }

    /// The ``common`` operators spelt as one word (`BEGINSWITH`, `IN`, …).
    public static let wordSpellings: [String] = common.map(\.symbol).filter { $0.allSatisfy(\.isLetter) }
}

/// How a comparison applies to a collection on its left (NSComparisonPredicate.Modifier).
public enum ComparisonModifier: String, Sendable, Hashable, Codable, CaseIterable {
    /// No qualifier: the comparison is between the two values (implicit ANY over to-many paths).
    case direct
    /// `ANY` / `SOME`: some element satisfies the comparison.
    case any
    /// `ALL`: every element satisfies the comparison.
    case all
    /// `NONE`: no element satisfies the comparison.
    case none

    /// The keyword printed before the comparison, if any (`SOME` prints as `ANY`).
    public var keyword: String? {
        switch self {
        case .direct: nil
        case .any: "ANY"
        case .all: "ALL"
        case .none: "NONE"
        }
    }
}

/// The `[cdnl]` options of a comparison.
public struct ComparisonOptions: OptionSet, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive (Unicode default case folding).
    public static let caseInsensitive = ComparisonOptions(rawValue: 1 << 0)
    /// `[d]`: diacritic-insensitive (canonical decomposition, combining marks removed).
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 1 << 1)
    /// `[n]`: both sides are already normalised; compare literally.
    public static let normalized = ComparisonOptions(rawValue: 1 << 2)
    /// `[l]`: locale-sensitive; accepted, no further effect on Linux.
    public static let localeSensitive = ComparisonOptions(rawValue: 1 << 3)

    /// The option letters in canonical order (`c d n l`), e.g. `"cd"`.
    public var letters: String {
        var s = ""
        if contains(.caseInsensitive) { s += "c" }
        if contains(.diacriticInsensitive) { s += "d" }
        if contains(.normalized) { s += "n" }
        if contains(.localeSensitive) { s += "l" }
        return s
    }

    /// Options from letters; nil if a letter is not one of `c d n l` (case-insensitive).
    public init?(letters: some StringProtocol) {
        var options = ComparisonOptions()
        for ch in letters.lowercased() {
            switch ch {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            case "l": options.insert(.localeSensitive)
            default: return nil
            }
        }
        self = options
    }

    public var description: String { letters.isEmpty ? "" : "[\(letters)]" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let options = ComparisonOptions(letters: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown comparison option letters '\(text)' (valid: c, d, n, l)")
        }
        self = options
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(letters)
    }
}

/// Binary arithmetic and bitwise operators.
public enum BinaryOperator: String, Sendable, Hashable, Codable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case power = "**"
    case bitwiseAnd = "&"
    case bitwiseOr = "|"
    case bitwiseXor = "^"
    case leftShift = "<<"
    case rightShift = ">>"

    public var symbol: String { rawValue }
}

/// Prefix operators on expressions.
public enum UnaryOperator: String, Sendable, Hashable, Codable, CaseIterable {
    /// `-x`
    case negate = "-"
    /// `~x`
    case bitwiseNot = "~"

    public var symbol: String { rawValue }
}

/// What an index form (`x[...]`) selects.
public enum IndexSubscript: Sendable, Hashable {
    /// `[FIRST]`
    case first
    /// `[LAST]`
    case last
    /// `[SIZE]`: the element count.
    case size
    /// `[n]` (0-based) or `['key']` (a dictionary key), or any other expression.
    case expression(ExpressionNode)
}
