import Foundation
import SiftEvaluation
import SiftLanguage

/// LANGUAGE.md §3's typed rules, where a model gives the types, applied to a fetch's predicate
/// before any engine sees it — so the atomic stores and SQLite give the same answers and the
/// same errors, and `sift sql`/`sift explain` show them too:
///
/// - a string constant compared with a Date attribute (`==`, `!=`, `<`, `<=`, `>`, `>=`,
///   `BETWEEN`, `IN`) is read as ISO 8601 (`updatedAt > "2017-07-08T00:00:00Z"`); one that is
///   no date is an error naming the attribute;
/// - a double constant compared with a Decimal attribute is read as the decimal its shortest
///   text spells (`total < 1.99`: the decimal 1.99, ``DecimalConstants``);
/// - an ordering comparison (`< <= > >=`, `BETWEEN`) between an attribute and a constant, or two
///   attributes, whose kinds have no common order is an error naming the attribute, its type and
///   the constant (`name < 5` on a String attribute).
///
/// Equality across kinds stays false (`!=` true), as on schemaless data. Only key paths from the
/// fetched object and literal constants are typed; Undefined attributes (which hold any kind)
/// are not.
package enum TypedComparisons {
    /// The predicate with the rules applied; its key paths must already be checked
    /// (``ModelKeyPaths/checkPredicate(_:entity:model:)``).
    package static func apply(_ predicate: PredicateNode, entity: EntityDescription, model: DataModel) throws(StoreError) -> PredicateNode {
        var result = predicate
        switch predicate.kind {
        case .constant: return predicate
        case .and(let parts):
            var typed: [PredicateNode] = []
            for part in parts { typed.append(try apply(part, entity: entity, model: model)) }
            result.kind = .and(typed)
        case .or(let parts):
            var typed: [PredicateNode] = []
            for part in parts { typed.append(try apply(part, entity: entity, model: model)) }
            result.kind = .or(typed)
        case .not(let inner):
            result.kind = .not(try apply(inner, entity: entity, model: model))
        case .comparison(let comparison):
            result.kind = .comparison(try apply(comparison, entity: entity, model: model))
        }
        return result
    }

    private static func apply(_ c: Comparison, entity: EntityDescription, model: DataModel) throws(StoreError) -> Comparison {
        var c = c
        let leftType = attribute(c.left, entity: entity, model: model)
        let rightType = attribute(c.right, entity: entity, model: model)
        let op = c.operator
        if [.beginsWith, .endsWith, .contains, .like, .matches].contains(op) {
            try checkStringOperator(c, entity: entity, model: model)
            return c
        }
        let typedOperators: [ComparisonOperator] = [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between, .in]
        guard typedOperators.contains(op) else { return c }
        if let (name, type) = leftType, type == .date {
            c.right = try dates(in: c.right, attribute: name, entity: entity)
        }
        if let (name, type) = rightType, type == .date, op != .in, op != .between {
            c.left = try dates(in: c.left, attribute: name, entity: entity)
        }
        // Double constants met by a Decimal attribute are read as decimals (DecimalConstants).
        if let (_, type) = leftType, type == .decimal { c.right = DecimalConstants.decimals(in: c.right) }
        if let (_, type) = rightType, type == .decimal, op != .in, op != .between { c.left = DecimalConstants.decimals(in: c.left) }
        guard [.lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between].contains(op) else { return c }
        switch (leftType, rightType) {
        case let ((name, type)?, (otherName, otherType)?):
            if let a = sample(type), let b = sample(otherType), ValueComparison.order(a, b) == nil {
                throw StoreError(.typeMismatch, "'\(op.symbol)' cannot order \(name), a \(type.name) attribute of \(entity.name), and \(otherName), a \(otherType.name) attribute",
                                 entity: entity.name, key: name)
            }
        case let ((name, type)?, nil):
            try checkOrder(op, attribute: name, type, against: c.right, entity: entity)
        case let (nil, (name, type)?) where op != .between:
            try checkOrder(op, attribute: name, type, against: c.left, entity: entity)
        default: break
        }
        return c
    }

    /// The attribute a key path from the fetched object ends at (through to-one and to-many
    /// steps alike: the elements of `items.price` are prices), with its path as written.
    private static func attribute(_ expression: ExpressionNode, entity: EntityDescription, model: DataModel) -> (String, AttributeType)? {
        let keys: [String]
        switch expression.kind {
        case .keyPath(nil, let k): keys = k
        case .keyPath(let base?, let k):
            guard case .evaluatedObject = base.kind else { return nil }
            keys = k
        default: return nil
        }
        guard case .attribute(let attribute)? = try? ModelKeyPaths.resolve(keys, from: entity, model: model).0,
              attribute.type != .undefined else { return nil }
        return (keys.joined(separator: "."), attribute.type)
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES test strings: on an attribute that holds
    /// none (a Date, a number) they would be false on every object, so they are an error that
    /// says what to write. (CONTAINS on a to-many key path is membership, not a string test.)
    private static func checkStringOperator(_ c: Comparison, entity: EntityDescription, model: DataModel) throws(StoreError) {
        for expression in [c.left, c.right] {
            guard let (name, type) = attribute(expression, entity: entity, model: model), ![.string, .uri].contains(type) else { continue }
            // `tags.name CONTAINS x` (no qualifier) is membership in the collection.
            if c.operator == .contains, c.modifier == .direct, crossesToMany(c.left, entity: entity, model: model) { continue }
            var hint = ""
            if type == .date { hint = #" (compare it with dates: \#(name) >= "2011-01-01")"# }
            throw StoreError(.typeMismatch, "\(c.operator.symbol) needs a string, and \(name) is a \(type.name) attribute of \(entity.name)\(hint)",
                             entity: entity.name, key: name)
        }
    }

    private static func crossesToMany(_ expression: ExpressionNode, entity: EntityDescription, model: DataModel) -> Bool {
        guard case .keyPath(_, let keys) = expression.kind, let resolved = try? ModelKeyPaths.resolve(keys, from: entity, model: model) else { return false }
        return resolved.crossesToMany
    }

    /// A value of an attribute type, to ask the evaluator's order whether two kinds have one.
    private static func sample(_ type: AttributeType) -> Value? {
        switch type {
        case .integer16, .integer32, .integer64: .int(0)
        case .double, .float: .double(0)
        case .decimal: .decimal(0)
        case .boolean: .bool(false)
        case .string, .uri: .string("")
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .binary, .transformable: .data(Data())
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .undefined: nil
        }
    }

    /// An ordering of an attribute against constants (one, or BETWEEN's two bounds).
    private static func checkOrder(_ op: ComparisonOperator, attribute name: String, _ type: AttributeType,
                                   against expression: ExpressionNode, entity: EntityDescription) throws(StoreError) {
        guard let a = sample(type) else { return }
        var constants: [ExpressionNode] = []
        switch expression.kind {
        case .constant: constants = [expression]
        case .aggregate(let elements) where op == .between: constants = elements
        default: return
        }
        for constant in constants {
            guard let value = constantValue(constant) else { continue }
            if value.isNull || ValueComparison.order(a, value) != nil { continue }
            throw StoreError(.typeMismatch, "'\(op.symbol)' cannot order \(name), a \(type.name) attribute of \(entity.name), and the \(value.kindName) \(constant)",
                             entity: entity.name, key: name)
        }
    }

    /// The value of a constant, or of an expression of constants (`%@['since']`, `-5`), as the
    /// evaluator computes it; nil for anything else.
    private static func constantValue(_ expression: ExpressionNode) -> Value? {
        if case .constant(let c) = expression.kind { return Value(c) }
        guard expression.isConstantExpression, let value = try? CompiledExpression.constantValue(of: expression) else { return nil }
        return value.collectionElements == nil ? value : nil
    }

    /// String constants (alone, or in an aggregate for IN and BETWEEN) read as ISO 8601 dates.
    private static func dates(in expression: ExpressionNode, attribute name: String, entity: EntityDescription) throws(StoreError) -> ExpressionNode {
        var result = expression
        if case .aggregate(let elements) = expression.kind {
            var converted: [ExpressionNode] = []
            for element in elements { converted.append(try dates(in: element, attribute: name, entity: entity)) }
            result.kind = .aggregate(converted)
            return result
        }
        // A literal, or a computed constant (`%@['since']`) read as its string.
        guard case .string(let text)? = constantValue(expression) else { return expression }
        guard let date = ISO8601.date(from: text) else {
            let literal = ExpressionNode(.constant(.string(text)))
            throw StoreError(.typeMismatch, "\(literal) is not an ISO 8601 date; \(name) is a Date attribute of \(entity.name) (write a date such as \"2017-07-08T00:00:00Z\")",
                             entity: entity.name, key: name)
        }
        result.kind = .constant(.date(date))
        return result
    }
}
