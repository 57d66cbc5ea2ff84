import SiftLanguage

/// Compiles comparison predicates (LANGUAGE.md §3–5).
///
/// A comparison is a test on one pair of values (``PairTest``), applied:
/// - with `ANY`/`SOME`, `ALL`, `NONE`: to each element of the left collection (nil is empty,
///   a single value a collection of one) — empty gives false, true, true;
/// - without a qualifier: to the pair, except that a collection on one side (a key path across
///   a to-many relationship or an array) compared with a single value on the other is an
///   implicit `ANY` over its elements (`tags.name != "x"` is `ANY tags.name != "x"`), while
///   `CONTAINS` with a collection on the left and `IN` with one on the right are membership.
struct ComparisonCompiler {
    let compiler: PredicateCompiler

    typealias PairTest = @Sendable (Value, Value) throws(EvaluationError) -> Bool

    func compile(_ c: Comparison) throws(EvaluationError) -> PredicateClosure {
        let description = PredicateNode(.comparison(c)).description
        if c.operator == .utiConformsTo || c.operator == .utiEquals {
            throw EvaluationError(.unsupported, "\(c.operator.symbol) is not supported on Linux (there are no UTIs)", keyPath: description)
        }
        let leftConstant = try compiler.constantValue(c.left)
        let rightConstant = try compiler.constantValue(c.right)
        try checkTypes(c, leftConstant, rightConstant, description: description)
        let test = try pairTest(c.operator, options: effectiveOptions(c.options), constantRight: rightConstant, description: description)
        let left = try compiler.compile(c.left)
        let right = try compiler.compile(c.right)

        switch c.modifier {
        case .any:
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in
                let l = try left(root, &frame), r = try right(root, &frame)
                for element in Functions.elements(l) where try test(element, r) { return true }
                return false
            }
        case .all:
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in
                let l = try left(root, &frame), r = try right(root, &frame)
                for element in Functions.elements(l) where !(try test(element, r)) { return false }
                return true
            }
        case .none:
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in
                let l = try left(root, &frame), r = try right(root, &frame)
                for element in Functions.elements(l) where try test(element, r) { return false }
                return true
            }
        case .direct:
            let op = c.operator
            let options = effectiveOptions(c.options)
            if let constant = rightConstant, let fast = try KeyComparison(c, constant: constant, options: options, test: test) {
                return { (root: Value, _: inout Frame) throws(EvaluationError) -> Bool in try fast.evaluate(root) }
            }
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in
                try ComparisonCompiler.direct(op, options: options, try left(root, &frame), try right(root, &frame), test)
            }
        }
    }

    /// `[n]` wins over `[c]` and `[d]` and compares literally (LANGUAGE.md §4: both sides are
    /// promised to be normalised already, so no NFC either); `[l]` has no effect.
    private func effectiveOptions(_ options: ComparisonOptions) -> ComparisonOptions {
        options.contains(.normalized) ? .normalized : options.intersection([.caseInsensitive, .diacriticInsensitive])
    }

    /// An unqualified comparison of two values, with implicit ANY and membership.
    static func direct(_ op: ComparisonOperator, options: ComparisonOptions, _ l: Value, _ r: Value, _ test: PairTest) throws(EvaluationError) -> Bool {
        // Two single values (the usual case): the test itself.
        if !l.isCollection, op == .in || op == .between || !r.isCollection { return try test(l, r) }
        let leftElements = l.collectionElements
        switch op {
        case .contains:
            if let leftElements {
                return leftElements.contains { ValueComparison.equals($0, r, options: options) }
            }
        case .equalTo, .notEqualTo:
            if leftElements != nil, r.collectionElements != nil { return try test(l, r) }
        default:
            break
        }
        if let leftElements {
            for element in leftElements where try test(element, r) { return true }
            return false
        }
        // IN and BETWEEN take a right-hand collection as a whole (membership, bounds).
        if op != .in, op != .between, let rightElements = r.collectionElements {
            for element in rightElements where try test(l, element) { return true }
            return false
        }
        return try test(l, r)
    }

    /// An ordering comparison between constants of kinds with no common order is a type error
    /// now (it would be false on every object).
    private func checkTypes(_ c: Comparison, _ l: Value?, _ r: Value?, description: String) throws(EvaluationError) {
        guard let l, let r, !l.isNull, !r.isNull, l.collectionElements == nil, r.collectionElements == nil else { return }
        switch c.operator {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if ValueComparison.order(l, r) == nil {
                throw EvaluationError(.typeMismatch, "'\(c.operator.symbol)' cannot order \(l.kindName) and \(r.kindName) in '\(description)'", keyPath: description)
            }
        default: break
        }
    }

    /// Whether the order of two values satisfies `accept`; false when they have no common order.
    static func ordered(_ l: Value, _ r: Value, _ options: ComparisonOptions, _ accept: (Int) -> Bool) -> Bool {
        guard let order = ValueComparison.order(l, r, options: options) else { return false }
        return accept(order)
    }

    /// The test on one pair of values for an operator and its options.
    private func pairTest(_ op: ComparisonOperator, options: ComparisonOptions, constantRight: Value?, description: String) throws(EvaluationError) -> PairTest {
        switch op {
        case .equalTo:
            return { (l: Value, r: Value) -> Bool in ValueComparison.equals(l, r, options: options) }
        case .notEqualTo:
            return { (l: Value, r: Value) -> Bool in !ValueComparison.equals(l, r, options: options) }
        case .lessThan:
            return { (l: Value, r: Value) -> Bool in ComparisonCompiler.ordered(l, r, options) { (o: Int) -> Bool in o < 0 } }
        case .lessThanOrEqualTo:
            return { (l: Value, r: Value) -> Bool in ComparisonCompiler.ordered(l, r, options) { (o: Int) -> Bool in o <= 0 } }
        case .greaterThan:
            return { (l: Value, r: Value) -> Bool in ComparisonCompiler.ordered(l, r, options) { (o: Int) -> Bool in o > 0 } }
        case .greaterThanOrEqualTo:
            return { (l: Value, r: Value) -> Bool in ComparisonCompiler.ordered(l, r, options) { (o: Int) -> Bool in o >= 0 } }
        case .beginsWith, .endsWith, .contains:
            return { (l: Value, r: Value) -> Bool in
                guard case .string(let s) = l, case .string(let t) = r else { return false }
                switch op {
                case .beginsWith: return StringPredicates.beginsWith(s, t, options: options)
                case .endsWith: return StringPredicates.endsWith(s, t, options: options)
                default: return StringPredicates.contains(s, t, options: options)
                }
            }
        case .like:
            if case .string(let pattern)? = constantRight {
                let compiled = LikePattern(pattern, options: options)
                return { (l: Value, _: Value) -> Bool in
                    guard case .string(let s) = l else { return false }
                    return compiled.matches(s)
                }
            }
            return { (l: Value, r: Value) -> Bool in
                guard case .string(let s) = l, case .string(let pattern) = r else { return false }
                return LikePattern(pattern, options: options).matches(s)
            }
        case .matches:
            if case .string(let pattern)? = constantRight {
                let regex = try RegularExpression(pattern: pattern, options: options)
                return { (l: Value, _: Value) throws(EvaluationError) -> Bool in
                    guard case .string(let s) = l else { return false }
                    return try regex.matches(s)
                }
            }
            return { (l: Value, r: Value) throws(EvaluationError) -> Bool in
                guard case .string(let s) = l, case .string(let pattern) = r else { return false }
                return try RegularExpression.matches(s, pattern: pattern, options: options)
            }
        case .in:
            return { (l: Value, r: Value) -> Bool in
                switch r {
                case .array(let e), .set(let e): return e.contains { ValueComparison.equals(l, $0, options: options) }
                case .dictionary(let d): return d.values.contains { ValueComparison.equals(l, $0, options: options) }
                case .string(let t):
                    guard case .string(let s) = l else { return false }
                    return StringPredicates.contains(t, s, options: options)
                case .null: return false
                default: return ValueComparison.equals(l, r, options: options)
                }
            }
        case .between:
            return { (l: Value, r: Value) -> Bool in
                guard let bounds = r.collectionElements, bounds.count == 2,
                      let low = ValueComparison.order(bounds[0], l, options: options),
                      let high = ValueComparison.order(l, bounds[1], options: options)
                else { return false }
                return low <= 0 && high <= 0
            }
        case .utiConformsTo, .utiEquals:
            throw EvaluationError(.unsupported, "\(op.symbol) is not supported", keyPath: description)
        }
    }
}

extension Value {
    /// An array or a set (what ``collectionElements`` gives elements for), without copying them.
    @inline(__always)
    var isCollection: Bool {
        switch self {
        case .array, .set: true
        default: false
        }
    }
}

/// The commonest comparison, made fast: one key of the evaluated object compared with a
/// constant single value by `== != < <= > >=` without a qualifier (`age > 30`,
/// `name == "Ann"`). The key is read in place (no closures, no copy of the object) and
/// integers, doubles and option-less strings are compared directly; anything else — a
/// collection value (implicit ANY), other kinds, options — goes through the general test, so
/// the answers are exactly the general path's.
struct KeyComparison: Sendable {
    enum Relation: Sendable { case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual }
    enum Constant: Sendable { case int(Int64), double(Double), string(String), other }

    let key: PreparedKey
    let relation: Relation
    let op: ComparisonOperator
    let options: ComparisonOptions
    let constant: Value
    let fastConstant: Constant
    let test: ComparisonCompiler.PairTest
    /// The answer for a nil (or missing) value.
    let nilAnswer: Bool

    /// Nil when the comparison does not have this shape.
    init?(_ c: Comparison, constant: Value, options: ComparisonOptions, test: @escaping ComparisonCompiler.PairTest) throws(EvaluationError) {
        guard c.modifier == .direct, case .keyPath(nil, let keys) = c.left.kind, keys.count == 1, !keys[0].hasPrefix("@"),
              !constant.isCollection
        else { return nil }
        switch c.operator {
        case .equalTo: relation = .equal
        case .notEqualTo: relation = .notEqual
        case .lessThan: relation = .less
        case .lessThanOrEqualTo: relation = .lessOrEqual
        case .greaterThan: relation = .greater
        case .greaterThanOrEqualTo: relation = .greaterOrEqual
        default: return nil
        }
        key = PreparedKey(keys[0])
        op = c.operator
        self.options = options
        self.constant = constant
        self.test = test
        switch constant {
        case .int(let i): fastConstant = .int(i)
        case .double(let d): fastConstant = .double(d)
        case .string(let s) where options.isEmpty: fastConstant = .string(s)
        default: fastConstant = .other
        }
        nilAnswer = try ComparisonCompiler.direct(op, options: options, .null, constant, test)
    }

    @inline(__always)
    func evaluate(_ root: Value) throws(EvaluationError) -> Bool {
        if case .dictionary(let dictionary) = root {
            guard let position = dictionary.position(of: key) else { return nilAnswer }
            return try evaluate(value: dictionary.value(at: position))
        }
        return try evaluate(value: try KeyValueAccess.value(of: root, forKey: key))
    }

    /// Whether a key's value satisfies the comparison.
    @inline(__always)
    func evaluate(value: Value) throws(EvaluationError) -> Bool {
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
            if case .string(let y) = fastConstant {
                switch relation {
                case .equal: return x == y
                case .notEqual: return x != y
                default: return accept(StringPredicates.compare(x, y))
                }
            }
        case .array, .set:
            return try ComparisonCompiler.direct(op, options: options, value, constant, test)
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
        }
    }
}
