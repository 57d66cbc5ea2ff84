import SiftLanguage

/// A predicate made only of keys of the evaluated object compared with constants
/// (``KeyComparison``), constants, AND, OR and NOT — `age > 30 AND name BEGINSWITH[cd] "st"`,
/// `ANY tags == "x"` — compiled once more for roots that read their own keys (``KeyedRoot``):
/// a ``PredicateQueryable`` value is evaluated in place, without wrapping it as a ``Value``
/// object first. Each comparison is the one the closure tree runs, so the answers are the same.
struct KeyedPlan: Sendable {
    typealias Test<Root> = @Sendable (Root) throws(EvaluationError) -> Bool

    /// The plan for dictionaries, read in place.
    let dictionaryTest: Test<BorrowedDictionary>
    /// The plan for ``PredicateQueryable`` values read in place.
    let queryableTest: Test<QueryableRoot>

    /// Nil when some part of the predicate is not of this shape (it reads more than one key of
    /// the root, a variable, a function, a SUBQUERY…).
    init?(_ predicate: PredicateNode, compiler: PredicateCompiler) throws(EvaluationError) {
        guard let shape = try Shape(predicate, compiler: compiler) else { return nil }
        dictionaryTest = shape.test(for: BorrowedDictionary.self)
        queryableTest = shape.test(for: QueryableRoot.self)
    }

    /// The predicate's structure, made into closures for each kind of root (a closure holds its
    /// comparison in its context, so evaluating does not copy it).
    private indirect enum Shape {
        case constant(Bool)
        case comparison(KeyComparison)
        case and([Shape])
        case or([Shape])
        case not(Shape)

        init?(_ predicate: PredicateNode, compiler: PredicateCompiler) throws(EvaluationError) {
            switch predicate.kind {
            case .constant(let value):
                self = .constant(value)
            case .comparison(let c):
                guard let comparison = try ComparisonCompiler(compiler: compiler).keyComparison(c) else { return nil }
                self = .comparison(comparison)
            case .and(let operands):
                guard let shapes = try Self.shapes(operands, compiler: compiler) else { return nil }
                self = .and(shapes)
            case .or(let operands):
                guard let shapes = try Self.shapes(operands, compiler: compiler) else { return nil }
                self = .or(shapes)
            case .not(let operand):
                guard let shape = try Shape(operand, compiler: compiler) else { return nil }
                self = .not(shape)
            }
        }

        private static func shapes(_ operands: [PredicateNode], compiler: PredicateCompiler) throws(EvaluationError) -> [Shape]? {
            var shapes: [Shape] = []
            for operand in operands {
                guard let shape = try Shape(operand, compiler: compiler) else { return nil }
                shapes.append(shape)
            }
            return shapes
        }

        func test<Root: KeyedRoot>(for root: Root.Type) -> Test<Root> {
            switch self {
            case .constant(let value):
                return { (_: Root) -> Bool in value }
            case .comparison(let comparison):
                return { (root: Root) throws(EvaluationError) -> Bool in try root.satisfies(comparison) }
            case .and(let shapes):
                let tests = shapes.map { $0.test(for: Root.self) }
                if tests.count == 2 {
                    let (a, b) = (tests[0], tests[1])
                    return { (root: Root) throws(EvaluationError) -> Bool in
                        if !(try a(root)) { return false }
                        return try b(root)
                    }
                }
                return { (root: Root) throws(EvaluationError) -> Bool in
                    for test in tests where !(try test(root)) { return false }
                    return true
                }
            case .or(let shapes):
                let tests = shapes.map { $0.test(for: Root.self) }
                if tests.count == 2 {
                    let (a, b) = (tests[0], tests[1])
                    return { (root: Root) throws(EvaluationError) -> Bool in
                        if try a(root) { return true }
                        return try b(root)
                    }
                }
                return { (root: Root) throws(EvaluationError) -> Bool in
                    for test in tests where try test(root) { return true }
                    return false
                }
            case .not(let shape):
                let test = shape.test(for: Root.self)
                return { (root: Root) throws(EvaluationError) -> Bool in !(try test(root)) }
            }
        }
    }
}

/// An evaluated object that reads its own keys for a ``KeyedPlan`` (whose closures, shared by
/// every thread that evaluates the plan, capture its metatype).
protocol KeyedRoot: MetatypeSendable {
    /// Whether the root's value for the comparison's key satisfies it.
    func satisfies(_ comparison: KeyComparison) throws(EvaluationError) -> Bool
}
