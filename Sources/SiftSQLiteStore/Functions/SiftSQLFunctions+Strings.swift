import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite

extension SiftSQLFunctions {
    /// `sift_fold` and the comparisons `sift_equals`, `sift_compare`, `sift_beginswith`,
    /// `sift_endswith`, `sift_contains`.
    static func registerStringFunctions(on database: SQLiteDatabase) throws(SQLiteError) {
        try database.createFunction(foldFunction, argumentCount: 2) { call in
            let options = try StringFunctionArguments.options(call, at: 1, function: foldFunction)
            guard call.type(0) == .text else { return call.value(0) }
            return .text(StringFolding.fold(call.text(0), options: options))
        }
        try database.createFunction(compareFunction, argumentCount: 3) { call in
            let options = try StringFunctionArguments.options(call, at: 2, function: compareFunction)
            // Like ValueComparison.order: no order (NULL) unless both are strings.
            switch StringFunctionArguments.operands(call, nonText: .null) {
            case .result(let result): return result
            case let .text(a, b): return .integer(Int64(StringPredicates.compare(a, b, options: options)))
            }
        }
        try registerStringTest(equalsFunction, on: database) { StringPredicates.equals($0, $1, options: $2) }
        try registerStringTest(beginsWithFunction, on: database) { StringPredicates.beginsWith($0, $1, options: $2) }
        try registerStringTest(endsWithFunction, on: database) { StringPredicates.endsWith($0, $1, options: $2) }
        try registerStringTest(containsFunction, on: database) { StringPredicates.contains($0, $1, options: $2) }
    }

    /// A function `name(a, b, options)` giving 1/0 from `test` on two strings, NULL when either
    /// is NULL, 0 when either is not text.
    private static func registerStringTest(
        _ name: String, on database: SQLiteDatabase,
        _ test: @escaping (String, String, ComparisonOptions) -> Bool
    ) throws(SQLiteError) {
        try database.createFunction(name, argumentCount: 3) { call in
            let options = try StringFunctionArguments.options(call, at: 2, function: name)
            switch StringFunctionArguments.operands(call, nonText: .integer(0)) {
            case .result(let result): return result
            case let .text(a, b): return .integer(test(a, b, options) ? 1 : 0)
            }
        }
    }
}
