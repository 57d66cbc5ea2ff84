import Foundation

/// A running sum (``SumAccumulator``) that also knows whether the order of its terms could have
/// changed it: so a SQL aggregate fed rows in whatever order the engine reads them can keep the
/// sum, not every value, and still give the sum `@sum`/`sum:` gives in the collection's order.
///
/// The order cannot matter when every partial sum, in any order, is exact: the terms are
/// integers and decimals (a double sum rounds at every step), and the largest term times their
/// number — a bound on every partial sum's magnitude — stays
///
/// - below 2^63, for a sum of integers (no partial sum overflows into a double);
/// - below 10^36 units of the finest decimal place of any term, for a sum with a decimal (a
///   `Decimal` holds 38 digits, so no partial sum is rounded).
///
/// Money sums are far inside both: a million amounts of a billion with cents is 10^17 cents.
///
///     var sum = OrderFreeSum()
///     for amount in amounts { sum.add(amount) }
///     if sum.isOrderFree { return sum.sum }   // else sum the values in their order
///
/// Decimals read from their digits (``add(significand:exponent:)``) are added as integers of
/// their finest place, without `Decimal` arithmetic, while that bound holds; the first term
/// past it (or any other value) moves the sum so far into the ``SumAccumulator`` as one term —
/// the sum every order of those terms gives — and the rest is added there.
public struct OrderFreeSum: Sendable {
    /// The sum of the terms added as digits, in units of `10^exactExponent`, while `!spilled`.
    private var exactTotal: Int128 = 0
    /// The finest place of a nonzero term added as digits (`Int.max`: none yet).
    private var exactExponent = Int.max
    /// The largest magnitude of a term added as digits, in the same units.
    private var exactLargest: Int128 = 0
    /// Whether the exact sum moved into `accumulator` (and every later term goes there too).
    private var spilled = false

    private var accumulator = SumAccumulator()
    /// How many numbers were added (nil and other values are skipped, as by the sum).
    public private(set) var count = 0
    private var hasDouble = false
    private var hasDecimal = false
    /// Whether a decimal term is NaN (then so is the sum, in any order).
    private var hasNaN = false
    /// The largest magnitude of a term, and the finest decimal exponent of any nonzero term
    /// (of the terms in `accumulator`).
    private var largest = Decimal(0)
    private var finestExponent = Int.max

    /// Powers of ten up to 10^38, the largest an `Int128` holds.
    private static let powersOfTen: [Int128] = {
        var powers: [Int128] = [1]
        for _ in 1...38 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()
    /// The bound of an exact sum's partial sums, in units of its finest place.
    private static let exactBound: Int128 = powersOfTen[36]

    public init() {}

    /// Adds `value` if it is a number.
    public mutating func add(_ value: Value) {
        guard let number = Arithmetic.number(value) else { return }
        spill()
        count += 1
        accumulator.add(number)
        let term: Decimal
        switch number {
        case .int(let i): term = Decimal(i)
        case .decimal(let d):
            hasDecimal = true
            if d.isNaN {
                hasNaN = true
                return
            }
            term = d
        case .double:
            hasDouble = true
            return
        }
        note(term)
    }

    /// Adds the decimal `significand × 10^exponent` — the value `Decimal(string:)` reads from
    /// the same digits, as ``add(_:)`` would add it, only faster.
    public mutating func add(significand: Int64, exponent: Int) {
        guard !spilled else {
            add(.decimal(Decimal(sign: significand < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(significand.magnitude))))
            return
        }
        if significand == 0 {
            count += 1
            hasDecimal = true
            return
        }
        // The sum and the largest term in units of the finer of the two places, checked
        // against the bound before anything changes.
        let finest = min(exactExponent, exponent)
        guard let total = Self.scaled(exactTotal, by: exactExponent == Int.max ? 0 : exactExponent - finest),
              let largestSoFar = Self.scaled(exactLargest, by: exactExponent == Int.max ? 0 : exactExponent - finest),
              let term = Self.scaled(Int128(significand), by: exponent - finest) else {
            return spillThenAdd(significand: significand, exponent: exponent)
        }
        let largest = max(largestSoFar, term < 0 ? -term : term)
        let (bound, overflow) = largest.multipliedReportingOverflow(by: Int128(count + 1))
        guard !overflow, bound < Self.exactBound else { return spillThenAdd(significand: significand, exponent: exponent) }
        exactTotal = total + term
        exactLargest = largest
        exactExponent = finest
        count += 1
        hasDecimal = true
    }

    /// The sum so far, as ``SumAccumulator`` gives it.
    public var sum: Value {
        guard !spilled else { return accumulator.sum }
        guard hasDecimal else { return .int(0) }
        return .decimal(exactDecimal)
    }

    /// Whether ``sum`` is the sum of these terms in every order (see the type's description).
    public var isOrderFree: Bool {
        guard spilled else { return true }
        if hasDouble { return false }
        if hasNaN { return true }
        if count == 0 || largest.isZero { return true }
        let bound = largest * Decimal(count)
        if hasDecimal {
            return bound < Decimal(sign: .plus, exponent: finestExponent + 36, significand: 1)
        }
        return bound < Decimal(Int64.max)
    }

    // MARK: The exact sum

    /// `value × 10^places`, nil when it overflows.
    private static func scaled(_ value: Int128, by places: Int) -> Int128? {
        guard places > 0 else { return value }
        guard places < powersOfTen.count else { return value == 0 ? 0 : nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: powersOfTen[places])
        return overflow ? nil : product
    }

    /// The exact sum as a decimal (below 10^36 units: a decimal holds it exactly).
    private var exactDecimal: Decimal {
        guard exactExponent != Int.max else { return Decimal(0) }
        return Self.exactDecimal(exactTotal, exponent: exactExponent)
    }

    /// `value × 10^exponent` as a decimal, exactly (`value` below 10^38).
    private static func exactDecimal(_ value: Int128, exponent: Int) -> Decimal {
        guard value != 0 else { return Decimal(0) }
        let magnitude = value.magnitude
        var significand = Decimal(UInt64(truncatingIfNeeded: magnitude))
        if magnitude >> 64 != 0 {
            let twoTo64 = Decimal(UInt64(1) << 32) * Decimal(UInt64(1) << 32)
            significand += Decimal(UInt64(truncatingIfNeeded: magnitude >> 64)) * twoTo64
        }
        return Decimal(sign: value < 0 ? .minus : .plus, exponent: exponent, significand: significand)
    }

    /// Moves the exact sum into `accumulator` as one term (what every order of its terms sums
    /// to, as none was rounded), with what ``isOrderFree`` needs to know of its terms.
    private mutating func spill() {
        guard !spilled else { return }
        spilled = true
        guard hasDecimal else { return }
        accumulator.add(Value.decimal(exactDecimal))
        if exactExponent != Int.max {
            largest = Self.exactDecimal(exactLargest, exponent: exactExponent)
            finestExponent = exactExponent
        }
    }

    private mutating func spillThenAdd(significand: Int64, exponent: Int) {
        spill()
        add(significand: significand, exponent: exponent)
    }

    /// Notes a term's magnitude and place for ``isOrderFree``.
    private mutating func note(_ term: Decimal) {
        let magnitude = term.magnitude
        if magnitude > largest { largest = magnitude }
        if !term.isZero { finestExponent = min(finestExponent, term.exponent) }
    }
}
