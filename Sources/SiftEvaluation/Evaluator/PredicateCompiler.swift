import SiftLanguage

/// Turns ASTs into closure trees, once: constants are converted, constant sub-expressions
/// folded (so errors that do not depend on the data surface here), regular expressions and
/// LIKE patterns with constant patterns compiled, functions looked up.
struct PredicateCompiler {
    func compile(_ predicate: PredicateNode) throws(EvaluationError) -> PredicateClosure {
        switch predicate.kind {
        case .constant(let value):
            return { (_: Value, _: inout Frame) -> Bool in value }
        case .comparison(let comparison):
            return try ComparisonCompiler(compiler: self).compile(comparison)
        case .and(let operands):
            let closures = try operands.map { (p) throws(EvaluationError) in try compile(p) }
            if closures.count == 2 {
                let (a, b) = (closures[0], closures[1])
                return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in
                    if !(try a(root, &frame)) { return false }
                    return try b(root, &frame)
                }
            }
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in
                for closure in closures where !(try closure(root, &frame)) { return false }
                return true
            }
        case .or(let operands):
            let closures = try operands.map { (p) throws(EvaluationError) in try compile(p) }
            if closures.count == 2 {
                let (a, b) = (closures[0], closures[1])
                return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in
                    if try a(root, &frame) { return true }
                    return try b(root, &frame)
                }
            }
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in
                for closure in closures where try closure(root, &frame) { return true }
                return false
            }
        case .not(let operand):
            let closure = try compile(operand)
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Bool in !(try closure(root, &frame)) }
        }
    }

    /// The value of an expression made only of constants, computed now; nil if it reads data.
    func constantValue(_ expression: ExpressionNode) throws(EvaluationError) -> Value? {
        guard expression.isConstantExpression else { return nil }
        let closure = try compileUnfolded(expression)
        var frame = Frame(variables: [:])
        return try closure(.null, &frame)
    }

    func compile(_ expression: ExpressionNode) throws(EvaluationError) -> ExpressionClosure {
        if let value = try constantValue(expression) { return { (_: Value, _: inout Frame) -> Value in value } }
        return try compileUnfolded(expression)
    }

    private func compileUnfolded(_ expression: ExpressionNode) throws(EvaluationError) -> ExpressionClosure {
        switch expression.kind {
        case .constant(let constant):
            let value = Value(constant)
            return { (_: Value, _: inout Frame) -> Value in value }
        case .evaluatedObject:
            return { (root: Value, _: inout Frame) -> Value in root }
        case .keyPath(let base, let keys):
            return try compileKeyPath(base: base, keys: keys)
        case .variable(let name):
            return { (_: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                guard let value = frame.variables[name] else {
                    throw EvaluationError(.unboundVariable, "the variable $\(name) has no value (bind it with --var \(name)=JSON or substituting(variables:))", keyPath: "$" + name)
                }
                return value
            }
        case .aggregate(let elements):
            let closures = try elements.map { (e) throws(EvaluationError) in try compile(e) }
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                var values: [Value] = []
                values.reserveCapacity(closures.count)
                for closure in closures { values.append(try closure(root, &frame)) }
                return .array(values)
            }
        case .dictionary(let entries):
            let keys = entries.map(\.key)
            let closures = try entries.map { (entry) throws(EvaluationError) in try compile(entry.value) }
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                var values: [Value] = []
                values.reserveCapacity(closures.count)
                for closure in closures { values.append(try closure(root, &frame)) }
                return .dictionary(ValueDictionary(Array(zip(keys, values))))
            }
        case .index(let base, let position):
            return try compileIndex(base: base, position: position, description: expression.description)
        case .function(let name, let arguments):
            guard let function = BuiltinFunction(selector: name) else {
                throw EvaluationError(.unsupported, "the function \(name) is not one Sift evaluates", keyPath: expression.description)
            }
            return try compileCall(Functions.implementation(function, expression: expression.description), arguments)
        case .functionExpression(let receiver, let selector, let arguments):
            guard let function = BuiltinFunction(selector: selector) else {
                throw EvaluationError(.unsupported, "FUNCTION selector '\(selector)' is not one Sift evaluates (known: \(FunctionCatalog.all.map(\.selector).joined(separator: ", ")))", keyPath: expression.description)
            }
            // `FUNCTION(x, 'multiply:by:', 2)` applies the selector to the receiver and the
            // arguments; `FUNCTION(SELF, 'uppercase:', name)` to the arguments alone.
            let implementation = Functions.implementation(function, expression: expression.description)
            if function.arity == arguments.count + 1 { return try compileCall(implementation, [receiver] + arguments) }
            if function.arity == arguments.count { return try compileCall(implementation, arguments) }
            throw EvaluationError(.unsupported, "FUNCTION selector '\(selector)' takes \(function.arity) arguments, not \(arguments.count)", keyPath: expression.description)
        case .subquery(let collection, let variable, let predicate):
            let collectionClosure = try compile(collection)
            let predicateClosure = try compile(predicate)
            let subquery: ExpressionClosure = { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                let elements = Functions.elements(try collectionClosure(root, &frame))
                let savedVariable = frame.variables[variable]
                defer { frame.variables[variable] = savedVariable }
                var matching: [Value] = []
                for element in elements {
                    try EvaluationBudget.countSubqueryTest(&frame, subquery: expression.description)
                    // Inside the predicate, a bare key path reads the element too.
                    frame.variables[variable] = element
                    if try predicateClosure(element, &frame) { matching.append(element) }
                }
                return .array(matching)
            }
            // The same for every object: computed once, now.
            if ClosedSubquery.isClosed(collection: collection, variable: variable, predicate: predicate),
               let elements = try constantValue(collection), ClosedSubquery.holdsNoObject(elements) {
                var frame = Frame(variables: [:])
                let value = try subquery(.null, &frame)
                return { (_: Value, _: inout Frame) -> Value in value }
            }
            return subquery
        case .ternary(let condition, let then, let otherwise):
            let c = try compile(condition), t = try compile(then), e = try compile(otherwise)
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                if try c(root, &frame) { return try t(root, &frame) }
                return try e(root, &frame)
            }
        case .cast(let value, let type):
            guard let castType = CastType(name: type) else {
                throw EvaluationError(.invalidCast, "unknown CAST type '\(type)'", keyPath: expression.description)
            }
            let closure = try compile(value)
            let description = expression.description
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                try Cast.convert(try closure(root, &frame), to: castType, expression: description)
            }
        case .assignment(let variable, let value):
            let closure = try compile(value)
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                let result = try closure(root, &frame)
                frame.variables[variable] = result
                return result
            }
        case .unary(let op, let operand):
            let closure = try compile(operand)
            let description = expression.description
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                try Arithmetic.unary(op, try closure(root, &frame), expression: description)
            }
        case .binary(let op, let left, let right):
            let l = try compile(left), r = try compile(right)
            let description = expression.description
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                try Arithmetic.binary(op, try l(root, &frame), try r(root, &frame), expression: description)
            }
        }
    }

    private func compileCall(_ implementation: @escaping Functions.Implementation, _ arguments: [ExpressionNode]) throws(EvaluationError) -> ExpressionClosure {
        let closures = try arguments.map { (a) throws(EvaluationError) in try compile(a) }
        return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
            var values: [Value] = []
            values.reserveCapacity(closures.count)
            for closure in closures { values.append(try closure(root, &frame)) }
            return try implementation(values)
        }
    }

    private func compileKeyPath(base: ExpressionNode?, keys: [String]) throws(EvaluationError) -> ExpressionClosure {
        let baseClosure: ExpressionClosure? = try base.map { (b) throws(EvaluationError) in try compile(b) }
        // The commonest case: one plain key of the evaluated object.
        if baseClosure == nil, keys.count == 1, !keys[0].hasPrefix("@") {
            let key = PreparedKey(keys[0])
            return { (root: Value, _: inout Frame) throws(EvaluationError) -> Value in try KeyValueAccess.value(of: root, forKey: key) }
        }
        let path = keys.map(PreparedKey.init)[...]
        if let baseClosure {
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                try KeyValueAccess.value(of: try baseClosure(root, &frame), keyPath: path)
            }
        }
        return { (root: Value, _: inout Frame) throws(EvaluationError) -> Value in try KeyValueAccess.value(of: root, keyPath: path) }
    }

    private func compileIndex(base: ExpressionNode, position: IndexSubscript, description: String) throws(EvaluationError) -> ExpressionClosure {
        let baseClosure = try compile(base)
        switch position {
        case .first:
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in (try baseClosure(root, &frame)).collectionElements?.first ?? .null }
        case .last:
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in (try baseClosure(root, &frame)).collectionElements?.last ?? .null }
        case .size:
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                switch try baseClosure(root, &frame) {
                case .array(let e), .set(let e): return .int(Int64(e.count))
                case .dictionary(let d): return .int(Int64(d.count))
                case .null: return .int(0)
                default: return .null
                }
            }
        case .expression(let index):
            let indexClosure = try compile(index)
            return { (root: Value, frame: inout Frame) throws(EvaluationError) -> Value in
                let container = try baseClosure(root, &frame)
                let key = try indexClosure(root, &frame)
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
    package var isConstantExpression: Bool {
        switch kind {
        case .constant: return true
        case .evaluatedObject, .keyPath, .variable, .subquery, .assignment, .functionExpression: return false
        case .aggregate(let elements): return elements.allSatisfy(\.isConstantExpression)
        case .dictionary(let entries): return entries.allSatisfy(\.value.isConstantExpression)
        case .index(let base, let position):
            if case .expression(let e) = position, !e.isConstantExpression { return false }
            return base.isConstantExpression
        case .function(let name, let arguments):
            return BuiltinFunction(selector: name)?.dependsOnMoreThanArguments != true && arguments.allSatisfy(\.isConstantExpression)
        case .ternary: return false
        case .cast(let value, _): return value.isConstantExpression
        case .unary(_, let operand): return operand.isConstantExpression
        case .binary(_, let left, let right): return left.isConstantExpression && right.isConstantExpression
        }
    }
}
