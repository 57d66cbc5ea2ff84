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
    /// The same predicate for roots that read their own keys, when it only compares keys of the
    /// object with constants (see ``KeyedPlan``).
    let plan: KeyedPlan?
    /// Whether the plan reads dictionaries where they lie: there is a plan, and the layout
    /// ``ValueInPlace/dictionaryIsFirstWord`` checks is this process's. (Kept here, read once at
    /// compile time: reading the static is a call, `swift_once`, on every evaluation.)
    let readsDictionariesInPlace: Bool

    /// Compiles a parsed predicate. Errors that do not depend on the data (an invalid constant
    /// regular expression, an unknown CAST type, arithmetic on string constants) are thrown here.
    public init(_ predicate: PredicateNode) throws(EvaluationError) {
        self.predicate = predicate
        self.body = try PredicateCompiler().compile(predicate)
        self.plan = try KeyedPlan.make(predicate, compiler: PredicateCompiler())
        self.readsDictionariesInPlace = plan != nil && ValueInPlace.dictionaryIsFirstWord
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
    ///
    /// Inlinable, so that a caller's loop hands over the object where it lies: the rest is
    /// `evaluate(at:variables:)`.
    @inlinable
    public func evaluate(_ object: Value, variables: [String: Value] = [:]) throws(EvaluationError) -> Bool {
        try withUnsafePointer(to: object) { (address: UnsafePointer<Value>) throws(EvaluationError) -> Bool in
            try evaluate(at: address, variables: variables)
        }
    }

    /// Whether the object at `address` satisfies the predicate. A dictionary is read in place:
    /// taking it out of the value would copy it (a retain and a release of the record per
    /// evaluation).
    @usableFromInline
    func evaluate(at address: UnsafePointer<Value>, variables: [String: Value]) throws(EvaluationError) -> Bool {
        // Optional chaining calls the plan where it is stored (`if let` would copy it on every
        // evaluation).
        if readsDictionariesInPlace {
            if let dictionary = ValueInPlace.dictionary(at: address, layoutIsKnown: true), let answer = try plan?.dictionaryTest(dictionary) { return answer }
        } else if plan != nil, case .dictionary(let dictionary) = address.pointee,
                  let answer = try dictionary.withBorrowed({ (view: BorrowedDictionary) throws(EvaluationError) -> Bool? in try plan?.dictionaryTest(view) }) {
            return answer
        }
        var frame = Frame(variables: variables)
        return try body(address.pointee, &frame)
    }

    /// Whether a queryable Swift value satisfies the predicate: the answer of
    /// `evaluate(Value(object))`, without wrapping the value when the predicate only compares its
    /// keys with constants (`age > 30`, `ANY tags == "x"`): then its properties are read in place.
    ///
    /// Inlinable, so that the caller's specialisation takes the value's address without its
    /// type's value witnesses; the rest is `queryableAnswer(at:keys:)`.
    @inlinable
    public func evaluate<T: PredicateQueryable>(_ object: T) throws(EvaluationError) -> Bool {
        let keys = T.queryableKeys
        let answer = try withUnsafePointer(to: object) { (address: UnsafePointer<T>) throws(EvaluationError) -> Bool? in
            try queryableAnswer(at: UnsafeRawPointer(address), keys: keys)
        }
        if let answer { return answer }
        return try evaluate(object.predicateValue)
    }

    /// The plan's answer for the queryable value at `address` (nil without a plan: the value is
    /// then wrapped and evaluated by the closure tree).
    @usableFromInline
    func queryableAnswer<T>(at address: UnsafeRawPointer, keys: QueryableKeys<T>) throws(EvaluationError) -> Bool? {
        try plan?.queryableTest(QueryableRoot(address: address, table: keys.table))
    }

    /// The objects that satisfy the predicate, in order (NSArray's `filtered(using:)`). Each
    /// object is read where it lies in the array (copying it out to evaluate it would retain and
    /// release it); only the matches are copied into the result.
    public func filter(_ objects: [Value]) throws(EvaluationError) -> [Value] {
        var result: [Value] = []
        try objects.withUnsafeBufferPointer { (elements: UnsafeBufferPointer<Value>) throws(EvaluationError) in
            guard let first = elements.baseAddress else { return }
            for i in elements.indices where try evaluate(at: first + i, variables: [:]) { result.append(elements[i]) }
        }
        return result
    }

    /// The positions of the objects that satisfy the predicate, in order
    /// (`NSArray.indexesOfObjects(passingTest:)`). Each object is read where it lies, as
    /// ``filter(_:)->[Value]`` reads it, and nothing is copied: a loop that evaluates `objects[i]` one by
    /// one retains and releases every record it passes to ``evaluate(_:variables:)``.
    public func matchingIndices(in objects: [Value]) throws(EvaluationError) -> [Int] {
        var result: [Int] = []
        try objects.withUnsafeBufferPointer { (elements: UnsafeBufferPointer<Value>) throws(EvaluationError) in
            guard let first = elements.baseAddress else { return }
            for i in elements.indices where try evaluate(at: first + i, variables: [:]) { result.append(i) }
        }
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
/// variable, assignments), and the SUBQUERY elements it has tested (``EvaluationBudget``).
struct Frame {
    var variables: [String: Value]
    var subqueryTests = 0

    init(variables: [String: Value]) {
        self.variables = variables
    }
}

/// A compiled predicate or expression: called with the evaluated object (`SELF`; a SUBQUERY's
/// element inside its predicate) and the frame. The object is a parameter rather than part of
/// the frame so that evaluating does not copy it.
typealias PredicateClosure = @Sendable (_ root: Value, _ frame: inout Frame) throws(EvaluationError) -> Bool
typealias ExpressionClosure = @Sendable (_ root: Value, _ frame: inout Frame) throws(EvaluationError) -> Value
