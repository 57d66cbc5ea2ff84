import SiftLanguage

/// Turns ASTs into closure trees, once: constants are converted, constant sub-expressions
/// folded (so errors that do not depend on the data surface here), regular expressions and
/// LIKE patterns with constant patterns compiled, functions looked up.
struct PredicateCompiler {
    func compile(_ predicate: PredicateNode) throws(EvaluationError) -> PredicateClosure {
        switch predicate.kind {
        case .constant(let value):
            return { _ in value }
        case .comparison(let comparison):
            return try ComparisonCompiler(compiler: self).compile(comparison)
        case .and(let operands):
            let closures = try operands.map { (p) throws(EvaluationError) in try compile(p) }
            if closures.count == 2 {
                let (a, b) = (closures[0], closures[1])
                return { (frame) throws(EvaluationError) in
                    if !(try a(&frame)) { return false }
                    return try b(&frame)
                }
            }
            return { (frame) throws(EvaluationError) in
                for closure in closures where !(try closure(&frame)) { return false }
                return true
            }
        case .or(let operands):
            let closures = try operands.map { (p) throws(EvaluationError) in try compile(p) }
            if closures.count == 2 {
                let (a, b) = (closures[0], closures[1])
                return { (frame) throws(EvaluationError) in
                    if try a(&frame) { return true }
                    return try b(&frame)
                }
            }
            return { (frame) throws(EvaluationError) in
                for closure in closures where try closure(&frame) { return true }
                return false
            }
        case .not(let operand):
            let closure = try compile(operand)
            return { (frame) throws(EvaluationError) in !(try closure(&frame)) }
        }
    }

    /// The value of an expression made only of constants, computed now; nil if it reads data.
    func constantValue(_ expression: ExpressionNode) throws(EvaluationError) -> Value? {
        guard expression.isConstantExpression else { return nil }
        let closure = try compileUnfolded(expression)
        var frame = Frame(root: .null, variables: [:])
        return try closure(&frame)
    }

    func compile(_ expression: ExpressionNode) throws(EvaluationError) -> ExpressionClosure {
        if let value = try constantValue(expression) { return { _ in value } }
        return try compileUnfolded(expression)
    }

    private func compileUnfolded(_ expression: ExpressionNode) throws(EvaluationError) -> ExpressionClosure {
        switch expression.kind {
        case .constant(let constant):
            let value = Value(constant)
            return { _ in value }
        case .evaluatedObject:
            return { frame in frame.root }
        case .keyPath(let base, let keys):
            return try compileKeyPath(base: base, keys: keys)
        case .variable(let name):
            return { (frame) throws(EvaluationError) in
                guard let value = frame.variables[name] else {
                    throw EvaluationError(.unboundVariable, "the variable $\(name) has no value (bind it with --var \(name)=JSON or substituting(variables:))", keyPath: "$" + name)
                }
                return value
            }
        case .aggregate(let elements):
            let closures = try elements.map { (e) throws(EvaluationError) in try compile(e) }
            return { (frame) throws(EvaluationError) in
                var values: [Value] = []
                values.reserveCapacity(closures.count)
                for closure in closures { values.append(try closure(&frame)) }
                return .array(values)
            }
        case .index(let base, let position):
            return try compileIndex(base: base, position: position, description: expression.description)
        case .function(let name, let arguments):
            guard let implementation = Functions.implementation(name, expression: expression.description) else {
                throw EvaluationError(.unsupported, "the function \(name) is not one Sift evaluates", keyPath: expression.description)
            }
            return try compileCall(implementation, arguments)
        case .functionExpression(let receiver, let selector, let arguments):
            guard let function = FunctionCatalog.all.first(where: { $0.selector == selector }),
                  let implementation = Functions.implementation(selector, expression: expression.description)
            else {
                throw EvaluationError(.unsupported, "FUNCTION selector '\(selector)' is not one Sift evaluates (known: \(FunctionCatalog.all.map(\.selector).joined(separator: ", ")))", keyPath: expression.description)
            }
            // `FUNCTION(x, 'multiply:by:', 2)` applies the selector to the receiver and the
            // arguments; `FUNCTION(SELF, 'uppercase:', name)` to the arguments alone.
            if function.arity == arguments.count + 1 { return try compileCall(implementation, [receiver] + arguments) }
            if function.arity == arguments.count { return try compileCall(implementation, arguments) }
            throw EvaluationError(.unsupported, "FUNCTION selector '\(selector)' takes \(function.arity) arguments, not \(arguments.count)", keyPath: expression.description)
        case .subquery(let collection, let variable, let predicate):
            let collectionClosure = try compile(collection)
            let predicateClosure = try compile(predicate)
            return { (frame) throws(EvaluationError) in
                let elements = Functions.elements(try collectionClosure(&frame))
                let savedRoot = frame.root
                let savedVariable = frame.variables[variable]
                defer {
                    frame.root = savedRoot
                    frame.variables[variable] = savedVariable
                }
                var matching: [Value] = []
                for element in elements {
                    frame.root = element
                    frame.variables[variable] = element
                    if try predicateClosure(&frame) { matching.append(element) }
                }
                return .array(matching)
            }
        case .ternary(let condition, let then, let otherwise):
            let c = try compile(condition), t = try compile(then), e = try compile(otherwise)
            return { (frame) throws(EvaluationError) in
                if try c(&frame) { return try t(&frame) }
                return try e(&frame)
            }
        case .cast(let value, let type):
            guard CastType.all.contains(type) else {
                throw EvaluationError(.invalidCast, "unknown CAST type '\(type)'", keyPath: expression.description)
            }
            let closure = try compile(value)
            let description = expression.description
            return { (frame) throws(EvaluationError) in try Cast.convert(try closure(&frame), to: type, expression: description) }
        case .assignment(let variable, let value):
            let closure = try compile(value)
            return { (frame) throws(EvaluationError) in
                let result = try closure(&frame)
                frame.variables[variable] = result
                return result
            }
        case .unary(let op, let operand):
            let closure = try compile(operand)
            let description = expression.description
            return { (frame) throws(EvaluationError) in try Arithmetic.unary(op, try closure(&frame), expression: description) }
        case .binary(let op, let left, let right):
            let l = try compile(left), r = try compile(right)
            let description = expression.description
            return { (frame) throws(EvaluationError) in try Arithmetic.binary(op, try l(&frame), try r(&frame), expression: description) }
        }
    }

    private func compileCall(_ implementation: @escaping Functions.Implementation, _ arguments: [ExpressionNode]) throws(EvaluationError) -> ExpressionClosure {
        let closures = try arguments.map { (a) throws(EvaluationError) in try compile(a) }
        return { (frame) throws(EvaluationError) in
            var values: [Value] = []
            values.reserveCapacity(closures.count)
            for closure in closures { values.append(try closure(&frame)) }
            return try implementation(values)
        }
    }

    private func compileKeyPath(base: ExpressionNode?, keys: [String]) throws(EvaluationError) -> ExpressionClosure {
        let baseClosure: ExpressionClosure? = try base.map { (b) throws(EvaluationError) in try compile(b) }
        // The commonest case: one plain key of the evaluated object.
        if baseClosure == nil, keys.count == 1, !keys[0].hasPrefix("@") {
            let key = keys[0]
            return { (frame) throws(EvaluationError) in try KeyValueAccess.value(of: frame.root, forKey: key) }
        }
        let path = keys[...]
        if let baseClosure {
            return { (frame) throws(EvaluationError) in try KeyValueAccess.value(of: try baseClosure(&frame), keyPath: path) }
        }
        return { (frame) throws(EvaluationError) in try KeyValueAccess.value(of: frame.root, keyPath: path) }
    }

    private func compileIndex(base: ExpressionNode, position: IndexSubscript, description: String) throws(EvaluationError) -> ExpressionClosure {
        let baseClosure = try compile(base)
        switch position {
        case .first:
            return { (frame) throws(EvaluationError) in (try baseClosure(&frame)).collectionElements?.first ?? .null }
        case .last:
            return { (frame) throws(EvaluationError) in (try baseClosure(&frame)).collectionElements?.last ?? .null }
        case .size:
            return { (frame) throws(EvaluationError) in
                switch try baseClosure(&frame) {
                case .array(let e), .set(let e): return .int(Int64(e.count))
                case .dictionary(let d): return .int(Int64(d.count))
                case .null: return .int(0)
                default: return .null
                }
            }
        case .expression(let index):
            let indexClosure = try compile(index)
            return { (frame) throws(EvaluationError) in
                let container = try baseClosure(&frame)
                let key = try indexClosure(&frame)
                switch (container, key) {
                case (.array(let e), _), (.set(let e), _):
                    guard case .int(let i)? = Arithmetic.number(key), i >= 0, i < e.count else { return .null }
                    return e[Int(i)]
                case (.dictionary(let d), .string(let k)): return d[k] ?? .null
                case (.object, .string(let k)): return try KeyValueAccess.value(of: container, forKey: k)
                default: return .null
                }
            }
        }
    }
}

extension ExpressionNode {
    /// True when the expression reads neither the object nor variables nor the clock.
    var isConstantExpression: Bool {
        switch kind {
        case .constant: return true
        case .evaluatedObject, .keyPath, .variable, .subquery, .assignment, .functionExpression: return false
        case .aggregate(let elements): return elements.allSatisfy(\.isConstantExpression)
        case .index(let base, let position):
            if case .expression(let e) = position, !e.isConstantExpression { return false }
            return base.isConstantExpression
        case .function(let name, let arguments):
            return name != "now" && name != "random" && name != "random:" && arguments.allSatisfy(\.isConstantExpression)
        case .ternary: return false
        case .cast(let value, _): return value.isConstantExpression
        case .unary(_, let operand): return operand.isConstantExpression
        case .binary(_, let left, let right): return left.isConstantExpression && right.isConstantExpression
        }
    }
}
