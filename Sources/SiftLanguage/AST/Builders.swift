/// Building predicates from Swift code: the same AST the parser makes (NSComparisonPredicate,
/// NSCompoundPredicate).
///
///     let p = PredicateNode.and([
///         .comparison(.keyPath("title"), .beginsWith, .constant("star"), options: [.caseInsensitive, .diacriticInsensitive]),
///         .comparison(.keyPath("tags.name"), .equalTo, .constant("sci-fi"), modifier: .any),
///     ])
///     // title BEGINSWITH[cd] "star" AND ANY tags.name == "sci-fi"
extension PredicateNode {
    /// `TRUEPREDICATE`
    public static let truePredicate = PredicateNode(.constant(true))
    /// `FALSEPREDICATE`
    public static let falsePredicate = PredicateNode(.constant(false))

    /// A comparison.
    public static func comparison(
        _ left: ExpressionNode, _ op: ComparisonOperator, _ right: ExpressionNode,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) -> PredicateNode {
        PredicateNode(.comparison(Comparison(left, op, right, modifier: modifier, options: options)))
    }

    /// All of the predicates (NSCompoundPredicate andPredicateWithSubpredicates:). One predicate
    /// is returned as it is; none gives `TRUEPREDICATE`.
    public static func and(_ predicates: [PredicateNode]) -> PredicateNode {
        switch predicates.count {
        case 0: .truePredicate
        case 1: predicates[0]
        default: PredicateNode(.and(predicates))
        }
    }

    /// Any of the predicates. One predicate is returned as it is; none gives `FALSEPREDICATE`.
    public static func or(_ predicates: [PredicateNode]) -> PredicateNode {
        switch predicates.count {
        case 0: .falsePredicate
        case 1: predicates[0]
        default: PredicateNode(.or(predicates))
        }
    }

    /// `NOT predicate`.
    public static func not(_ predicate: PredicateNode) -> PredicateNode {
        PredicateNode(.not(predicate))
    }
}

extension ExpressionNode {
    /// A key path from the evaluated object: `"a.b.@count"` → keys `a`, `b`, `@count`.
    public static func keyPath(_ path: String) -> ExpressionNode {
        ExpressionNode(.keyPath(base: nil, keys: path.split(separator: ".").map(String.init)))
    }

    /// A key path from the evaluated object, one key per element (keys may contain dots).
    public static func keyPath(keys: [String]) -> ExpressionNode {
        ExpressionNode(.keyPath(base: nil, keys: keys))
    }

    /// Keys read from another expression (`$x.name`, `SELF.name`); appends to a key path base.
    public static func keyPath(_ keys: [String], of base: ExpressionNode) -> ExpressionNode {
        if case .keyPath(let innerBase, let innerKeys) = base.kind {
            return ExpressionNode(.keyPath(base: innerBase, keys: innerKeys + keys))
        }
        return ExpressionNode(.keyPath(base: base, keys: keys))
    }

    /// A constant.
    public static func constant(_ value: ConstantValue) -> ExpressionNode { ExpressionNode(.constant(value)) }
    public static func constant(_ value: String) -> ExpressionNode { ExpressionNode(.constant(.string(value))) }
    public static func constant(_ value: Int) -> ExpressionNode { ExpressionNode(.constant(.int(Int64(value)))) }
    public static func constant(_ value: Double) -> ExpressionNode { ExpressionNode(.constant(.double(value))) }
    public static func constant(_ value: Bool) -> ExpressionNode { ExpressionNode(.constant(.bool(value))) }
    /// `nil`
    public static let null = ExpressionNode(.constant(.null))
    /// `SELF`
    public static let evaluatedObject = ExpressionNode(.evaluatedObject)

    /// `$name`
    public static func variable(_ name: String) -> ExpressionNode { ExpressionNode(.variable(name)) }

    /// `{a, b, ...}`
    public static func aggregate(_ elements: [ExpressionNode]) -> ExpressionNode { ExpressionNode(.aggregate(elements)) }

    /// `{"key": value, ...}`
    public static func dictionary(_ entries: [DictionaryEntry]) -> ExpressionNode { ExpressionNode(.dictionary(entries)) }

    /// A function of ``FunctionCatalog`` by selector, e.g. `.function("sum:", [.keyPath("prices")])`.
    public static func function(_ selector: String, _ arguments: [ExpressionNode]) -> ExpressionNode {
        ExpressionNode(.function(name: FunctionCatalog.lookup(selector, arity: arguments.count)?.selector ?? selector, arguments: arguments))
    }

    /// `left op right`
    public static func binary(_ op: BinaryOperator, _ left: ExpressionNode, _ right: ExpressionNode) -> ExpressionNode {
        ExpressionNode(.binary(op, left, right))
    }
}
