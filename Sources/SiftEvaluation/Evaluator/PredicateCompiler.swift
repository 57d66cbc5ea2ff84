import SiftLanguage

/// Turns ASTs into closure trees. (Being written.)
struct PredicateCompiler {
    func compile(_ predicate: PredicateNode) throws(EvaluationError) -> PredicateClosure {
        throw EvaluationError(.unsupported, "the evaluator is not written yet")
    }

    func compile(_ expression: ExpressionNode) throws(EvaluationError) -> ExpressionClosure {
        throw EvaluationError(.unsupported, "the evaluator is not written yet")
    }
}
