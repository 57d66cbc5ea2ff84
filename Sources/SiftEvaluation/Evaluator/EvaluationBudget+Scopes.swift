extension EvaluationBudget {
    /// What bounds this thread's evaluations — the SUBQUERY budget, the interrupt check and the
    /// memory limit its innermost `withValue` calls set — taken to another thread, where
    /// ``apply(_:)`` sets the same for a call: evaluations that a fetch runs on several
    /// threads are bound as on the thread that runs the fetch.
    package struct Scopes: Sendable {
        let subqueryTestLimit: Int
        let isInterrupted: (@Sendable () -> Bool)?
        let memoryLimit: Int?

        /// This thread's.
        package static var current: Scopes {
            Scopes(subqueryTestLimit: EvaluationBudget.subqueryTestLimit, isInterrupted: EvaluationBudget.isInterrupted,
                   memoryLimit: EvaluationBudget.memoryLimitScope.value)
        }

        /// Runs `body` with these scopes set on this thread.
        package func apply<R, Failure: Error>(_ body: () throws(Failure) -> R) throws(Failure) -> R {
            try EvaluationBudget.subqueryTestLimitScope.withValue(subqueryTestLimit) { () throws(Failure) -> R in
                try EvaluationBudget.isInterruptedScope.withValue(isInterrupted) { () throws(Failure) -> R in
                    try EvaluationBudget.memoryLimitScope.withValue(memoryLimit, body)
                }
            }
        }
    }
}
