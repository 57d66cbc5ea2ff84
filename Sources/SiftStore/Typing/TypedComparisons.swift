import Foundation
import SiftEvaluation
import SiftLanguage

/// LANGUAGE.md §3's typed rules, where a model gives the types, applied to a fetch before any
/// engine sees it — so the atomic stores, SQLite and PostgreSQL give the same answers, errors
/// and warnings, and `sift sql`/`sift explain` show them too. Wherever a comparison is written
/// (the predicate, inside SUBQUERY predicates at any depth, TERNARY conditions, HAVING, a
/// SELECT property), its two sides are typed (``ExpressionTyping``) and:
///
/// - a string constant (or a constant computed from arguments, `%@['since']`) compared with a
///   Date-typed side — an attribute through any key path or SUBQUERY variable, `@max`/`@min`
///   of dates, `max:(date)`, a SELECT alias of one, `now()`, `CAST(…, "NSDate")` — with `==`,
///   `!=`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `IN` (or CONTAINS as membership) is read as ISO
///   8601 (`updatedAt > "2017-07-08T00:00:00Z"`); one that is no date is an error naming the
///   side;
/// - a double constant compared with a Decimal-typed side is read as the decimal its shortest
///   text spells (`Total < 1.99`: the decimal 1.99, ``DecimalConstants``);
/// - an ordering (`< <= > >=`, `BETWEEN`) between a typed value and a constant, or two typed
///   values, whose kinds have no common order is an error naming them (`name < 5` on a
///   String attribute);
/// - BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES on a typed value that holds no strings
///   is an error that says what to write;
/// - what the types decide without being an error — equality across kinds (`Milliseconds ==
///   "343719"`), a relationship compared with a number, LIKE with SQL's `%`, `@avg` of dates —
///   is a ``FetchWarning`` (``ComparisonWarnings``); the answer stays the language's.
///
/// Undefined attributes (which hold any kind), dictionaries and unbound variables are not
/// typed.
package struct TypedComparisons {
    /// The warnings of the comparisons seen so far.
    package private(set) var warnings: [FetchWarning] = []
    /// The clause being typed, for the warnings' ``FetchWarning/clause``.
    package var clause: FetchWarning.Clause

    package init(clause: FetchWarning.Clause = .predicate) {
        self.clause = clause
    }

    /// The predicate with the rules applied, in `scope`.
    package mutating func apply(_ predicate: PredicateNode, in scope: TypingScope) throws(StoreError) -> PredicateNode {
        var result = predicate
        switch predicate.kind {
        case .constant: return predicate
        case .and(let parts):
            var typed: [PredicateNode] = []
            for part in parts { typed.append(try apply(part, in: scope)) }
            result.kind = .and(typed)
        case .or(let parts):
            var typed: [PredicateNode] = []
            for part in parts { typed.append(try apply(part, in: scope)) }
            result.kind = .or(typed)
        case .not(let inner):
            result.kind = .not(try apply(inner, in: scope))
        case .comparison(let comparison):
            result.kind = .comparison(try apply(comparison, range: predicate.range, in: scope))
        }
        return result
    }

    /// The expression with the rules applied to the predicates inside it (SUBQUERY's, with its
    /// variable bound to the collection's element; TERNARY's condition), at any depth. (A
    /// comparison types its sides, which checks their key paths.)
    package mutating func apply(_ expression: ExpressionNode, in scope: TypingScope) throws(StoreError) -> ExpressionNode {
        var result = expression
        switch expression.kind {
        case .constant, .evaluatedObject, .variable:
            return expression
        case .keyPath(let base, let keys):
            guard let base else { return expression }
            result.kind = .keyPath(base: try apply(base, in: scope), keys: keys)
        case .aggregate(let elements):
            result.kind = .aggregate(try apply(elements, in: scope))
        case .dictionary(let entries):
            var typed: [DictionaryEntry] = []
            for entry in entries { typed.append(DictionaryEntry(entry.key, try apply(entry.value, in: scope))) }
            result.kind = .dictionary(typed)
        case .index(let base, let position):
            var typedPosition = position
            if case .expression(let index) = position { typedPosition = .expression(try apply(index, in: scope)) }
            result.kind = .index(base: try apply(base, in: scope), subscript: typedPosition)
        case .function(let name, let arguments):
            result.kind = .function(name: name, arguments: try apply(arguments, in: scope))
        case .functionExpression(let receiver, let selector, let arguments):
            result.kind = .functionExpression(receiver: try apply(receiver, in: scope), selector: selector, arguments: try apply(arguments, in: scope))
        case .subquery(let collection, let variable, let predicate):
            let typedCollection = try apply(collection, in: scope)
            let element = ExpressionTyping.element(of: try ExpressionTyping.type(of: typedCollection, in: scope))
            let inner = scope.binding(variable, to: element)
            result.kind = .subquery(collection: typedCollection, variable: variable, predicate: try apply(predicate, in: inner))
        case .ternary(let condition, let then, let otherwise):
            result.kind = .ternary(condition: try apply(condition, in: scope), then: try apply(then, in: scope), else: try apply(otherwise, in: scope))
        case .cast(let value, let type):
            result.kind = .cast(value: try apply(value, in: scope), type: type)
        case .assignment(let variable, let value):
            result.kind = .assignment(variable: variable, value: try apply(value, in: scope))
        case .unary(let op, let operand):
            result.kind = .unary(op, try apply(operand, in: scope))
        case .binary(let op, let a, let b):
            result.kind = .binary(op, try apply(a, in: scope), try apply(b, in: scope))
        }
        return result
    }

    /// An expression that is no comparison's side (a SELECT property, a batch update's value)
    /// with the rules applied inside it, and the key paths it reads checked.
    package mutating func applyChecking(_ expression: ExpressionNode, in scope: TypingScope) throws(StoreError) -> ExpressionNode {
        let typed = try apply(expression, in: scope)
        _ = try ExpressionTyping.type(of: typed, in: scope)
        return typed
    }

    private mutating func apply(_ expressions: [ExpressionNode], in scope: TypingScope) throws(StoreError) -> [ExpressionNode] {
        var typed: [ExpressionNode] = []
        for expression in expressions { typed.append(try apply(expression, in: scope)) }
        return typed
    }

    // MARK: Comparisons

    private static let stringOperators: Set<ComparisonOperator> = [.beginsWith, .endsWith, .contains, .like, .matches]
    private static let typedOperators: Set<ComparisonOperator> = [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between, .in]
    private static let orderings: Set<ComparisonOperator> = [.lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between]

    private mutating func apply(_ written: Comparison, range: SourceRange?, in scope: TypingScope) throws(StoreError) -> Comparison {
        var c = written
        c.left = try apply(c.left, in: scope)
        c.right = try apply(c.right, in: scope)
        var left = try ExpressionTyping.type(of: c.left, in: scope)
        var right = try ExpressionTyping.type(of: c.right, in: scope)
        var warnings = ComparisonWarnings(written, range: range, clause: clause, model: scope.model, left: left, right: right)
        defer { self.warnings += warnings.found }
        warnings.degenerateAggregates()
        warnings.quotedKeys(c, in: scope)
        let op = c.operator

        // `collection CONTAINS x`: membership, typed as `x IN collection`.
        let isMembership = op == .contains && c.modifier == .direct && left.type.isCollection
        if Self.stringOperators.contains(op) && !isMembership {
            try checkStringOperator(c, left, right, warnings: &warnings)
            return c
        }
        guard Self.typedOperators.contains(op) || isMembership else { return c }

        // Constants meeting a date are dates.
        let (typedLeft, typedRight) = (c.left, c.right)
        if left.type.scalarKind == .date {
            c.right = try Self.dates(in: c.right, for: c.left, left)
        }
        if right.type.scalarKind == .date, op != .between || right.type.isCollection {
            c.left = try Self.dates(in: c.left, for: c.right, right)
        }
        // Double constants meeting a Decimal are the decimals their shortest texts spell
        // (`Total < 1.99`: the decimal 1.99, not Foundation's nearest double of it).
        if left.type.scalarKind == .decimal {
            c.right = DecimalConstants.decimals(in: c.right)
        }
        if right.type.scalarKind == .decimal, op != .between || right.type.isCollection {
            c.left = DecimalConstants.decimals(in: c.left)
        }
        if c.left != typedLeft { left = try ExpressionTyping.type(of: c.left, in: scope) }
        if c.right != typedRight { right = try ExpressionTyping.type(of: c.right, in: scope) }
        warnings.left = left
        warnings.right = right

        if Self.orderings.contains(op) {
            try checkOrder(c, left, right, in: scope, warnings: &warnings)
        } else {
            warnings.equality(c, isMembership: isMembership)
        }
        return c
    }

    // MARK: Dates

    /// String constants (alone, or in an aggregate for IN and BETWEEN) compared with `typed`,
    /// a date, read as ISO 8601 dates.
    private static func dates(in expression: ExpressionNode, for side: ExpressionNode, _ typed: TypedValue) throws(StoreError) -> ExpressionNode {
        var result = expression
        if case .aggregate(let elements) = expression.kind {
            var converted: [ExpressionNode] = []
            for element in elements { converted.append(try dates(in: element, for: side, typed)) }
            result.kind = .aggregate(converted)
            return result
        }
        // A literal, or a computed constant (`%@['since']`) read as its string.
        guard case .string(let text)? = constantValue(expression) else { return expression }
        guard let date = ISO8601.date(from: text) else {
            let literal = ExpressionNode(.constant(.string(text)))
            throw StoreError(.typeMismatch, "\(literal) is not an ISO 8601 date; \(side) is \(typed.phrase) (write a date such as \"2017-07-08T00:00:00Z\")",
                             entity: typed.entity, key: "\(side)")
        }
        result.kind = .constant(.date(date))
        return result
    }

    /// The value of a constant, or of an expression of constants (`%@['since']`, `-5`), as the
    /// evaluator computes it; nil for anything else (and for collections).
    static func constantValue(_ expression: ExpressionNode) -> Value? {
        if case .constant(let c) = expression.kind { return Value(c) }
        guard expression.isConstantExpression, let value = try? CompiledExpression.constantValue(of: expression) else { return nil }
        return value.collectionElements == nil ? value : nil
    }

    /// The values of a side that is constant: one (`5`), or an aggregate's (`{1, 2}`); nil when
    /// the side reads the object.
    static func constantValues(_ expression: ExpressionNode) -> [Value]? {
        if case .aggregate(let elements) = expression.kind {
            var values: [Value] = []
            for element in elements {
                guard let value = constantValue(element) else { return nil }
                values.append(value)
            }
            return values
        }
        if let value = constantValue(expression) { return [value] }
        guard expression.isConstantExpression, let value = try? CompiledExpression.constantValue(of: expression) else { return nil }
        return value.collectionElements
    }

    // MARK: Errors

    /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES test strings: on an attribute that
    /// holds none (a Date, a number) they would be false on every object, so they are an
    /// error that says what to write; on a computed value or an object, a warning.
    private func checkStringOperator(_ c: Comparison, _ left: TypedValue, _ right: TypedValue, warnings: inout ComparisonWarnings) throws(StoreError) {
        for (expression, typed, other, onLeft) in [(c.left, left, c.right, true), (c.right, right, c.left, false)] {
            guard let kind = typed.type.scalarKind, kind != .string else { continue }
            guard typed.attributeType != nil else {
                warnings.notString(onLeft: onLeft)
                return
            }
            var hint = ""
            if kind == .date { hint = " (compare it with dates: \(DateHint.range(for: expression, matching: other)))" }
            throw StoreError(.typeMismatch, "\(c.operator.symbol) needs a string, and \(expression) is \(typed.phrase)\(hint)",
                             entity: typed.entity, key: "\(expression)")
        }
        warnings.stringOperator(c)
    }

    /// An ordering between kinds with no common order is an error naming both sides where a
    /// side is an attribute's values (through any key path): a typed value and a constant
    /// (each of BETWEEN's bounds), or two attributes. Between computed values (`@max.date > 5`)
    /// it is a warning.
    private func checkOrder(_ c: Comparison, _ left: TypedValue, _ right: TypedValue, in scope: TypingScope,
                            warnings: inout ComparisonWarnings) throws(StoreError) {
        let op = c.operator
        var operands: [(ExpressionNode, TypedValue)] = [(c.right, right)]
        if op == .between, case .aggregate(let bounds) = c.right.kind {
            operands = []
            for bound in bounds { operands.append((bound, try ExpressionTyping.type(of: bound, in: scope))) }
        }
        for (operand, typed) in operands {
            if let value = Self.constantValue(operand) {
                try checkOrder(op, c.left, left, onLeft: true, against: operand, value, warnings: &warnings)
            } else if let value = Self.constantValue(c.left) {
                if op != .between { try checkOrder(op, operand, typed, onLeft: false, against: c.left, value, warnings: &warnings) }
            } else if let a = left.type.scalarKind, let b = typed.type.scalarKind, !a.isOrdered(with: b) {
                guard left.attributeType != nil, typed.attributeType != nil else {
                    warnings.unordered(onLeft: left.attributeType == nil, other: left.attributeType == nil ? b.phrase : a.phrase)
                    continue
                }
                throw StoreError(.typeMismatch, "'\(op.symbol)' cannot order \(c.left), \(left.phrase), and \(operand), \(typed.shortPhrase)",
                                 entity: left.entity, key: "\(c.left)")
            }
        }
        warnings.ordering(c)
    }

    /// An ordering of a typed value against a constant.
    private func checkOrder(_ op: ComparisonOperator, _ side: ExpressionNode, _ typed: TypedValue, onLeft: Bool,
                            against constant: ExpressionNode, _ value: Value, warnings: inout ComparisonWarnings) throws(StoreError) {
        guard let kind = typed.type.scalarKind, !value.isNull, let valueKind = ScalarKind(value), !kind.isOrdered(with: valueKind) else { return }
        guard typed.attributeType != nil else { return warnings.unordered(onLeft: onLeft, other: valueKind.phrase) }
        throw StoreError(.typeMismatch, "'\(op.symbol)' cannot order \(side), \(typed.phrase), and the \(value.kindName) \(constant)",
                         entity: typed.entity, key: "\(side)")
    }
}

extension ExpressionNode {
    var isAggregate: Bool {
        if case .aggregate = kind { return true }
        return false
    }
}

extension TypedValue {
    /// The entity of the attribute or relationship, for an error's `entity`.
    var entity: String? {
        switch origin {
        case .attribute(_, _, let entity)?, .relationship(_, _, _, let entity)?: entity
        case nil: nil
        }
    }

    /// "a Date attribute", "a date": the phrase without the entity.
    var shortPhrase: String {
        if case .attribute(_, let type, _)? = origin { return "\(AttributeText.article(type.name)) \(type.name) attribute" }
        return phrase
    }
}
