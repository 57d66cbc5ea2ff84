import Foundation
import SiftLanguage

/// A predicate compiled once for evaluating on many objects (NSPredicate's
/// `evaluate(with:)`): key paths are resolved, regular expressions compiled and constants
/// converted ahead of time. Immutable and `Sendable`: one compiled predicate may be evaluated
/// from many threads at once.
///
///     let adults = try CompiledPredicate(format: "age >= %@ AND name BEGINSWITH[c] 'a'", 18)
///     try adults.evaluate(.dictionary(["age": .int(30), "name": .string("Ann")]))   // true
public struct CompiledPredicate: Sendable {
    /// The predicate this was compiled from.
    public let predicate: PredicateNode
    let body: PredicateClosure

    /// Compiles a parsed predicate. Errors that do not depend on the data (an invalid constant
    /// regular expression, an unknown CAST type, arithmetic on string constants) are thrown here.
    public init(_ predicate: PredicateNode) throws(EvaluationError) {
        self.predicate = predicate
        self.body = try PredicateCompiler().compile(predicate)
    }

    /// Parses and compiles a format string: `%@`/`%K` bound from `arguments`, `$variables`
    /// from `variables`. Throws ``ParseError`` or ``EvaluationError``.
    public init(format: String, arguments: [Any?], variables: [String: Any?] = [:]) throws {
        var parsed = try PredicateNode(format: format, arguments: arguments)
        if !variables.isEmpty { parsed = try parsed.substituting(variables: variables) }
        try self.init(parsed)
    }

    /// Variadic arguments: `try CompiledPredicate(format: "age > %@", 30)`.
    public init(format: String, _ arguments: Any?...) throws {
        try self.init(format: format, arguments: arguments)
    }

    /// Whether `object` satisfies the predicate. `variables` binds `$variables` still free in it.
    public func evaluate(_ object: Value, variables: [String: Value] = [:]) throws(EvaluationError) -> Bool {
        var frame = Frame(variables: variables)
        return try body(object, &frame)
    }

    /// The objects that satisfy the predicate, in order (NSArray's `filtered(using:)`).
    public func filter(_ objects: [Value]) throws(EvaluationError) -> [Value] {
        var result: [Value] = []
        for object in objects where try evaluate(object) { result.append(object) }
        return result
    }
}

/// An expression compiled once for evaluating on many objects (a sort key, a property to fetch).
public struct CompiledExpression: Sendable {
    public let expression: ExpressionNode
    let body: ExpressionClosure

    public init(_ expression: ExpressionNode) throws(EvaluationError) {
        self.expression = expression
        self.body = try PredicateCompiler().compile(expression)
    }

    /// Parses and compiles an expression such as `items.@sum.price` or `tags[FIRST].name`.
    public init(format: String, arguments: [Any?] = []) throws {
        try self.init(try ExpressionNode(format: format, arguments: arguments))
    }

    public func evaluate(_ object: Value, variables: [String: Value] = [:]) throws(EvaluationError) -> Value {
        var frame = Frame(variables: variables)
        return try body(object, &frame)
    }
}

extension CompiledExpression {
    /// The value of an expression made only of constants (``ExpressionNode/isConstantExpression``),
    /// computed as the evaluator folds it when it compiles; nil if it reads data.
    package static func constantValue(of expression: ExpressionNode) throws(EvaluationError) -> Value? {
        try PredicateCompiler().constantValue(expression)
    }
}

/// The variables one evaluation has bound so far (arguments of `evaluate`, SUBQUERY's
/// variable, assignments).
struct Frame {
    var variables: [String: Value]
}

/// A compiled predicate or expression: called with the evaluated object (`SELF`; a SUBQUERY's
/// element inside its predicate) and the frame. The object is a parameter rather than part of
/// the frame so that evaluating does not copy it.
typealias PredicateClosure = @Sendable (_ root: Value, _ frame: inout Frame) throws(EvaluationError) -> Bool
typealias ExpressionClosure = @Sendable (_ root: Value, _ frame: inout Frame) throws(EvaluationError) -> Value
