import SiftLanguage

/// The commonest comparisons, made fast: one key of the evaluated object compared with a
/// constant single value, with or without a qualifier (`age > 30`, `name BEGINSWITH[cd] "st"`,
/// `ANY tags == "x"`). The key is read in place (no closures, no copy of the object, no array
/// for a to-many key's elements); integers, doubles and option-less strings are ordered
/// directly, and a string test's constant is prepared once (``PreparedNeedle``). Anything else —
/// other kinds, a collection without a qualifier (implicit ANY, membership) — goes through the
/// general test, so the answers are exactly the general path's.
final class KeyComparison: Sendable {
    enum Relation: Sendable { case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual }
    /// The constant in the form the fast tests use.
    enum Constant: Sendable { case int(Int64), double(Double), string(String), other }

    let key: PreparedKey
    let modifier: ComparisonModifier
    /// The order an ordering operator accepts; nil for the other operators.
    let relation: Relation?
    let op: ComparisonOperator
    let options: ComparisonOptions
    let constant: Value
    let fastConstant: Constant
    /// A string test's constant, prepared (read through optional chaining, in place: binding it
    /// would copy it on every evaluation).
    let needle: PreparedNeedle?
    let test: ComparisonCompiler.PairTest
    /// The test's answer for a nil value (or element).
    let nilAnswer: Bool
    /// Where the key was last found in a dictionary, by the dictionary's shape.
    let slots = KeySlotCache()
    /// ``ValueInPlace/arrayStorageIsKnown``, read once here rather than on every evaluation.
    let readsArraysInPlace = ValueInPlace.arrayStorageIsKnown

    /// Nil when the comparison does not have this shape.
    init?(_ c: Comparison, constant: Value, options: ComparisonOptions, test: @escaping ComparisonCompiler.PairTest) throws(EvaluationError) {
        guard case .keyPath(nil, let keys) = c.left.kind, keys.count == 1, !keys[0].hasPrefix("@"), !constant.isCollection
        else { return nil }
        switch c.operator {
        case .equalTo: relation = .equal
        case .notEqualTo: relation = .notEqual
        case .lessThan: relation = .less
        case .lessThanOrEqualTo: relation = .lessOrEqual
        case .greaterThan: relation = .greater
        case .greaterThanOrEqualTo: relation = .greaterOrEqual
        case .beginsWith, .endsWith, .contains, .like, .matches, .in, .between, .utiConformsTo, .utiEquals: relation = nil
        }
        key = PreparedKey(keys[0])
        modifier = c.modifier
        op = c.operator
        self.options = options
        self.constant = constant
        self.test = test
        var needle: PreparedNeedle?
        switch (constant, c.operator) {
        case (.int(let i), _) where relation != nil: fastConstant = .int(i)
        case (.double(let d), _) where relation != nil: fastConstant = .double(d)
        case (.string(let s), _) where relation != nil && options.isEmpty: fastConstant = .string(s)
        case (.string(let s), .equalTo), (.string(let s), .notEqualTo):
            fastConstant = .other
            needle = PreparedNeedle(.equals, s, options: options)
        case (.string(let s), .beginsWith): fastConstant = .other; needle = PreparedNeedle(.beginsWith, s, options: options)
        case (.string(let s), .endsWith): fastConstant = .other; needle = PreparedNeedle(.endsWith, s, options: options)
        case (.string(let s), .contains): fastConstant = .other; needle = PreparedNeedle(.contains, s, options: options)
        default: fastConstant = .other
        }
        self.needle = needle
        nilAnswer = try test(.null, constant)
    }

    /// Whether `root` satisfies the comparison.
    @inline(__always)
    func evaluate(_ root: Value) throws(EvaluationError) -> Bool {
        if case .dictionary(let dictionary) = root {
            guard let position = dictionary.position(of: key, cache: slots) else { return try evaluate(value: .null) }
            return try evaluate(value: dictionary.value(at: position))
        }
        return try evaluate(value: try KeyValueAccess.value(of: root, forKey: key))
    }

    /// Whether the value at `address` satisfies the comparison: an integer or a double compared
    /// with a number is read in place (no copy of the `Value`); anything else as
    /// ``evaluate(value:)`` does.
    @inline(__always)
    func evaluate(valueAt address: UnsafePointer<Value>) throws(EvaluationError) -> Bool {
        switch modifier {
        case .direct:
            switch fastConstant {
            case .int(let y):
                if case .int(let x) = address.pointee { return accept(x < y ? -1 : (x == y ? 0 : 1)) }
            case .double(let y):
                if case .int(let x) = address.pointee { return accept(ValueComparison.compareIntDouble(x, y)) }
            default:
                break
            }
        case .any:
            if let some = try someElement(at: address, where: true) { return some }
        case .all:
            if let some = try someElement(at: address, where: false) { return !some }
        case .none:
            if let some = try someElement(at: address, where: true) { return !some }
        }
        return try evaluate(value: address.pointee)
    }

    /// ``someElement(of:where:)`` on the array or set at `address`, its elements read in place;
    /// nil for other values.
    @inline(__always)
    private func someElement(at address: UnsafePointer<Value>, where answer: Bool) throws(EvaluationError) -> Bool? {
        try ValueInPlace.withElements(at: address, layoutIsKnown: readsArraysInPlace) { (elements: UnsafeBufferPointer<Value>) throws(EvaluationError) -> Bool in
            for element in elements where try single(element) == answer { return true }
            return false
        }
    }

    /// Whether the key's value satisfies the comparison.
    @inline(__always)
    func evaluate(value: Value) throws(EvaluationError) -> Bool {
        switch modifier {
        case .direct:
            // A collection is an implicit ANY, or membership (see `ComparisonCompiler.direct`).
            if value.isCollection { return try ComparisonCompiler.direct(op, options: options, value, constant, test) }
            return try single(value)
        case .any: return try someElement(of: value, where: true)
        case .all: return try !someElement(of: value, where: false)
        case .none: return try !someElement(of: value, where: true)
        }
    }

    /// The to-many comparison's answer (ANY, ALL, NONE) over a collection's elements, each read
    /// as `value` gives it: `someElement(of:where:)`'s answers, without a `Value` of the whole.
    @inline(__always)
    func holds<Elements: Sequence>(over elements: Elements, as value: (Elements.Element) -> Value) throws(EvaluationError) -> Bool {
        switch modifier {
        case .any, .direct:
            for element in elements where try single(value(element)) { return true }
            return false
        case .all:
            for element in elements where !(try single(value(element))) { return false }
            return true
        case .none:
            for element in elements where try single(value(element)) { return false }
            return true
        }
    }

    /// Whether some element of a to-many value (`Functions.elements`: nil is empty, a single
    /// value is one element, a dictionary's elements are its values) has the test's answer
    /// `answer`, read in place.
    @inline(__always)
    func someElement(of value: Value, where answer: Bool) throws(EvaluationError) -> Bool {
        switch value {
        case .array(let elements), .set(let elements):
            for element in elements where try single(element) == answer { return true }
            return false
        case .dictionary(let dictionary):
            return try dictionary.containsValue { (element: Value) throws(EvaluationError) -> Bool in try single(element) == answer }
        case .null:
            return false
        default:
            return try single(value) == answer
        }
    }

    /// The test on one value (an element, or a single value), with the commonest kinds
    /// compared directly.
    @inline(__always)
    func single(_ value: Value) throws(EvaluationError) -> Bool {
        switch value {
        case .null:
            return nilAnswer
        case .int(let x):
            switch fastConstant {
            case .int(let y): return accept(x < y ? -1 : (x == y ? 0 : 1))
            case .double(let y): return accept(ValueComparison.compareIntDouble(x, y))
            default: break
            }
        case .double(let x):
            switch fastConstant {
            case .double(let y): return accept(x < y ? -1 : (x > y ? 1 : (x == y ? 0 : nil)))
            case .int(let y): return accept(ValueComparison.compareIntDouble(y, x).map { -$0 })
            default: break
            }
        case .string(let x):
            switch fastConstant {
            case .string(let y):
                switch relation {
                case .equal: return x == y
                case .notEqual: return x != y
                default: return accept(StringPredicates.compare(x, y))
                }
            default:
                if let matches = needle?.matches(x) { return op == .notEqualTo ? !matches : matches }
            }
        default:
            break
        }
        return try test(value, constant)
    }

    /// The relation's answer for an order (-1, 0, 1), or for no order (nil: NaN), where only
    /// `!=` holds.
    @inline(__always)
    private func accept(_ order: Int?) -> Bool {
        guard let order else { return relation == .notEqual }
        switch relation {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        case nil: return false
        }
    }
}
