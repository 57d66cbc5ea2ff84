/// A collection operator of a key path (key-value coding's `@count`, `@sum`, …, LANGUAGE.md §5):
/// the one catalogue of them. The evaluator, the typing and the SQL compiler resolve a key to a
/// case once and switch over it exhaustively, and the REPL completes ``aggregates``, so a new
/// operator is decided in each of them before anything compiles.
public enum CollectionOperator: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case count = "@count"
    case sum = "@sum"
    case avg = "@avg"
    case min = "@min"
    case max = "@max"
    case distinctUnionOfObjects = "@distinctUnionOfObjects"
    case unionOfObjects = "@unionOfObjects"

    /// The operator a key spells (`@count`; case-sensitive, as key-value coding is), or nil.
    public init?(key: some StringProtocol) { self.init(rawValue: String(key)) }

    /// The key as written, with its `@`: `@count`.
    public var key: String { rawValue }

    /// The key as written (so that interpolating an operator prints `@count`, not `count`).
    public var description: String { rawValue }

    /// Whether the operator reduces the collection to one value (`@count`, `@sum`, `@avg`,
    /// `@min`, `@max`) rather than gathering its elements (the unions).
    public var isAggregate: Bool {
        switch self {
        case .count, .sum, .avg, .min, .max: true
        case .distinctUnionOfObjects, .unionOfObjects: false
        }
    }

    /// The operators that reduce a collection to one value, in declaration order.
    public static let aggregates: [CollectionOperator] = allCases.filter(\.isAggregate)
}
