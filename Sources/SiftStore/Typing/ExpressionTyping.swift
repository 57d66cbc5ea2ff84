import SiftEvaluation
import SiftLanguage

/// Where an expression is typed: what `SELF` is (the fetched entity's object, a SUBQUERY's
/// element, a grouped fetch's row), and what each bound `$variable` is.
package struct TypingScope {
    package let model: DataModel
    /// `SELF`, and what a bare key path reads.
    package var root: TypedValue
    /// The variables bound around the expression (a SUBQUERY's `$x`).
    package var variables: [String: TypedValue]

    /// The scope of a predicate on objects of `entity`.
    package init(entity: EntityDescription, model: DataModel) {
        self.model = model
        self.root = TypedValue(.object(entity: entity.name))
        self.variables = [:]
    }

    /// The scope of a HAVING predicate: it reads a grouped fetch's rows, whose keys are the
    /// properties' names.
    package init(rowOf properties: [String: TypedValue], model: DataModel) {
        self.model = model
        self.root = TypedValue(.row(properties))
        self.variables = [:]
    }

    /// The scope inside `SUBQUERY(collection, $name, …)`: `$name` and a bare key path both read
    /// the element.
    func binding(_ name: String, to element: TypedValue) -> TypingScope {
        var scope = self
        scope.root = element
        scope.variables[name] = element
        return scope
    }
}

/// The static type of an expression over a model (``StaticType``), with the evaluator's
/// semantics: key paths through to-one and to-many steps (a to-many step makes a collection),
/// collection operators (`@count` an integer, `@sum` of integers an integer, `@avg` a double,
/// `@min`/`@max` the element's kind, `@sum` of dates 0 and `@avg` of dates nil, since they
/// add numbers only), functions (``FunctionCatalog``), CAST, TERNARY, indexes, arithmetic.
///
/// Typing a key path checks it: a key an entity does not have, or a key after an attribute,
/// is an error naming the key, wherever the path starts (`SELF`, a SUBQUERY's variable, a
/// HAVING row).
package enum ExpressionTyping {
    package static func type(of expression: ExpressionNode, in scope: TypingScope) throws(StoreError) -> TypedValue {
        switch expression.kind {
        case .constant(let constant):
            return TypedValue(StaticType(Value(constant)))
        case .evaluatedObject:
            return scope.root
        case .variable(let name):
            return scope.variables[name] ?? .any
        case .keyPath(let base, let keys):
            let start: TypedValue
            switch base?.kind {
            case nil, .evaluatedObject?: start = scope.root
            case .some: start = try type(of: base!, in: scope)
            }
            return try walk(keys[...], from: start, in: scope)
        case .aggregate(let elements):
            var types: [StaticType] = []
            for element in elements { types.append(try type(of: element, in: scope).type) }
            return TypedValue(.collection(StaticType.common(types)))
        case .dictionary(let entries):
            for entry in entries { _ = try type(of: entry.value, in: scope) }
            return .any
        case .index(let base, let position):
            let collection = try type(of: base, in: scope)
            switch position {
            case .size: return TypedValue(.scalar(.integer))
            case .first, .last:
                return element(of: collection)
            case .expression(let index):
                if collection.type.isCollection { return element(of: collection) }
                // `object['key']` reads the key.
                if case .constant(.string(let key)) = index.kind, collection.type.entityName != nil || isRow(collection.type) {
                    return try walk([key][...], from: collection, in: scope)
                }
                return .any
            }
        case .function(let name, let arguments):
            var types: [TypedValue] = []
            for argument in arguments { types.append(try type(of: argument, in: scope)) }
            guard let function = BuiltinFunction(selector: name) else { return .any }
            return self.function(function, types)
        case .functionExpression(let receiver, let selector, let arguments):
            var types: [TypedValue] = []
            for argument in [receiver] + arguments { types.append(try type(of: argument, in: scope)) }
            guard let function = BuiltinFunction(selector: selector) else { return .any }
            if function.arity == arguments.count + 1 { return self.function(function, types) }
            if function.arity == arguments.count { return self.function(function, Array(types.dropFirst())) }
            return .any
        case .subquery(let collection, _, _):
            let elements = try type(of: collection, in: scope)
            return TypedValue(.collection(elements.type.element))
        case .ternary(_, let then, let otherwise):
            let a = try type(of: then, in: scope), b = try type(of: otherwise, in: scope)
            if a.type == b.type { return a.origin == b.origin ? a : TypedValue(a.type) }
            return TypedValue(StaticType.common([a.type, b.type]))
        case .cast(let value, let typeName):
            let source = try type(of: value, in: scope)
            switch CastType(name: typeName) {
            case .number?:
                if case .scalar(let kind) = source.type, kind == .integer || kind == .boolean { return TypedValue(.scalar(.integer)) }
                return TypedValue(.scalar(.real))
            case .string?: return TypedValue(.scalar(.string))
            case .date?: return TypedValue(.scalar(.date))
            case .decimalNumber?: return TypedValue(.scalar(.decimal))
            case .data?: return TypedValue(.scalar(.data))
            case .uuid?: return TypedValue(.scalar(.uuid))
            case .managedObjectID?, nil: return .any
            }
        case .assignment(_, let value):
            return try type(of: value, in: scope).computed
        case .unary(_, let operand):
            let value = try type(of: operand, in: scope)
            if case .scalar(let kind) = value.type, kind.isNumber { return TypedValue(.scalar(kind == .boolean ? .integer : kind)) }
            return .any
        case .binary(let op, let a, let b):
            return arithmetic(op, try type(of: a, in: scope), try type(of: b, in: scope))
        }
    }

    private static func isRow(_ type: StaticType) -> Bool {
        if case .row = type { return true }
        return false
    }

    /// One element of a collection (a to-many key path's, a SUBQUERY's): the element's type.
    static func element(of collection: TypedValue) -> TypedValue {
        guard case .collection(let element) = collection.type else { return collection.type == .any ? .any : TypedValue(collection.type) }
        var value = collection
        value.type = element
        return value
    }

    // MARK: Key paths

    /// Follows `keys` from a value of type `start`.
    static func walk(_ keys: ArraySlice<String>, from start: TypedValue, in scope: TypingScope) throws(StoreError) -> TypedValue {
        var current = start
        var index = keys.startIndex
        while index < keys.endIndex {
            let key = keys[index]
            if key.hasPrefix("@") {
                return try collectionOperator(key, rest: keys[(index + 1)...], on: current, in: scope)
            }
            let isCollection = current.type.isCollection
            switch current.type.element {
            case .object(let entityName):
                guard let entity = scope.model.entity(named: entityName) else { return .any }
                switch entity.slot(of: key) {
                case .attribute(let slot):
                    let attribute = entity.attributes[slot]
                    let type = StaticType(attribute.type)
                    current = TypedValue(isCollection ? .collection(type) : type,
                                         origin: .attribute(name: attribute.name, type: attribute.type, entity: entity.name))
                case .relationship(let slot):
                    let relationship = entity.relationships[slot]
                    guard scope.model.entity(named: relationship.destination) != nil else {
                        throw StoreError(.unknownEntity, "unknown entity '\(relationship.destination)'", entity: entity.name)
                    }
                    let object = StaticType.object(entity: relationship.destination)
                    current = TypedValue(isCollection || relationship.isToMany ? .collection(object) : object,
                                         origin: .relationship(name: relationship.name, destination: relationship.destination,
                                                               isToMany: relationship.isToMany, entity: entity.name))
                case nil:
                    throw StoreError(.unknownKey, entity.unknownKeyMessage(key), entity: entity.name, key: key)
                }
            case .row(let properties):
                guard let property = properties[key] else {
                    let names = properties.keys.sorted()
                    var message = "unknown key '\(key)' in HAVING: it reads the result's properties (\(names.joined(separator: ", ")))"
                    if let suggestion = Suggestions.closest(to: key, in: names) { message += "; did you mean '\(suggestion)'?" }
                    throw StoreError(.unknownKey, message, key: key)
                }
                current = property
            case .scalar:
                // A key after an attribute this path reached (`title.length`).
                if index > keys.startIndex, let attributeType = current.attributeType {
                    let written = keys[..<index].joined(separator: ".")
                    throw StoreError(.unknownKey, "'\(written)' is \(AttributeText.article(attributeType.name)) \(attributeType.name) attribute; it has no key '\(key)'",
                                     entity: start.type.entityName, key: keys.joined(separator: "."))
                }
                return .any
            case .any, .null, .collection:
                return .any
            }
            index += 1
        }
        return current
    }

    /// `collection.@op.rest`: the rest of the path is read on each element.
    private static func collectionOperator(_ key: String, rest: ArraySlice<String>, on collection: TypedValue,
                                           in scope: TypingScope) throws(StoreError) -> TypedValue {
        let elements = try walk(rest, from: element(of: collection), in: scope)
        guard let op = CollectionOperator(key: key) else { return .any }
        switch op {
        case .count: return TypedValue(.scalar(.integer))
        case .sum: return sum(of: elements)
        case .avg: return average(of: elements)
        case .min, .max: return TypedValue(elements.type.element)
        case .distinctUnionOfObjects, .unionOfObjects: return TypedValue(.collection(elements.type.element))
        }
    }

    /// What a sum of the values yields: numbers skip everything else, so a sum of dates or
    /// strings is always 0.
    static func sum(of values: TypedValue) -> TypedValue {
        guard case .scalar(let kind) = values.type.element else { return .any }
        if kind.isNumber { return TypedValue(.scalar(kind == .boolean ? .integer : kind)) }
        return TypedValue(.scalar(.integer), degenerate: "is always 0: a sum adds numbers, and \(what(values, kind))")
    }

    /// What a mean (`@avg`, `average:`) yields: nil for values that are no numbers.
    static func average(of values: TypedValue) -> TypedValue {
        guard case .scalar(let kind) = values.type.element else { return .any }
        if kind.isNumber { return TypedValue(.scalar(kind == .decimal ? .decimal : .real)) }
        return TypedValue(.null, degenerate: "is always nil: a mean is of numbers, and \(what(values, kind))")
    }

    /// "InvoiceDate is a Date attribute of Invoice", "the values are dates".
    private static func what(_ values: TypedValue, _ kind: ScalarKind) -> String {
        if case .attribute(let name, _, _)? = values.origin { return "\(CanonicalPrinter.formatKey(name)) is \(values.phrase)" }
        return "the values are \(kind.pluralPhrase)"
    }

    // MARK: Functions and arithmetic

    /// The result of a function (``Functions``) on arguments of these types.
    static func function(_ function: BuiltinFunction, _ arguments: [TypedValue]) -> TypedValue {
        let first = arguments.first ?? .any
        switch function {
        case .count: return TypedValue(.scalar(.integer))
        case .sum: return sum(of: first)
        case .average: return average(of: first)
        case .median, .stddev:
            guard case .scalar(let kind) = first.type.element else { return .any }
            return kind.isNumber ? TypedValue(.scalar(.real)) : TypedValue(.null)
        case .min, .max, .mode: return TypedValue(first.type.element)
        case .add: return arithmetic(.add, first, arguments.dropFirst().first ?? .any)
        case .subtract: return arithmetic(.subtract, first, arguments.dropFirst().first ?? .any)
        case .multiply: return arithmetic(.multiply, first, arguments.dropFirst().first ?? .any)
        case .divide: return arithmetic(.divide, first, arguments.dropFirst().first ?? .any)
        case .modulus, .raise: return number(first)
        case .sqrt, .log, .ln, .exp, .random: return TypedValue(.scalar(.real))
        case .floor, .ceiling, .trunc, .abs: return number(first)
        case .uppercase, .lowercase, .canonical: return TypedValue(.scalar(.string))
        case .now: return TypedValue(.scalar(.date))
        case .randomBelow, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift, .onesComplement:
            return TypedValue(.scalar(.integer))
        case .noindex: return first
        }
    }

    /// A number computed from a value of this type (its own kind where it is a number).
    private static func number(_ value: TypedValue) -> TypedValue {
        if case .scalar(let kind) = value.type, kind.isNumber { return TypedValue(.scalar(kind == .boolean ? .integer : kind)) }
        return value.type == .any ? .any : TypedValue(.scalar(.real))
    }

    /// `a op b` (``Arithmetic``): numbers give numbers; `date ± n` a date, `date - date` seconds.
    static func arithmetic(_ op: BinaryOperator, _ a: TypedValue, _ b: TypedValue) -> TypedValue {
        guard case .scalar(let x) = a.type, case .scalar(let y) = b.type else { return .any }
        switch op {
        case .add, .subtract:
            if x == .date, y.isNumber { return TypedValue(.scalar(.date)) }
            if op == .add, y == .date, x.isNumber { return TypedValue(.scalar(.date)) }
            if op == .subtract, x == .date, y == .date { return TypedValue(.scalar(.real)) }
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
            return TypedValue(.scalar(.integer))
        case .multiply, .divide, .power:
            break
        }
        guard x.isNumber, y.isNumber else { return .any }
        if op == .divide || op == .power { return TypedValue(.scalar(x == .decimal || y == .decimal ? .decimal : .real)) }
        let merged = x.mergedNumber(y)
        return TypedValue(.scalar(merged == .boolean ? .integer : merged))
    }
}
