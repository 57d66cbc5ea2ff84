import Foundation

/// The running sum behind `@sum` and `sum:` (LANGUAGE.md §6), one value at a time: the SQL
/// engine's `sift_group_sum` aggregate adds rows with it, so both engines sum alike.
///
/// Values that are not numbers (nil, strings, dates…) are skipped; booleans count as 1 and 0. The
/// sum is an integer while every value is one and it does not overflow, then a double (a decimal
/// once any value is one). An empty sum is the integer 0.
public struct SumAccumulator: Sendable {
    private var intSum: Int64 = 0
    private var doubleSum = 0.0
    private var decimalSum = Decimal(0)
    private enum Kind: Sendable { case int, double, decimal }
    private var kind = Kind.int

    public init() {}

    /// Adds `value` if it is a number.
    public mutating func add(_ value: Value) {
        guard let number = Arithmetic.number(value) else { return }
        add(number)
    }

    /// Adds a number.
    mutating func add(_ number: Arithmetic.Number) {
        switch number {
        case .int(let i):
            if kind == .int {
                let (s, overflow) = intSum.addingReportingOverflow(i)
                if overflow {
                    kind = .double
                    doubleSum = Double(intSum) + Double(i)
                    decimalSum = Decimal(intSum) + Decimal(i)
                } else {
                    intSum = s
                }
            } else {
                // (Once the sum is a decimal, the double sum is never read again.)
                if kind == .double { doubleSum += Double(i) }
                decimalSum += Decimal(i)
            }
        case .double(let d):
            if kind == .int { doubleSum = Double(intSum); decimalSum = Decimal(intSum); kind = .double }
            if kind == .double { doubleSum += d }
            // Decimal has no infinity (its initialiser traps on one): NaN, as for a double
            // beyond its range.
            decimalSum += d.isInfinite ? Decimal.nan : Decimal(d)
        case .decimal(let d):
            if kind == .int { decimalSum = Decimal(intSum) }
            kind = .decimal
            decimalSum += d
        }
    }

    /// The sum so far.
    public var sum: Value {
        switch kind {
        case .int: .int(intSum)
        case .double: .double(doubleSum)
        case .decimal: .decimal(decimalSum)
        }
    }
}
