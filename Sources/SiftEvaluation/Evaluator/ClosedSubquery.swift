import SiftLanguage

/// A SUBQUERY that depends on nothing but constants: its collection is constant and its
/// predicate reads only the element (`$v`, `SELF`, bare key paths) and the variables of the
/// SUBQUERY expressions nested in it — `SUBQUERY({1, 2, 3}, $x, $x > 1)`. Its value is the same
/// for every object, so the compiler computes it once (as it folds constant expressions), and
/// nested ones cost the sum of their sizes, not the product.
///
/// A SUBQUERY that reads an enclosing SUBQUERY's variable (`SUBQUERY({1, 2}, $b, $a == $b)`
/// inside one over `$a`) or the evaluated object is not closed: it runs for each element, under
/// the ``EvaluationBudget``.
enum ClosedSubquery {
    /// Whether `SUBQUERY(collection, $variable, predicate)` is closed.
    static func isClosed(collection: ExpressionNode, variable: String, predicate: PredicateNode) -> Bool {
        collection.isConstantExpression && readsOnly(predicate, [variable])
    }

    /// Whether a constant collection's value holds no object (a `%@` object reference, read
    /// through a store): only such a collection is computed ahead.
    static func holdsNoObject(_ value: Value) -> Bool {
        switch value {
        case .object: false
        case .array(let elements), .set(let elements): elements.allSatisfy(holdsNoObject)
        case .dictionary(let dictionary): dictionary.values.allSatisfy(holdsNoObject)
        default: true
        }
    }

    /// Whether `predicate` (inside a SUBQUERY, where `SELF` is the element) reads nothing but
    /// the element, constants and the variables `bound`.
    private static func readsOnly(_ predicate: PredicateNode, _ bound: Set<String>) -> Bool {
        switch predicate.kind {
        case .constant: true
        case .comparison(let comparison): readsOnly(comparison.left, bound) && readsOnly(comparison.right, bound)
        case .and(let operands), .or(let operands): operands.allSatisfy { readsOnly($0, bound) }
        case .not(let operand): readsOnly(operand, bound)
        }
    }

    private static func readsOnly(_ expression: ExpressionNode, _ bound: Set<String>) -> Bool {
        switch expression.kind {
        case .constant, .evaluatedObject: return true
        case .keyPath(let base, _): return base.map { readsOnly($0, bound) } ?? true
        case .variable(let name): return bound.contains(name)
        case .aggregate(let elements): return elements.allSatisfy { readsOnly($0, bound) }
        case .dictionary(let entries): return entries.allSatisfy { readsOnly($0.value, bound) }
        case .index(let base, let position):
            if case .expression(let index) = position, !readsOnly(index, bound) { return false }
            return readsOnly(base, bound)
        case .function(let name, let arguments):
            return BuiltinFunction(selector: name)?.dependsOnMoreThanArguments != true && arguments.allSatisfy { readsOnly($0, bound) }
        case .subquery(let collection, let variable, let predicate):
            return readsOnly(collection, bound) && readsOnly(predicate, bound.union([variable]))
        case .ternary(let condition, let then, let otherwise):
            return readsOnly(condition, bound) && readsOnly(then, bound) && readsOnly(otherwise, bound)
        case .cast(let value, _): return readsOnly(value, bound)
        case .unary(_, let operand): return readsOnly(operand, bound)
        case .binary(_, let left, let right): return readsOnly(left, bound) && readsOnly(right, bound)
        // An assignment changes the frame; FUNCTION may name any selector.
        case .assignment, .functionExpression: return false
        }
    }
}
