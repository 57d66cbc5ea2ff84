import SiftLanguage

/// The functions a grouped dictionary fetch (or one aggregating its whole result) computes in
/// SQL, over each group's objects: `count:`, `sum:`, `average:`, `min:` and `max:` of a key
/// path. Any other function in such a fetch's properties runs in memory.
enum GroupAggregateFunction {
    case count, sum, average, min, max

    /// The group aggregate `selector` names; nil for any other function. The switch lists every
    /// ``BuiltinFunction``, so a new one is decided here before it compiles.
    init?(selector: String) {
        guard let function = BuiltinFunction(selector: selector) else { return nil }
        switch function {
        case .count: self = .count
        case .sum: self = .sum
        case .average: self = .average
        case .min: self = .min
        case .max: self = .max
        case .median, .mode, .stddev,
             .add, .subtract, .multiply, .divide, .modulus, .raise,
             .sqrt, .log, .ln, .exp, .floor, .ceiling, .abs, .trunc,
             .uppercase, .lowercase, .canonical, .now, .random, .randomBelow,
             .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift, .onesComplement, .noindex:
            return nil
        }
    }
}
