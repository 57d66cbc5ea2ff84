import Foundation
import SiftLanguage

/// The language's equality and order on values (LANGUAGE.md §3).
///
/// - Numbers compare numerically across integer, double, decimal and boolean.
/// - Strings compare by Unicode scalar value after NFC (canonically equivalent strings are
///   equal), or after `[c]`/`[d]` folding when options say so.
/// - Dates compare chronologically; data and UUIDs by their bytes.
/// - Values of kinds with no common order are never equal, and have no order (nil).
public enum ValueComparison {
    /// Nil-safe equality: `nil == nil` is true, `nil == 5` false; `"42" == 42` is false.
    public static func equals(_ a: Value, _ b: Value, options: ComparisonOptions = []) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case let (.string(x), .string(y)): return StringPredicates.equals(x, y, options: options)
        case let (.date(x), .date(y)): return x == y
        case let (.data(x), .data(y)): return x == y
        case let (.uuid(x), .uuid(y)): return x == y
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { equals($0, $1, options: options) }
        case let (.set(x), .set(y)), let (.array(x), .set(y)), let (.set(x), .array(y)):
            // A set has no order: the same elements, as many times each, in any order.
            return sameElements(x, y, options: options)
        case let (.dictionary(x), .dictionary(y)):
            return x.count == y.count && x.keys.allSatisfy { key in
                guard let xv = x[key], let yv = y[key] else { return false }
                return equals(xv, yv, options: options)
            }
        case let (.object(x), .object(y)): return x.objectIdentity == y.objectIdentity
        default:
            if let order = compareNumbers(a, b) { return order == 0 }
            return false
        }
    }

    /// Whether two collections hold equal elements, each as many times, in any order.
    static func sameElements(_ x: [Value], _ y: [Value], options: ComparisonOptions) -> Bool {
        guard x.count == y.count else { return false }
        var unmatched = y
        for element in x {
            guard let match = unmatched.firstIndex(where: { equals(element, $0, options: options) }) else { return false }
            unmatched.remove(at: match)
        }
        return true
    }

    /// The order of two values (-1, 0, 1), or nil when their kinds have no common order
    /// (and when either is nil).
    public static func order(_ a: Value, _ b: Value, options: ComparisonOptions = []) -> Int? {
        switch (a, b) {
        case let (.string(x), .string(y)): return StringPredicates.compare(x, y, options: options)
        case let (.date(x), .date(y)): return x < y ? -1 : (x == y ? 0 : 1)
        default: return compareNumbers(a, b)
        }
    }

    /// Numeric order across integer, double, decimal and boolean; nil if either is not a number.
    static func compareNumbers(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case let (.int(x), .int(y)): return x < y ? -1 : (x == y ? 0 : 1)
        case let (.double(x), .double(y)): return compare(x, y)
        default:
            guard let x = Numeric(a), let y = Numeric(b) else { return nil }
            return x.compare(y)
        }
    }

    private static func compare(_ x: Double, _ y: Double) -> Int? {
        if x < y { return -1 }
        if x > y { return 1 }
        if x == y { return 0 }
        return nil  // NaN
    }

    /// A number of any kind, for mixed comparisons.
    enum Numeric {
        case int(Int64), double(Double), decimal(Decimal)

        init?(_ value: Value) {
            switch value {
            case .int(let i): self = .int(i)
            case .bool(let b): self = .int(b ? 1 : 0)
            case .double(let d): self = .double(d)
            case .decimal(let d): self = .decimal(d)
            default: return nil
            }
        }

        func compare(_ other: Numeric) -> Int? {
            switch (self, other) {
            case let (.int(x), .int(y)): return x < y ? -1 : (x == y ? 0 : 1)
            case let (.int(x), .double(y)): return ValueComparison.compareIntDouble(x, y)
            case let (.double(x), .int(y)): return ValueComparison.compareIntDouble(y, x).map { -$0 }
            case let (.double(x), .double(y)): return ValueComparison.compare(x, y)
            case let (.decimal(x), .decimal(y)): return x < y ? -1 : (x == y ? 0 : 1)
            case let (.decimal(x), .int(y)):
                let d = Decimal(y)
                return x < d ? -1 : (x == d ? 0 : 1)
            case let (.int(x), .decimal(y)):
                let d = Decimal(x)
                return d < y ? -1 : (d == y ? 0 : 1)
            case let (.decimal(x), .double(y)): return ValueComparison.compare(NSDecimalNumber(decimal: x).doubleValue, y)
            case let (.double(x), .decimal(y)): return ValueComparison.compare(x, NSDecimalNumber(decimal: y).doubleValue)
            }
        }
    }

    /// Exact comparison of an integer with a double (no rounding of large integers).
    static func compareIntDouble(_ i: Int64, _ d: Double) -> Int? {
        if d.isNaN { return nil }
        if d >= 9223372036854775808.0 { return -1 }
        if d < -9223372036854775808.0 { return 1 }
        let truncated = d.rounded(.towardZero)
        let t = Int64(truncated)
        if i < t { return -1 }
        if i > t { return 1 }
        let fraction = d - truncated
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }
}
