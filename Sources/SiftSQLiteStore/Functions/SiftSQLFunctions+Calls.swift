import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite

extension SiftSQLFunctions {
    /// A function implementation looked up once per statement, kept as SQLite auxiliary data on
    /// the selector argument.
    final class ResolvedCall {
        let selector: String
        let kinds: String
        let argumentKinds: [SQLArgumentKind]
        let implementation: Functions.Implementation

        init(selector: String, kinds: String, argumentKinds: [SQLArgumentKind], implementation: @escaping Functions.Implementation) {
            self.selector = selector
            self.kinds = kinds
            self.argumentKinds = argumentKinds
            self.implementation = implementation
        }
    }

    /// `sift_call(selector, kinds, argument…)`: the evaluator's own implementation of a function
    /// of LANGUAGE.md §6 (`Functions.implementation`), with each argument read back as the
    /// evaluator's value by its letter in `kinds` (``SQLArgumentKind``), and the result stored as
    /// a column of its kind would hold it (``ColumnCodec/encode(_:)``: text NFC, dates as seconds).
    /// An error of the implementation fails the statement with the evaluator's `EvaluationError`.
    ///
    /// `sift_cast(value, kind, type)`: `CAST(value, type)` by the evaluator's `Cast.convert`.
    static func registerCalls(on database: SQLiteDatabase) throws(SQLiteError) {
        try database.createFunction(callFunction, argumentCount: -1) { call in
            let resolved = try resolvedCall(call)
            var arguments: [Value] = []
            arguments.reserveCapacity(resolved.argumentKinds.count)
            for (offset, kind) in resolved.argumentKinds.enumerated() {
                arguments.append(kind.value(of: call.value(offset + 2)))
            }
            return ColumnCodec.sqliteEncoded(try resolved.implementation(arguments))
        }
        try database.createFunction(castFunction, argumentCount: 3) { call in
            guard call.type(1) == .text, let kinds = SQLArgumentKind.parse(call.text(1)), kinds.count == 1,
                  call.type(2) == .text, let type = CastType(name: call.text(2)) else {
                throw EvaluationError(.invalidArgument, "\(castFunction)(value, kind, type): kind must be one argument kind letter and type a CAST type")
            }
            return ColumnCodec.sqliteEncoded(try Cast.convert(kinds[0].value(of: call.value(0)), to: type, expression: "CAST(…, \"\(type.name)\")"))
        }
    }

    /// The call's selector, argument kinds and implementation, from the auxiliary data when they
    /// were resolved for the same selector and kinds.
    private static func resolvedCall(_ call: SQLiteFunctionCall) throws(EvaluationError) -> ResolvedCall {
        guard call.argumentCount >= 2, call.type(0) == .text, call.type(1) == .text else {
            throw EvaluationError(.invalidArgument, "\(callFunction)(selector, kinds, argument…): the selector and the kinds must be text")
        }
        if let cached = call.auxiliaryData(for: 0) as? ResolvedCall,
           StringFunctionArguments.argument(call, 0, hasBytesOf: cached.selector),
           StringFunctionArguments.argument(call, 1, hasBytesOf: cached.kinds) {
            return cached
        }
        let selector = call.text(0), kinds = call.text(1)
        guard let argumentKinds = SQLArgumentKind.parse(kinds), argumentKinds.count == call.argumentCount - 2 else {
            throw EvaluationError(.invalidArgument, "\(callFunction): the kinds '\(kinds)' do not describe its \(call.argumentCount - 2) arguments")
        }
        // A function whose result depends on more than its arguments is never called from SQL (the
        // functions are registered deterministic, and the evaluator calls it once per row).
        guard let function = BuiltinFunction(selector: selector), function.arity == argumentKinds.count,
              !function.dependsOnMoreThanArguments else {
            throw EvaluationError(.invalidArgument, "\(callFunction): '\(selector)' is not a deterministic function of \(argumentKinds.count) arguments")
        }
        let implementation = Functions.implementation(function, expression: "\(selector)(…)")
        let resolved = ResolvedCall(selector: selector, kinds: kinds, argumentKinds: argumentKinds, implementation: implementation)
        call.setAuxiliaryData(resolved, for: 0)
        return resolved
    }
}
