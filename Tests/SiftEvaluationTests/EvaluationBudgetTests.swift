import Foundation
import SiftLanguage
import Synchronization
import Testing
import TestTimeLimits
@testable import SiftEvaluation

/// What grew faster than its input in the evaluator (issue 29): `mode:` and
/// `@distinctUnionOfObjects` scanned the distinct values so far for each value (quadratic:
/// 40,000 values took 8 s, 1,000,000 minutes), and nested SUBQUERY expressions multiply (2⁴¹
/// tests at depth 41, never ending). The sizes here take minutes, or forever, the old way; the
/// time limits are generous, and nothing is timed.
@Suite struct EvaluationBudgetTests {
    static let distinctValues = 200_000

    @Test(.hangGuard())
    func modeIsLinear() throws {
        // 200,000 distinct values, one of them twice: that one is the mode.
        var values: [Value] = (0..<Self.distinctValues).map { .int(Int64($0)) }
        values.append(.double(123_456))
        #expect(Self.same(try Functions.mode(values), .int(123_456)))
        let strings: [Value] = (0..<Self.distinctValues).map { .string("value \($0 % 150_000)") }
        #expect(Self.same(try Functions.mode(strings), .string("value 0")))
        // Through the function, as a predicate calls it.
        let expression = try CompiledExpression(format: "mode:(%@)", arguments: [(0..<Self.distinctValues).map { $0 % 199_999 }])
        #expect(Self.same(try expression.evaluate(.null), .int(0)))
    }

    /// The language's equality, as the scan had it: 1 == 1.0 == YES, canonically equivalent
    /// strings are equal, NaN equals nothing; the first of equally frequent values wins, as it
    /// was first written.
    @Test(arguments: [
        ([Value.int(1), .double(1), .string("a"), .string("a")], Value.int(1)),
        ([.string("e\u{301}"), .string("é"), .int(2), .int(2)], .string("e\u{301}")),
        ([.double(.nan), .double(.nan), .int(3)], .double(.nan)),
        ([.null, .null, .int(4)], .int(4)),
        ([.int(9_007_199_254_740_993), .double(9_007_199_254_740_992), .int(9_007_199_254_740_992)], .double(9_007_199_254_740_992)),
        ([.decimal(Decimal(string: "2.50")!), .double(2.5), .int(7)], .decimal(Decimal(string: "2.5")!)),
        ([.bool(true), .int(1), .int(0)], .bool(true)),
        ([], .null),
    ])
    func modeKeepsTheLanguagesEquality(_ values: [Value], _ mode: Value) throws {
        let found = try Functions.mode(values)
        if case .double(let d) = mode, d.isNaN {
            // NaN is not equal to itself: three values seen once each, the first is the mode.
            guard case .double(let e) = found else { Issue.record("\(found)"); return }
            #expect(e.isNaN)
        } else {
            #expect(Self.same(found, mode), "\(found)")
        }
    }

    @Test(.hangGuard())
    func distinctUnionIsLinear() throws {
        let values = (0..<Self.distinctValues).map { $0 % 150_000 }
        let union = try CompiledExpression(format: "%@.@distinctUnionOfObjects", arguments: [values])
        guard case .array(let distinct) = try union.evaluate(.null) else { Issue.record("not an array"); return }
        #expect(distinct.count == 150_000)
        let mixed = try CompiledExpression(format: "%@.@distinctUnionOfObjects", arguments: [[1, 1.0, 2, "b", "b", 2.0]])
        #expect(Self.same(try mixed.evaluate(.null), .array([.int(1), .int(2), .string("b")])))
    }

    @Test func anInterruptStopsTheAggregates() throws {
        let values: [Value] = (0..<10_000).map { .int(Int64($0)) }
        #expect(throws: EvaluationError.self) {
            try EvaluationBudget.isInterruptedScope.withValue({ true }) { _ = try Functions.mode(values) }
        }
        #expect(throws: EvaluationError.self) {
            try EvaluationBudget.isInterruptedScope.withValue({ true }) { _ = try Aggregates.distinct(values) }
        }
        // Not interrupted: the answer.
        #expect(Self.same(try EvaluationBudget.isInterruptedScope.withValue({ false }) { try Functions.mode(values) }, .int(0)))
    }

    /// Equal under the language's equality, and of the same kind (element by element).
    static func same(_ a: Value, _ b: Value) -> Bool {
        if case .array(let x) = a, case .array(let y) = b { return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) } }
        return ValueComparison.equals(a, b) && a.kindName == b.kindName
    }

    // MARK: SUBQUERY

    /// `SUBQUERY(OUTERMOST, $vD, … SUBQUERY({1, 2}, $v1, INNERMOST).@count > 0 …).@count > 0`.
    static func nested(depth: Int, innermost: String, outermost: String = "{1, 2}") -> String {
        var text = innermost
        for level in 1...depth { text = "SUBQUERY(\(level == depth ? outermost : "{1, 2}"), $v\(level), \(text)).@count > 0" }
        return text
    }

    /// An object whose `pair` is `{1, 2}`: a SUBQUERY over it runs for each object.
    static let object = Value.dictionary(ValueDictionary([("pair", .array([.int(1), .int(2)]))]))

    /// SUBQUERY expressions that depend on nothing but constants are computed once: nested 41
    /// deep, they cost 82 tests, not 2⁴¹.
    @Test(.hangGuard(), arguments: ["TRUEPREDICATE", "$v1 == 2", "SELF > 1", "ANY {1, 2} == $v1"])
    func closedSubqueriesAreComputedOnce(_ innermost: String) throws {
        let predicate = try CompiledPredicate(PredicateNode(format: Self.nested(depth: 41, innermost: innermost)))
        #expect(try predicate.evaluate(.dictionary(ValueDictionary([]))))
    }

    /// One that reads the object (here the outermost one's collection, and so every one
    /// inside it, reading the outermost one's variable) runs for each object, within the work
    /// budget: past it, a clear error instead of running for ever. (With a budget of 100,000
    /// here, to keep the suite quick: the default, 10,000,000, is seconds of work.)
    @Test(.hangGuard())
    func nestedSubqueriesStopAtTheBudget() throws {
        #expect(EvaluationBudget.subqueryTests == 10_000_000 && EvaluationBudget.subqueryTestLimit == 10_000_000)
        try EvaluationBudget.subqueryTestLimitScope.withValue(100_000) { try Self.stopAtTheBudget() }
    }

    static func stopAtTheBudget() throws {
        let predicate = try CompiledPredicate(PredicateNode(format: Self.nested(depth: 41, innermost: "$v41 == $v1", outermost: "pair")))
        var caught: EvaluationError?
        do {
            _ = try predicate.evaluate(Self.object)
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.code == .workLimit)
        #expect(error.message.hasPrefix("the evaluation needs more than 100,000 SUBQUERY element tests on one object"), "\(error.message)")
        // Within the budget: the answer (2¹⁰ tests).
        let small = try CompiledPredicate(PredicateNode(format: Self.nested(depth: 10, innermost: "$v10 == $v1", outermost: "pair")))
        #expect(try small.evaluate(Self.object))
        // The budget is for each evaluation, not the predicate's lifetime.
        for _ in 0..<3 { #expect(try small.evaluate(Self.object)) }
        // A closed one past the budget fails as it is compiled, where it is computed.
        #expect(throws: EvaluationError.self) {
            try CompiledPredicate(PredicateNode(format: Self.nested(depth: 41, innermost: "$v41 == $v1")))
        }
    }

    @Test(.hangGuard())
    func anInterruptStopsANestedSubquery() throws {
        let predicate = try CompiledPredicate(PredicateNode(format: Self.nested(depth: 41, innermost: "$v41 == $v1", outermost: "pair")))
        let flag = Atomic<Bool>(false)
        let thread = Thread {
            usleep(100_000)
            flag.store(true, ordering: .relaxed)
        }
        thread.start()
        var caught: EvaluationError?
        do {
            _ = try EvaluationBudget.isInterruptedScope.withValue({ flag.load(ordering: .relaxed) }) { try predicate.evaluate(Self.object) }
        } catch let error as EvaluationError {
            caught = error
        }
        #expect(caught?.code == .interrupted, "\(String(describing: caught))")
    }
}
