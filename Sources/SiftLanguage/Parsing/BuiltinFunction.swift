/// A function a format string may call (LANGUAGE.md §6): the one catalogue of Sift's functions.
///
/// The raw value is the full selector the AST and the canonical form carry (`add:to:`, `now`).
/// ``FunctionCatalog`` derives its table, lookup and display names from `allCases`; the
/// evaluator, the typing and the SQL compiler resolve a call's selector to a case once and
/// switch over it exhaustively, so a new case does not compile until each of them handles it.
public enum BuiltinFunction: String, CaseIterable, Sendable {
    // Aggregates of a collection.
    case sum = "sum:", count = "count:", min = "min:", max = "max:", average = "average:"
    case median = "median:", mode = "mode:", stddev = "stddev:"
    // Arithmetic.
    case add = "add:to:", subtract = "from:subtract:", multiply = "multiply:by:", divide = "divide:by:"
    case modulus = "modulus:by:", raise = "raise:toPower:"
    // Numeric functions.
    case sqrt = "sqrt:", log = "log:", ln = "ln:", exp = "exp:", floor = "floor:", ceiling = "ceiling:"
    case abs = "abs:", trunc = "trunc:"
    // Text.
    case uppercase = "uppercase:", lowercase = "lowercase:", canonical = "canonical:"
    // Of no argument but the moment or chance.
    case now = "now", random = "random", randomBelow = "random:"
    // Bitwise.
    case bitwiseAnd = "bitwiseAnd:with:", bitwiseOr = "bitwiseOr:with:", bitwiseXor = "bitwiseXor:with:"
    case leftShift = "leftshift:by:", rightShift = "rightshift:by:", onesComplement = "onesComplement:"
    // A hint.
    case noindex = "noindex:"

    /// The function with this full selector (`add:to:`, not `add:to` or `ADD:TO:`), or nil.
    public init?(selector: String) { self.init(rawValue: selector) }

    /// The full selector, e.g. `add:to:`; `now` for a function of no arguments.
    public var selector: String { rawValue }

    /// How many arguments the function takes: the colons of its selector.
    public var arity: Int {
        switch self {
        case .now, .random: 0
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev,
             .sqrt, .log, .ln, .exp, .floor, .ceiling, .abs, .trunc,
             .uppercase, .lowercase, .canonical, .randomBelow, .onesComplement, .noindex: 1
        case .add, .subtract, .multiply, .divide, .modulus, .raise,
             .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift: 2
        }
    }

    /// The name "unknown function" errors list: the selector without its last colon (`add:to`).
    public var displayName: String { rawValue.hasSuffix(":") ? String(rawValue.dropLast()) : rawValue }

    /// Whether the function aggregates the elements of its collection argument (`sum:`,
    /// `count:`, …), skipping nil elements, rather than giving nil for a nil argument.
    public var isCollectionAggregate: Bool {
        switch self {
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev: true
        case .add, .subtract, .multiply, .divide, .modulus, .raise,
             .sqrt, .log, .ln, .exp, .floor, .ceiling, .abs, .trunc,
             .uppercase, .lowercase, .canonical, .now, .random, .randomBelow,
             .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift, .onesComplement, .noindex: false
        }
    }

    /// Whether the result depends on more than the arguments (`now`, `random`, `random:`): such a
    /// call is evaluated for each object, never folded into a constant nor computed by SQL.
    public var dependsOnMoreThanArguments: Bool {
        switch self {
        case .now, .random, .randomBelow: true
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev,
             .add, .subtract, .multiply, .divide, .modulus, .raise,
             .sqrt, .log, .ln, .exp, .floor, .ceiling, .abs, .trunc,
             .uppercase, .lowercase, .canonical,
             .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift, .onesComplement, .noindex: false
        }
    }
}
