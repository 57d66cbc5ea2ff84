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
        let (test, rightConstant) = try checkedTest(c)
        if let constant = rightConstant, let fast = try KeyComparison(c, constant: constant, options: effectiveOptions(c.options), test: test) {
            return { (root: Value, _: inout Frame) throws(EvaluationError) -> Bool in try fast.evaluate(root) }
        }
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
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in
                try ComparisonCompiler.direct(op, options: options, try left(root, &frame), try right(root, &frame), test)
            }
        }
    }

    /// The comparison as one key of the evaluated object compared with a constant, when it is
    /// one (``KeyComparison``), after the checks ``compile(_:)`` makes; nil for other shapes.
    func keyComparison(_ c: Comparison) throws(EvaluationError) -> KeyComparison? {
        let (test, rightConstant) = try checkedTest(c)
        guard let constant = rightConstant else { return nil }
        return try KeyComparison(c, constant: constant, options: effectiveOptions(c.options), test: test)
    }

    /// The test on one pair of values, and the right side's value when it is constant, after
    /// the errors that do not depend on the data are thrown.
    private func checkedTest(_ c: Comparison) throws(EvaluationError) -> (PairTest, Value?) {
        // Written only for an error: a comparison with a long constant list prints long.
        let description = { PredicateNode(.comparison(c)).description }
        if c.operator == .utiConformsTo || c.operator == .utiEquals {
            throw EvaluationError(.unsupported, "\(c.operator.symbol) is not supported on Linux (there are no UTIs)", keyPath: description())
        }
        let leftConstant = try compiler.constantValue(c.left)
        let rightConstant = try compiler.constantValue(c.right)
        try checkTypes(c, leftConstant, rightConstant, description: description)
        let test = try pairTest(c.operator, options: effectiveOptions(c.options), constantRight: rightConstant, description: description)
        return (test, rightConstant)
    }

    /// `[n]` wins over `[c]` and `[d]` and compares literally (LANGUAGE.md §4: both sides are
    /// promised to be normalised already, so no NFC either); `[l]` has no effect.
    func effectiveOptions(_ options: ComparisonOptions) -> ComparisonOptions {
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
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .beginsWith, .endsWith, .like, .matches,
             .in, .between, .utiConformsTo, .utiEquals:
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
    private func checkTypes(_ c: Comparison, _ l: Value?, _ r: Value?, description: () -> String) throws(EvaluationError) {
        guard let l, let r, !l.isNull, !r.isNull, l.collectionElements == nil, r.collectionElements == nil else { return }
        switch c.operator {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if ValueComparison.order(l, r) == nil {
                throw EvaluationError(.typeMismatch, "'\(c.operator.symbol)' cannot order \(l.kindName) and \(r.kindName) in '\(description())'", keyPath: description())
            }
        case .equalTo, .notEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in, .between, .utiConformsTo, .utiEquals:
            break
        }
    }

    /// Whether the order of two values satisfies `accept`; false when they have no common order.
    static func ordered(_ l: Value, _ r: Value, _ options: ComparisonOptions, _ accept: (Int) -> Bool) -> Bool {
        guard let order = ValueComparison.order(l, r, options: options) else { return false }
        return accept(order)
    }

    /// The test on one pair of values for an operator and its options.
    private func pairTest(_ op: ComparisonOperator, options: ComparisonOptions, constantRight: Value?, description: () -> String) throws(EvaluationError) -> PairTest {
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
        case .beginsWith:
            return { (l: Value, r: Value) -> Bool in
                guard case .string(let s) = l, case .string(let t) = r else { return false }
                return StringPredicates.beginsWith(s, t, options: options)
            }
        case .endsWith:
            return { (l: Value, r: Value) -> Bool in
                guard case .string(let s) = l, case .string(let t) = r else { return false }
                return StringPredicates.endsWith(s, t, options: options)
            }
        case .contains:
            return { (l: Value, r: Value) -> Bool in
                guard case .string(let s) = l, case .string(let t) = r else { return false }
                return StringPredicates.contains(s, t, options: options)
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
            // A constant list of more than a few elements: looked up, not scanned, per object.
            if let elements = constantRight.flatMap(Self.membershipElements), elements.count >= Self.indexedMembershipMinimum {
                var index = ValueEqualityIndex(options: options)
                for element in elements { _ = index.insert(element) }
                return { [index] (l: Value, _: Value) -> Bool in index.contains(l) }
            }
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
            throw EvaluationError(.unsupported, "\(op.symbol) is not supported", keyPath: description())
        }
    }
}

extension ComparisonCompiler {
    /// The shortest constant `IN` list looked up through a ``ValueEqualityIndex`` (a shorter
    /// one is scanned).
    static let indexedMembershipMinimum = 8

    /// The elements `IN` a constant tests against: an array's, a set's, a dictionary's values.
    static func membershipElements(_ value: Value) -> [Value]? {
        switch value {
        case .array(let e), .set(let e): e
        case .dictionary(let d): Array(d.values)
        default: nil
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
