/// An expression of the predicate language (NSExpression): a value computed from the
/// evaluated object, constants, variables and functions.
///
/// Equality and hashing compare meaning only; ``range`` (where the node was written) is ignored.
public struct ExpressionNode: Sendable {
    /// Cases that hold other nodes directly are `indirect` (boxed); constants, variables and
    /// node arrays are stored inline, so the commonest nodes cost no extra allocation.
    public enum Kind: Sendable, Hashable {
        /// A constant: literal, `%@` argument or substituted variable.
        case constant(ConstantValue)
        /// `SELF`: the evaluated object.
        case evaluatedObject
        /// A key path: `a.b.c`, `@count`, `SELF.a`, `$x.name`, `tags[FIRST].name`.
        /// `base` nil means the evaluated object; keys are never empty.
        indirect case keyPath(base: ExpressionNode?, keys: [String])
        /// `$name`.
        case variable(String)
        /// `{a, b, c}`.
        case aggregate([ExpressionNode])
        /// `{"key": value, ...}`, `{:}` when empty: a dictionary, as a JSON object or a Swift
        /// dictionary bound to `%@` makes one. Entries keep their order; keys are distinct (the
        /// parser and the JSON form refuse a key twice).
        case dictionary([DictionaryEntry])
        /// `base[FIRST]`, `base[LAST]`, `base[SIZE]`, `base[n]`, `base['key']`.
        indirect case index(base: ExpressionNode, subscript: IndexSubscript)
        /// `sum:(x)`, `add:to:(1, 2)`, `now()`: `name` is the full selector from ``FunctionCatalog``.
        case function(name: String, arguments: [ExpressionNode])
        /// `FUNCTION(receiver, 'selector:', args...)`.
        indirect case functionExpression(receiver: ExpressionNode, selector: String, arguments: [ExpressionNode])
        /// `SUBQUERY(collection, $variable, predicate)`.
        indirect case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
        /// `TERNARY(condition, then, else)`.
        indirect case ternary(condition: PredicateNode, then: ExpressionNode, else: ExpressionNode)
        /// `CAST(value, 'Type')`.
        indirect case cast(value: ExpressionNode, type: String)
        /// `$variable := value`.
        indirect case assignment(variable: String, value: ExpressionNode)
        /// `-x`, `~x`.
        indirect case unary(UnaryOperator, ExpressionNode)
        /// `a + b`, `a ** b`, `a & b`, ...
        indirect case binary(BinaryOperator, ExpressionNode, ExpressionNode)
    }

    public var kind: Kind
    /// Where the expression was written, for parsed nodes.
    public var range: SourceRange?

    public init(_ kind: Kind, range: SourceRange? = nil) {
        self.kind = kind
        self.range = range
    }
}

extension ExpressionNode: Hashable {
    public static func == (lhs: ExpressionNode, rhs: ExpressionNode) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

extension ExpressionNode: CustomStringConvertible {
    /// The canonical format string of the expression.
    public var description: String { CanonicalPrinter.format(self) }
}

extension ExpressionNode {
    /// True for a plain key path rooted at the evaluated object (`a.b.c`).
    public var isSimpleKeyPath: Bool {
        if case .keyPath(nil, _) = kind { return true }
        return false
    }

    /// The constant, if this node is one.
    public var constantValue: ConstantValue? {
        if case .constant(let value) = kind { return value }
        return nil
    }
}
