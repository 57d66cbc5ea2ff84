/// An error evaluating a predicate: an unbound variable, an invalid regular expression, an
/// unknown key on a record, a type error. It names the key path and the value kinds involved.
public struct EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case typeMismatch, unboundVariable, invalidRegularExpression, regularExpressionLimit
            case unknownKey, unsupported, invalidCast, invalidArgument, interrupted, workLimit, memoryLimit
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// An operator or function applied to kinds it does not take (`"a" + 1`, `~2.5`).
        public static let typeMismatch = Code(.typeMismatch)
        /// A `$variable` with no value.
        public static let unboundVariable = Code(.unboundVariable)
        /// A MATCHES pattern PCRE2 cannot compile.
        public static let invalidRegularExpression = Code(.invalidRegularExpression)
        /// A MATCHES that hit the backtracking limit.
        public static let regularExpressionLimit = Code(.regularExpressionLimit)
        /// A key the object's entity does not have.
        public static let unknownKey = Code(.unknownKey)
        /// A construct Sift parses but cannot evaluate (a FUNCTION selector it does not know, UTI operators).
        public static let unsupported = Code(.unsupported)
        /// A CAST that cannot convert its value.
        public static let invalidCast = Code(.invalidCast)
        /// An argument or variable value that cannot be used.
        public static let invalidArgument = Code(.invalidArgument)
        /// The store was asked to stop (its `interrupt()`, Ctrl-C in the REPL) while the
        /// evaluator read from it; stores report it as their own `interrupted` error.
        public static let interrupted = Code(.interrupted)
        /// An evaluation that needed more work than ``EvaluationBudget`` allows (nested
        /// SUBQUERY expressions over large collections).
        public static let workLimit = Code(.workLimit)
        /// A result that needed more memory than ``EvaluationBudget/memoryLimit`` allows (sections
        /// over a key with very many values, a large import into a store held in memory).
        public static let memoryLimit = Code(.memoryLimit)

        public var description: String { value.rawValue }
    }

    public let code: Code
    /// What is wrong, naming the key path and the value kinds.
    public let message: String
    /// The key path or expression involved, in canonical form, if any.
    public let keyPath: String?

    public init(_ code: Code, _ message: String, keyPath: String? = nil) {
        self.code = code
        self.message = message
        self.keyPath = keyPath
    }

    public var description: String { message }
}
