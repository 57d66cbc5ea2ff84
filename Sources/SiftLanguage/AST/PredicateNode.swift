/// A predicate of the language (NSPredicate): a comparison, a compound of predicates, or a
/// constant truth value. Parse one with ``PredicateNode/init(format:_:)``, build one with the
/// builders (``PredicateNode/comparison(_:_:_:modifier:options:)``, ``PredicateNode/and(_:)``,
/// ...), print it with `description` (the canonical format string).
///
/// Equality and hashing compare meaning only; ``range`` (where the node was written) is ignored.
public struct PredicateNode: Sendable {
    public enum Kind: Sendable, Hashable {
        /// `TRUEPREDICATE` / `FALSEPREDICATE`.
        case constant(Bool)
        /// `lhs op[options] rhs`, optionally qualified with `ANY`/`ALL`/`NONE`.
        indirect case comparison(Comparison)
        /// `a AND b AND ...` (at least two sub-predicates when built with ``PredicateNode/and(_:)``).
        case and([PredicateNode])
        /// `a OR b OR ...`.
        case or([PredicateNode])
        /// `NOT p`.
        indirect case not(PredicateNode)
    }

    public var kind: Kind
    /// Where the predicate was written, for parsed nodes.
    public var range: SourceRange?

    public init(_ kind: Kind, range: SourceRange? = nil) {
        self.kind = kind
        self.range = range
    }
}

/// A comparison predicate (NSComparisonPredicate).
public struct Comparison: Sendable, Hashable {
    public var modifier: ComparisonModifier
    public var left: ExpressionNode
    public var `operator`: ComparisonOperator
    public var options: ComparisonOptions
    public var right: ExpressionNode

    public init(
        _ left: ExpressionNode, _ op: ComparisonOperator, _ right: ExpressionNode,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) {
        self.modifier = modifier
        self.left = left
        self.operator = op
        self.options = options
        self.right = right
    }
}

extension PredicateNode: Hashable {
    public static func == (lhs: PredicateNode, rhs: PredicateNode) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

extension PredicateNode: CustomStringConvertible {
    /// The canonical format string (LANGUAGE.md §7): `parse(description) == self`.
    public var description: String { CanonicalPrinter.format(self) }
}
