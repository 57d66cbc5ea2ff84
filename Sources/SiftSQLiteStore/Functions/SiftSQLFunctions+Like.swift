import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite

extension SiftSQLFunctions {
    /// A compiled LIKE pattern kept as SQLite auxiliary data on the pattern argument.
    final class CompiledLike {
        let pattern: LikePattern
        init(_ pattern: LikePattern) { self.pattern = pattern }
    }

    /// `sift_like(a, pattern, options)`: `LikePattern`, compiled once per statement for a constant
    /// pattern (auxiliary data on argument 1, reused only for the same pattern bytes and options).
    static func registerLike(on database: SQLiteDatabase) throws(SQLiteError) {
        try database.createFunction(likeFunction, argumentCount: 3) { call in
            let options = try StringFunctionArguments.options(call, at: 2, function: likeFunction)
            switch StringFunctionArguments.operands(call, nonText: .integer(0)) {
            case .result(let result):
                return result
            case let .text(subject, patternText):
                let pattern: LikePattern
                if let cached = call.auxiliaryData(for: 1) as? CompiledLike, cached.pattern.options == options,
                   StringFunctionArguments.argument(call, 1, hasBytesOf: cached.pattern.pattern) {
                    pattern = cached.pattern
                } else {
                    pattern = LikePattern(patternText, options: options)
                    call.setAuxiliaryData(CompiledLike(pattern), for: 1)
                }
                return .integer(pattern.matches(subject) ? 1 : 0)
            }
        }
    }
}
