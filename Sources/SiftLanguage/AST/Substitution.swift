/// Binding `$variables` after parsing (NSPredicate's `withSubstitutionVariables:`).
extension PredicateNode {
    /// The predicate with each free `$name` in `variables` replaced by its value (converted as
    /// `%@` arguments are: arrays become aggregates). Variables bound inside the predicate
    /// (SUBQUERY's variable, assignment targets) are left alone, and so are variables not in
    /// the dictionary: evaluating those is an error that names them.
    public func substituting(variables: [String: Any?]) throws(ArgumentConversion.Failure) -> PredicateNode {
        var converted: [String: ExpressionNode] = [:]
        for (name, value) in variables {
            do throws(ArgumentConversion.Failure) {
                converted[name] = try ArgumentConversion.expression(from: value)
            } catch {
                throw ArgumentConversion.Failure(description: "variable $\(name): \(error.description)")
            }
        }
        return substituting(converted, bound: [])
    }

    func substituting(_ values: [String: ExpressionNode], bound: Set<String>) -> PredicateNode {
        var copy = self
        switch kind {
        case .constant: return self
        case .comparison(var c):
            c.left = c.left.substituting(values, bound: bound)
            c.right = c.right.substituting(values, bound: bound)
            copy.kind = .comparison(c)
        case .and(let ps): copy.kind = .and(ps.map { $0.substituting(values, bound: bound) })
        case .or(let ps): copy.kind = .or(ps.map { $0.substituting(values, bound: bound) })
        case .not(let p): copy.kind = .not(p.substituting(values, bound: bound))
        }
        return copy
    }

    /// The names of the free `$variables` the predicate reads, in order of appearance.
    public var variableNames: [String] {
        var names: [String] = []
        collectVariables(into: &names, bound: [])
        return names
    }

    func collectVariables(into names: inout [String], bound: Set<String>) {
        switch kind {
        case .constant: break
        case .comparison(let c):
            c.left.collectVariables(into: &names, bound: bound)
            c.right.collectVariables(into: &names, bound: bound)
        case .and(let ps), .or(let ps): for p in ps { p.collectVariables(into: &names, bound: bound) }
        case .not(let p): p.collectVariables(into: &names, bound: bound)
        }
    }
}

extension ExpressionNode {
    /// The expression with free variables replaced (see ``PredicateNode/substituting(variables:)``).
    public func substituting(variables: [String: Any?]) throws(ArgumentConversion.Failure) -> ExpressionNode {
        let wrapper = try PredicateNode.comparison(self, .equalTo, .null).substituting(variables: variables)
        guard case .comparison(let c) = wrapper.kind else { return self }
        return c.left
    }

    func substituting(_ values: [String: ExpressionNode], bound: Set<String>) -> ExpressionNode {
        var copy = self
        func sub(_ e: ExpressionNode) -> ExpressionNode { e.substituting(values, bound: bound) }
        switch kind {
        case .constant, .evaluatedObject: return self
        case .variable(let name):
            guard !bound.contains(name), var value = values[name] else { return self }
            value.range = range
            return value
        case .keyPath(let base, let keys):
            guard let base else { return self }
            let newBase = sub(base)
            // A variable bound to a key path continues it: $k.name with $k = a.b is a.b.name.
            if case .keyPath(let innerBase, let innerKeys) = newBase.kind {
                copy.kind = .keyPath(base: innerBase, keys: innerKeys + keys)
            } else {
                copy.kind = .keyPath(base: newBase, keys: keys)
            }
        case .aggregate(let elements): copy.kind = .aggregate(elements.map(sub))
        case .dictionary(let entries): copy.kind = .dictionary(entries.map { DictionaryEntry($0.key, sub($0.value)) })
        case .index(let base, let subscriptKind):
            if case .expression(let e) = subscriptKind {
                copy.kind = .index(base: sub(base), subscript: .expression(sub(e)))
            } else {
                copy.kind = .index(base: sub(base), subscript: subscriptKind)
            }
        case .function(let name, let arguments): copy.kind = .function(name: name, arguments: arguments.map(sub))
        case .functionExpression(let receiver, let selector, let arguments):
            copy.kind = .functionExpression(receiver: sub(receiver), selector: selector, arguments: arguments.map(sub))
        case .subquery(let collection, let variable, let predicate):
            copy.kind = .subquery(collection: sub(collection), variable: variable,
                                  predicate: predicate.substituting(values, bound: bound.union([variable])))
        case .ternary(let condition, let then, let otherwise):
            copy.kind = .ternary(condition: condition.substituting(values, bound: bound), then: sub(then), else: sub(otherwise))
        case .cast(let value, let type):
            copy.kind = .cast(value: sub(value), type: type)
            copy = CastFolding.fold(copy)
        case .assignment(let variable, let value): copy.kind = .assignment(variable: variable, value: sub(value))
        case .unary(let op, let operand): copy.kind = .unary(op, sub(operand))
        case .binary(let op, let left, let right): copy.kind = .binary(op, sub(left), sub(right))
        }
        return copy
    }

    func collectVariables(into names: inout [String], bound: Set<String>) {
        func visit(_ e: ExpressionNode) { e.collectVariables(into: &names, bound: bound) }
        switch kind {
        case .constant, .evaluatedObject: break
        case .variable(let name): if !bound.contains(name), !names.contains(name) { names.append(name) }
        case .keyPath(let base, _): if let base { visit(base) }
        case .aggregate(let elements): elements.forEach(visit)
        case .dictionary(let entries): for entry in entries { visit(entry.value) }
        case .index(let base, let s):
            visit(base)
            if case .expression(let e) = s { visit(e) }
        case .function(_, let arguments): arguments.forEach(visit)
        case .functionExpression(let receiver, _, let arguments): visit(receiver); arguments.forEach(visit)
        case .subquery(let collection, let variable, let predicate):
            visit(collection)
            predicate.collectVariables(into: &names, bound: bound.union([variable]))
        case .ternary(let condition, let then, let otherwise):
            condition.collectVariables(into: &names, bound: bound); visit(then); visit(otherwise)
        case .cast(let value, _): visit(value)
        case .assignment(_, let value): visit(value)
        case .unary(_, let operand): visit(operand)
        case .binary(_, let left, let right): visit(left); visit(right)
        }
    }
}
