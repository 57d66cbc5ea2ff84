import Foundation
import Testing
@testable import SiftEvaluation

/// ``OrderFreeSum`` says a sum is the same in every order of its terms only when it is: then
/// every order gives the evaluator's sum; where it says no, some order gives another.
@Suite struct OrderFreeSumTests {
    static func decimal(_ text: String) -> Value { .decimal(Decimal(string: text)!) }

    static let cases: [(name: String, values: [Value], orderFree: Bool)] = [
        ("empty", [], true),
        ("nil and text only", [.null, .string("x")], true),
        ("integers", [.int(1), .int(-2), .int(40)], true),
        ("integers that may overflow", [.int(Int64.max), .int(1), .int(-1)], false),
        ("booleans", [.bool(true), .bool(false), .int(2)], true),
        ("a double", [.int(1), .double(0.5)], false),
        ("money", [decimal("19.99"), decimal("0.01"), decimal("-5.5"), .int(3)], true),
        ("decimals of many places", [decimal("0.000000000000000001"), decimal("1000000000000000")], true),
        ("38-digit terms", [decimal("12345678901234567890123456789012345678"), decimal("0.1"), decimal("-12345678901234567890123456789012345678")], false),
        ("a huge and a tiny term", [decimal("1e30"), decimal("1e-10")], false),
        ("zero", [decimal("0"), decimal("0.00")], true),
        ("NaN", [.decimal(.nan), decimal("1")], true),
    ]

    @Test(arguments: cases.indices)
    func saysWhetherTheOrderCanMatter(_ index: Int) {
        let (name, values, orderFree) = Self.cases[index]
        var sum = OrderFreeSum()
        for value in values { sum.add(value) }
        #expect(sum.isOrderFree == orderFree, "\(name)")
        #expect(sum.count == values.filter { Arithmetic.number($0) != nil }.count, "\(name)")
        // In the given order, it is the evaluator's sum.
        #expect(sum.sum.isSame(as: Aggregates.sum(values)), "\(name): \(sum.sum) vs \(Aggregates.sum(values))")
    }

    /// Order-free sums of many money amounts: every order (reversed, shuffled) gives the sum in
    /// the original order.
    @Test func orderFreeSumsAreTheSameInEveryOrder() {
        var generator = SystemRandomNumberGenerator()
        let values: [Value] = (0..<5_000).map { k in Self.decimal("\(Int.random(in: -1_000_000...1_000_000, using: &generator)).\(k % 100)") }
        let inOrder = Aggregates.sum(values)
        for order in [values.reversed(), values.shuffled(using: &generator)] {
            var sum = OrderFreeSum()
            for value in order { sum.add(value) }
            #expect(sum.isOrderFree)
            #expect(sum.sum.isSame(as: inOrder))
        }
        // 38-digit terms: the order changes the rounding, which is why they are not order-free.
        let wide: [Value] = [Self.decimal("99999999999999999999999999999999999999"), Self.decimal("0.6"), Self.decimal("0.6"),
                             Self.decimal("-99999999999999999999999999999999999999")]
        #expect(!Aggregates.sum(wide).isSame(as: Aggregates.sum([wide[0], wide[3], wide[1], wide[2]])))
    }
}

extension Value {
    /// The same kind and value (NaN decimals the same).
    func isSame(as other: Value) -> Bool {
        switch (self, other) {
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.decimal(let a), .decimal(let b)): a == b || (a.isNaN && b.isNaN)
        default: false
        }
    }
}
