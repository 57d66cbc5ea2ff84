import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite

extension SiftSQLFunctions {
    /// A compiled MATCHES expression kept as SQLite auxiliary data on the pattern argument.
    final class CompiledMatches {
        let pattern: String
        let options: ComparisonOptions
        let expression: RegularExpression

        init(pattern: String, options: ComparisonOptions, expression: RegularExpression) {
            self.pattern = pattern
            self.options = options
            self.expression = expression
        }
    }

    /// `sift_matches(a, pattern, options)`: `RegularExpression`, which applies the options as the
    /// evaluator does (`[c]` caseless, `[d]` folds only the subject, `[n]` literal). A text pattern
    /// is compiled (through the evaluator's shared cache, then kept as auxiliary data on argument 1)
    /// before the subject is looked at, so an invalid pattern is an error even on NULL subjects, as
    /// a constant pattern is in the evaluator; the error is the evaluator's `EvaluationError`.
    static func registerMatches(on database: SQLiteDatabase) throws(SQLiteError) {
        try database.createFunction(matchesFunction, argumentCount: 3) { call in
            let options = try StringFunctionArguments.options(call, at: 2, function: matchesFunction)
            let expression = try compiledExpression(call, options: options)
            switch StringFunctionArguments.operands(call, nonText: .integer(0)) {
            case .result(let result):
                return result
            case .text(let subject, _):
                guard let expression else { return .integer(0) }
                return .integer(try expression.matches(subject) ? 1 : 0)
            }
        }
    }

    /// The expression for a text pattern (argument 1), from the auxiliary data when it was compiled
    /// for the same pattern bytes and options; nil when the pattern is not text.
    private static func compiledExpression(_ call: SQLiteFunctionCall, options: ComparisonOptions) throws(EvaluationError) -> RegularExpression? {
        guard call.type(1) == .text else { return nil }
        if let cached = call.auxiliaryData(for: 1) as? CompiledMatches, cached.options == options,
           StringFunctionArguments.argument(call, 1, hasBytesOf: cached.pattern) {
            return cached.expression
        }
        let pattern = call.text(1)
        let expression = try RegularExpression.cached(pattern: pattern, options: options)
        call.setAuxiliaryData(CompiledMatches(pattern: pattern, options: options, expression: expression), for: 1)
        return expression
    }
}
