import SiftLanguage

/// A predicate made only of keys of the evaluated object compared with constants
/// (``KeyComparison``), constants, AND, OR and NOT — `age > 30 AND name BEGINSWITH[cd] "st"`,
/// `ANY tags == "x"` — compiled once more for roots that read their own keys (``KeyedRoot``):
/// a ``PredicateQueryable`` value is evaluated in place, without wrapping it as a ``Value``
/// object first. Each comparison is the one the closure tree runs, so the answers are the same.
struct KeyedPlan: Sendable {
    /// The plan's root node.
    private let root: any KeyedTest

    /// Nil when some part of the predicate is not of this shape (it reads more than one key of
    /// the root, a variable, a function, a SUBQUERY…).
    static func make(_ predicate: PredicateNode, compiler: PredicateCompiler) throws(EvaluationError) -> KeyedPlan? {
        try node(predicate, compiler: compiler).map(KeyedPlan.init(root:))
    }

    private init(root: any KeyedTest) {
        self.root = root
    }

    /// The plan for dictionaries, read in place.
    @inline(__always)
    func dictionaryTest(_ dictionary: BorrowedDictionary) throws(EvaluationError) -> Bool { try root.test(dictionary) }

    /// The plan for ``PredicateQueryable`` values read in place.
    @inline(__always)
    func queryableTest(_ value: QueryableRoot) throws(EvaluationError) -> Bool { try root.test(value) }

    private static func node(_ predicate: PredicateNode, compiler: PredicateCompiler) throws(EvaluationError) -> (any KeyedTest)? {
        switch predicate.kind {
        case .constant(let value):
            return KeyedConstant(value)
        case .comparison(let c):
            return try ComparisonCompiler(compiler: compiler).keyComparison(c)
        case .and(let operands), .or(let operands):
            guard let nodes = try nodes(operands, compiler: compiler) else { return nil }
            // AND is decided by a false operand, OR by a true one.
            let deciding = if case .or = predicate.kind { true } else { false }
            return nodes.count == 2 ? KeyedPair(nodes[0], nodes[1], decidingAnswer: deciding) : KeyedList(nodes, decidingAnswer: deciding)
        case .not(let operand):
            return try node(operand, compiler: compiler).map(KeyedNot.init)
        }
    }

    private static func nodes(_ operands: [PredicateNode], compiler: PredicateCompiler) throws(EvaluationError) -> [any KeyedTest]? {
        var nodes: [any KeyedTest] = []
        for operand in operands {
            guard let node = try node(operand, compiler: compiler) else { return nil }
            nodes.append(node)
        }
        return nodes
    }
}

/// One node of a ``KeyedPlan``: its answer for each kind of root. Nodes are immutable objects
/// called through their witness tables, one call a node: closures made in a generic function
/// and kept in properties of concrete type were called through reabstraction thunks, two to four
/// a node, a third of the plan's instructions on `age > 30` (callgrind, 2026-11-29).
protocol KeyedTest: AnyObject, Sendable {
    func test(_ root: BorrowedDictionary) throws(EvaluationError) -> Bool
    func test(_ root: QueryableRoot) throws(EvaluationError) -> Bool
}

/// A node's answer written once for every root (``KeyedRoot/passes(_:)`` picks the
/// node's entry point for the root's type).
private protocol KeyedTestOverRoots: KeyedTest {
    func answer<Root: KeyedRoot>(_ root: Root) throws(EvaluationError) -> Bool
}

extension KeyedTestOverRoots {
    func test(_ root: BorrowedDictionary) throws(EvaluationError) -> Bool { try answer(root) }
    func test(_ root: QueryableRoot) throws(EvaluationError) -> Bool { try answer(root) }
}

private final class KeyedConstant: KeyedTestOverRoots {
    let value: Bool
    init(_ value: Bool) { self.value = value }
    func answer<Root: KeyedRoot>(_ root: Root) -> Bool { value }
}

/// A comparison is a node of its own (an object: passing it costs a reference, where a struct
/// of its size was copied on every evaluation).
extension KeyComparison: KeyedTestOverRoots {
    @inline(__always)
    fileprivate func answer<Root: KeyedRoot>(_ root: Root) throws(EvaluationError) -> Bool { try root.satisfies(self) }
}

/// AND (`decidingAnswer` false) or OR (true) of two nodes: the second is asked only when the
/// first does not decide.
private final class KeyedPair: KeyedTestOverRoots {
    let first: any KeyedTest, second: any KeyedTest
    let decidingAnswer: Bool
    init(_ first: any KeyedTest, _ second: any KeyedTest, decidingAnswer: Bool) {
        (self.first, self.second, self.decidingAnswer) = (first, second, decidingAnswer)
    }
    @inline(__always)
    func answer<Root: KeyedRoot>(_ root: Root) throws(EvaluationError) -> Bool {
        if try root.passes(first) == decidingAnswer { return decidingAnswer }
        return try root.passes(second)
    }
}

/// AND (`decidingAnswer` false) or OR (true) of any number of nodes, asked in order until one
/// decides.
private final class KeyedList: KeyedTestOverRoots {
    let tests: [any KeyedTest]
    let decidingAnswer: Bool
    init(_ tests: [any KeyedTest], decidingAnswer: Bool) { (self.tests, self.decidingAnswer) = (tests, decidingAnswer) }
    @inline(__always)
    func answer<Root: KeyedRoot>(_ root: Root) throws(EvaluationError) -> Bool {
        for test in tests where try root.passes(test) == decidingAnswer { return decidingAnswer }
        return !decidingAnswer
    }
}

private final class KeyedNot: KeyedTestOverRoots {
    let operand: any KeyedTest
    init(_ operand: any KeyedTest) { self.operand = operand }
    @inline(__always)
    func answer<Root: KeyedRoot>(_ root: Root) throws(EvaluationError) -> Bool { !(try root.passes(operand)) }
}

/// An evaluated object that reads its own keys for a ``KeyedPlan``.
protocol KeyedRoot {
    /// Whether the root's value for the comparison's key satisfies it.
    func satisfies(_ comparison: KeyComparison) throws(EvaluationError) -> Bool
    /// The node's answer for this root (the node's entry point for the root's type).
    func passes(_ test: any KeyedTest) throws(EvaluationError) -> Bool
}

extension BorrowedDictionary {
    @inline(__always)
    func passes(_ test: any KeyedTest) throws(EvaluationError) -> Bool { try test.test(self) }
}

extension QueryableRoot {
    @inline(__always)
    func passes(_ test: any KeyedTest) throws(EvaluationError) -> Bool { try test.test(self) }
}
