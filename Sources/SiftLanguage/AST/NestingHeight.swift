/// The height of a predicate's or expression's tree: the measure
/// ``ParserOptions/maximumNestingLevel`` bounds.
///
/// A leaf (a constant, `SELF`, a variable, a key path from the evaluated object,
/// `TRUEPREDICATE`) is 1; every other node is one more than its highest operand (a key path's
/// keys are not operands: `a.b.c` is a leaf). Parentheses are not part of the tree, so a
/// predicate and its canonical form have the same height.
///
/// Computed with an explicit stack, so a tree of any height (one built in code, say) is
/// measured without recursion.
extension PredicateNode {
    public var nestingHeight: Int { NestingHeight.measure(.predicate(self)) }
}

extension ExpressionNode {
    public var nestingHeight: Int { NestingHeight.measure(.expression(self)) }
}

private enum NestingHeight {
    enum Item {
        case predicate(PredicateNode)
        case expression(ExpressionNode)
    }

    /// The deepest level reached, walking the tree depth first (the root is level 1).
    static func measure(_ root: Item) -> Int {
        var stack: [(Item, Int)] = [(root, 1)]
        var highest = 0
        while let (item, level) = stack.popLast() {
            highest = max(highest, level)
            let below = level + 1
            switch item {
            case .predicate(let p):
                switch p.kind {
                case .constant: break
                case .comparison(let c):
                    stack.append((.expression(c.left), below))
                    stack.append((.expression(c.right), below))
                case .and(let operands), .or(let operands):
                    for operand in operands { stack.append((.predicate(operand), below)) }
                case .not(let operand):
                    stack.append((.predicate(operand), below))
                }
            case .expression(let e):
                switch e.kind {
                case .constant, .evaluatedObject, .variable: break
                case .keyPath(let base, _):
                    if let base { stack.append((.expression(base), below)) }
                case .aggregate(let elements), .function(_, let elements):
                    for element in elements { stack.append((.expression(element), below)) }
                case .dictionary(let entries):
                    for entry in entries { stack.append((.expression(entry.value), below)) }
                case .index(let base, let position):
                    stack.append((.expression(base), below))
                    if case .expression(let index) = position { stack.append((.expression(index), below)) }
                case .functionExpression(let receiver, _, let arguments):
                    stack.append((.expression(receiver), below))
                    for argument in arguments { stack.append((.expression(argument), below)) }
                case .subquery(let collection, _, let predicate):
                    stack.append((.expression(collection), below))
                    stack.append((.predicate(predicate), below))
                case .ternary(let condition, let then, let otherwise):
                    stack.append((.predicate(condition), below))
                    stack.append((.expression(then), below))
                    stack.append((.expression(otherwise), below))
                case .cast(let value, _), .assignment(_, let value), .unary(_, let value):
                    stack.append((.expression(value), below))
                case .binary(_, let left, let right):
                    stack.append((.expression(left), below))
                    stack.append((.expression(right), below))
                }
            }
        }
        return highest
    }
}
