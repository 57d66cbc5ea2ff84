/// The work one evaluation may do, and how a store stops it.
///
/// A SUBQUERY tests its predicate on every element of its collection, so nested SUBQUERY
/// expressions multiply: `SUBQUERY({1, 2, 3}, $a, SUBQUERY({1, 2, 3}, $b, …).@count > 0)`
/// nested 20 deep tests 3²⁰ elements. One evaluation of a predicate or expression on one object
/// (``CompiledPredicate/evaluate(_:variables:)``, ``CompiledExpression/evaluate(_:variables:)``)
/// may test at most ``subqueryTests`` SUBQUERY elements; past that it throws an
/// ``EvaluationError`` with code ``EvaluationError/Code/workLimit`` instead of running for
/// hours. A fetch that evaluates many objects has that budget for each of them.
///
/// While a store's fetch or change runs, its `interrupt()` (Ctrl-C in the REPL) also stops
/// an evaluation that is deep in a SUBQUERY or an aggregate, with
/// ``EvaluationError/Code/interrupted``.
public enum EvaluationBudget {
    /// The most SUBQUERY elements one evaluation on one object tests: 10,000,000 (a few seconds
    /// of work).
    public static let subqueryTests = 10_000_000

    /// The budget evaluations have now: ``subqueryTests``, or less where a test sets it.
    package static var subqueryTestLimit: Int { subqueryTestLimitScope.value }
    /// Sets ``subqueryTestLimit`` for a call (`withValue`).
    package static let subqueryTestLimitScope = ThreadScoped(subqueryTests)

    /// How many steps a long loop of the evaluator takes between two checks for an interrupt
    /// (a power of two).
    package static let checkInterval = 4096

    /// Whether the fetch or change the evaluator works for was asked to stop; set by the
    /// stores while one runs.
    package static var isInterrupted: (@Sendable () -> Bool)? { isInterruptedScope.value }
    /// Sets ``isInterrupted`` for a call (`withValue`).
    package static let isInterruptedScope = ThreadScoped<(@Sendable () -> Bool)?>(nil)

    /// Throws ``EvaluationError/Code/interrupted`` when the fetch or change running was asked
    /// to stop.
    package static func checkInterruption() throws(EvaluationError) {
        if let isInterrupted, isInterrupted() {
            throw EvaluationError(.interrupted, "interrupted")
        }
    }

    /// Counts one SUBQUERY element test of the evaluation `frame` belongs to: throws past the
    /// budget, or when interrupted.
    @inline(__always)
    static func countSubqueryTest(_ frame: inout Frame, subquery: @autoclosure () -> String) throws(EvaluationError) {
        frame.subqueryTests &+= 1
        guard frame.subqueryTests & (checkInterval - 1) == 0 else { return }
        let limit = subqueryTestLimit
        if frame.subqueryTests > limit {
            throw EvaluationError(.workLimit, """
                the evaluation needs more than \(limit.formatted()) SUBQUERY element tests on one object \
                (nested SUBQUERY multiplies the sizes of its collections): stopped; nest fewer SUBQUERY \
                expressions, or move what does not depend on the outer element out of the inner one
                """, keyPath: subquery())
        }
        try checkInterruption()
    }
}

extension Int {
    /// `10,000,000`.
    package func formatted() -> String {
        let digits = Array(String(self))
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
