import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Makes random predicates over an entity of the differential model, as format strings,
/// restricted to what the model's types allow: every comparison is between values that have a
/// meaning together (strings with strings, numbers with numbers, dates with dates, objects with
/// object IDs), so the predicates exercise the language rather than type errors.
///
/// It covers LANGUAGE.md: comparisons with `[c] [d] [cd] [n]`, BEGINSWITH / ENDSWITH / CONTAINS /
/// LIKE / MATCHES, IN (aggregates, key paths, substrings), BETWEEN, nil, to-one key paths,
/// ANY / ALL / NONE / SOME and implicit ANY over to-many key paths (across one to-many step, or
/// several with to-one steps between them, which may reach nil), `@count @sum @avg @min @max`,
/// SUBQUERY, `[FIRST]` / `[LAST]` / `[n]` of to-many key paths, arithmetic (division by zero,
/// overflow, `**`, NaN and infinities), functions (case mappings nested and compared under `[n]`,
/// `FUNCTION(…)`), TERNARY, CAST, TRUEPREDICATE / FALSEPREDICATE, AND / OR / NOT. A few predicates (about one in fifty) are errors that do not
/// depend on the data — an unknown key, an invalid regular expression, string arithmetic — which
/// every store must refuse.
///
/// Constants are drawn half the time from the data set's own values (so comparisons match
/// something) and otherwise from ``DifferentialValues``.
struct PredicateGenerator {
    let model: DataModel
    var random: DifferentialRandom
    /// How deep AND / OR / NOT nest.
    var maximumDepth = 3
    /// One predicate in this many is a deliberate error (0: none).
    var errorRate = 50

    /// The values the data set holds, by attribute name.
    private let observed: [String: [Value]]
    /// The object IDs the data set holds, by entity (sub-entity objects listed under `Item`
    /// too).
    private let objectIDs: [String: [ObjectID]]
    private var catalogues: [String: Catalogue] = [:]

    init(model: DataModel, dataSet: DifferentialDataSet, seed: UInt64) {
        self.model = model
        self.random = DifferentialRandom(seed: seed)
        var observed: [String: [Value]] = [:]
        var ids: [String: [ObjectID]] = [:]
        for object in dataSet.objects {
            for (name, value) in object.attributes where !value.isNull { observed[name, default: []].append(value) }
            ids[object.entity, default: []].append(object.id)
            if object.entity == "SpecialItem" { ids["Item", default: []].append(object.id) }
        }
        self.observed = observed
        self.objectIDs = ids
    }

    // MARK: Key paths

    /// A key path to one attribute value (only to-one steps).
    struct ScalarPath {
        let path: String
        let attribute: DifferentialModel.Attribute
        var type: DifferentialModel.ValueType { attribute.type }
    }

    /// A key path to an object through to-one steps (`owner`, `parent.owner`).
    struct ObjectPath {
        let path: String
        let entity: String
    }

    /// A key path across one to-many step (`tags`, `owner.items`), or several
    /// (`tags.items.children`, `children.owner.items`).
    struct ManyPath {
        let path: String
        let entity: String
    }

    /// The key paths an entity offers, to two steps (and deeper ones across several to-many
    /// steps).
    struct Catalogue {
        var own: [ScalarPath] = []
        var scalars: [ScalarPath] = []
        var objects: [ObjectPath] = []
        var many: [ManyPath] = []
        /// Across two or three to-many steps, perhaps with a to-one step between two of them
        /// (`tags.items.owner.items`): the evaluator flattens them into one collection, an
        /// object reached twice counted twice, a nil to-one one nil element.
        var deepMany: [ManyPath] = []
    }

    private mutating func catalogue(_ entity: String) -> Catalogue {
        if let known = catalogues[entity] { return known }
        var catalogue = Catalogue()
        catalogue.own = DifferentialModel.attributes(of: entity, in: model).map { ScalarPath(path: $0.name, attribute: $0) }
        catalogue.scalars = catalogue.own
        for first in DifferentialModel.relationships(of: entity, in: model) {
            if first.isToMany {
                catalogue.many.append(ManyPath(path: first.name, entity: first.destination))
                continue
            }
            catalogue.objects.append(ObjectPath(path: first.name, entity: first.destination))
            for attribute in DifferentialModel.attributes(of: first.destination, in: model) {
                catalogue.scalars.append(ScalarPath(path: "\(first.name).\(attribute.name)", attribute: attribute))
            }
            for second in DifferentialModel.relationships(of: first.destination, in: model) {
                let path = "\(first.name).\(second.name)"
                if second.isToMany {
                    catalogue.many.append(ManyPath(path: path, entity: second.destination))
                    continue
                }
                catalogue.objects.append(ObjectPath(path: path, entity: second.destination))
                for attribute in DifferentialModel.attributes(of: second.destination, in: model) {
                    catalogue.scalars.append(ScalarPath(path: "\(path).\(attribute.name)", attribute: attribute))
                }
            }
        }
        // One more to-many step after each, straight or through a to-one step; then a third
        // straight one after those that went straight.
        for many in catalogue.many {
            for next in DifferentialModel.relationships(of: many.entity, in: model) {
                if next.isToMany {
                    let deeper = ManyPath(path: "\(many.path).\(next.name)", entity: next.destination)
                    catalogue.deepMany.append(deeper)
                    for third in DifferentialModel.relationships(of: next.destination, in: model) where third.isToMany {
                        catalogue.deepMany.append(ManyPath(path: "\(deeper.path).\(third.name)", entity: third.destination))
                    }
                    continue
                }
                for third in DifferentialModel.relationships(of: next.destination, in: model) where third.isToMany {
                    catalogue.deepMany.append(ManyPath(path: "\(many.path).\(next.name).\(third.name)", entity: third.destination))
                }
            }
        }
        catalogues[entity] = catalogue
        return catalogue
    }

    /// Where a predicate is being generated: the entity its key paths start from, and the
    /// prefix they are written with (`$t.` inside a SUBQUERY over the variable `$t`).
    struct Scope {
        var entity: String
        var prefix: String = ""
        /// Nesting of SUBQUERY (variables are `$v0`, `$v1`, ...).
        var subqueryDepth = 0
        /// Errors only at the top level: inside a SUBQUERY an unknown key is found only when an
        /// element is evaluated, so whether it is an error would depend on the data.
        var allowsErrors: Bool { subqueryDepth == 0 }
    }

    // MARK: Predicates

    /// A random predicate over `entity`, as a format string.
    mutating func predicate(entity: String) -> String {
        predicate(Scope(entity: entity), depth: 0)
    }

    mutating func predicate(_ scope: Scope, depth: Int) -> String {
        let compoundWeight = depth < maximumDepth ? max(0, 30 - depth * 10) : 0
        switch random.weighted([(compoundWeight, 0), (70, 1), (2, 2)], or: 1) {
        case 0:
            switch random.weighted([(5, 0), (4, 1), (2, 2)], or: 0) {
            case 0, 1:
                let count = random.int(in: 2...3)
                let parts = (0..<count).map { _ in operand(predicate(scope, depth: depth + 1)) }
                return parts.joined(separator: random.chance(1, in: 2) ? (random.chance(1, in: 5) ? " && " : " AND ") : (random.chance(1, in: 5) ? " || " : " OR "))
            default:
                return (random.chance(1, in: 6) ? "!" : "NOT ") + operand(predicate(scope, depth: depth + 1))
            }
        case 1:
            return comparison(scope)
        default:
            return random.pick(["TRUEPREDICATE", "FALSEPREDICATE"], or: "TRUEPREDICATE")
        }
    }

    /// A sub-predicate in parentheses (always: the generator does not rely on precedence).
    private func operand(_ text: String) -> String { "(\(text))" }

    private mutating func comparison(_ scope: Scope) -> String {
        if scope.allowsErrors, errorRate > 0, random.below(errorRate) == 0 { return errorPredicate(scope) }
        let catalogue = catalogue(scope.entity)
        let hasMany = !catalogue.many.isEmpty
        let hasObjects = !catalogue.objects.isEmpty || scope.subqueryDepth == 0
        switch random.weighted([
            (30, 0),  // attribute compared with a constant
            (6, 1),  // nil
            (6, 2),  // IN an aggregate
            (5, 3),  // BETWEEN
            (8, 4),  // arithmetic and functions on numbers
            (6, 5),  // functions and CAST on strings, dates
            (4, 6),  // two key paths
            (hasMany ? 10 : 0, 7),  // ANY / ALL / NONE / SOME
            (hasMany ? 6 : 0, 8),  // implicit ANY
            (hasMany ? 8 : 0, 9),  // aggregates
            (hasMany && scope.subqueryDepth < 2 ? 5 : 0, 10),  // SUBQUERY
            (hasMany ? 4 : 0, 11),  // IN a to-many key path
            (hasObjects ? 5 : 0, 12),  // objects and object IDs
            (3, 13),  // TERNARY
            (hasMany ? 5 : 0, 14),  // [FIRST] / [LAST] / [n]
        ], or: 0) {
        case 0: return attributeComparison(scope)
        case 1: return nilComparison(scope)
        case 2: return inAggregate(scope)
        case 3: return between(scope)
        case 4: return numericComparison(scope)
        case 5: return convertedComparison(scope)
        case 6: return pathComparison(scope)
        case 7: return qualified(scope)
        case 8: return implicitAny(scope)
        case 9: return aggregateComparison(scope)
        case 10: return subqueryComparison(scope)
        case 11: return inKeyPath(scope)
        case 12: return objectComparison(scope)
        case 13: return ternaryComparison(scope)
        default: return indexComparison(scope)
        }
    }

    // MARK: Comparisons of one attribute

    /// Usually an attribute of the scope's entity, sometimes one a to-one step away
    /// (`owner.name`), now and then two steps away (`parent.owner.age`, often nil).
    private mutating func scalarPath(_ scope: Scope, where accept: (ScalarPath) -> Bool = { _ in true }) -> ScalarPath? {
        let catalogue = catalogue(scope.entity)
        let candidates = catalogue.scalars.filter(accept)
        let steps = random.weighted([(12, 0), (6, 1), (2, 2)], or: 0)
        let chosen = candidates.filter { path in path.path.count(where: { $0 == "." }) == steps }
        return random.pick(chosen) ?? random.pick(candidates.filter { !$0.path.contains(".") }) ?? random.pick(candidates)
    }

    private func key(_ scope: Scope, _ path: String) -> String { scope.prefix + path }

    private mutating func attributeComparison(_ scope: Scope) -> String {
        guard let path = scalarPath(scope) else { return "TRUEPREDICATE" }
        let left = key(scope, path.path)
        return typedComparison(left: left, type: path.type, attribute: path.attribute)
    }

    /// `left op constant` for a left side of `type`, with operators and options the type has.
    private mutating func typedComparison(left: String, type: DifferentialModel.ValueType, attribute: DifferentialModel.Attribute?) -> String {
        switch type {
        case .string:
            let op = stringOperator()
            let right = stringOperand(for: op, attribute: attribute)
            // Now and then the constant on the left: `"abcdef" CONTAINS name`, `5 > count`.
            if ["==", "!=", "BEGINSWITH", "CONTAINS", "ENDSWITH"].contains(op), random.chance(1, in: 12) {
                return "\(right) \(op)\(stringOptions()) \(left)"
            }
            return "\(left) \(op)\(stringOptions()) \(right)"
        case .integer, .double:
            let op = random.pick(["==", "!=", "<", "<=", ">", ">=", "=", "<>", "=<", "=>"], or: "==")
            let right = numericConstant(attribute: attribute)
            if random.chance(1, in: 10) { return "\(right) \(op) \(left)" }
            return "\(left) \(op) \(right)"
        case .boolean:
            let op = random.weighted([(5, "=="), (4, "!="), (1, "<"), (1, ">=")], or: "==")
            return "\(left) \(op) \(random.pick(["YES", "NO", "TRUE", "FALSE", "1", "0", "true", "no"], or: "YES"))"
        case .date:
            let op = random.pick(["==", "!=", "<", "<=", ">", ">="], or: "==")
            return "\(left) \(op) \(dateConstant(attribute: attribute))"
        case .uuid:
            return "\(left) \(random.pick(["==", "!="], or: "==")) \(uuidConstant())"
        }
    }

    private mutating func stringOperator() -> String {
        random.weighted([
            (6, "=="), (3, "!="), (2, "<"), (1, "<="), (2, ">"), (1, ">="), (4, "BEGINSWITH"), (3, "ENDSWITH"),
            (4, "CONTAINS"), (4, "LIKE"), (3, "MATCHES"),
        ], or: "==")
    }

    private mutating func stringOptions() -> String {
        random.weighted([(10, ""), (4, "[c]"), (3, "[d]"), (4, "[cd]"), (1, "[n]"), (1, "[l]"), (1, "[cdl]"), (1, "[CD]")], or: "")
    }

    private mutating func nilComparison(_ scope: Scope) -> String {
        let catalogue = catalogue(scope.entity)
        let useObject = random.chance(1, in: 3) && !catalogue.objects.isEmpty
        let left: String
        if useObject, let object = random.pick(catalogue.objects) {
            left = key(scope, object.path)
        } else if let path = scalarPath(scope) {
            left = key(scope, path.path)
        } else {
            return "TRUEPREDICATE"
        }
        let op = random.weighted([(5, "=="), (4, "!="), (1, "<"), (1, ">=")], or: "==")
        let nilWord = random.pick(["nil", "NULL", "nil", "NIL"], or: "nil")
        return random.chance(1, in: 5) ? "\(nilWord) \(op) \(left)" : "\(left) \(op) \(nilWord)"
    }

    private mutating func inAggregate(_ scope: Scope) -> String {
        guard let path = scalarPath(scope, where: { $0.type != .boolean }) else { return "TRUEPREDICATE" }
        let count = random.weighted([(1, 0), (3, 1), (6, random.int(in: 2...4))], or: 2)
        var elements = (0..<count).map { _ in constant(for: path.type, attribute: path.attribute) }
        if random.chance(1, in: 4) { elements.insert("nil", at: random.below(elements.count + 1)) }
        let options = path.type == .string ? stringOptions() : ""
        return "\(key(scope, path.path)) IN\(options) {\(elements.joined(separator: ", "))}"
    }

    private mutating func between(_ scope: Scope) -> String {
        guard let path = scalarPath(scope, where: { $0.type != .uuid && $0.type != .boolean }) else { return "TRUEPREDICATE" }
        let low = constant(for: path.type, attribute: path.attribute)
        let high = constant(for: path.type, attribute: path.attribute)
        let left = path.type == .integer || path.type == .double ? numericExpression(scope, depth: 1).text : key(scope, path.path)
        let options = path.type == .string ? stringOptions() : ""
        return "\(left) BETWEEN\(options) {\(low), \(high)}"
    }

    private mutating func pathComparison(_ scope: Scope) -> String {
        guard let first = scalarPath(scope) else { return "TRUEPREDICATE" }
        let compatible = catalogue(scope.entity).scalars.filter { other in
            other.path != first.path && (other.type == first.type || (other.type.isNumeric && first.type.isNumeric))
        }
        guard let second = random.pick(compatible) else { return attributeComparison(scope) }
        let op: String
        switch first.type {
        case .string: op = random.pick(["==", "!=", "<", ">", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE"], or: "==") + stringOptions()
        case .uuid, .boolean: op = random.pick(["==", "!="], or: "==")
        default: op = random.pick(["==", "!=", "<", "<=", ">", ">="], or: "==")
        }
        return "\(key(scope, first.path)) \(op) \(key(scope, second.path))"
    }

    // MARK: Numbers

    /// A numeric expression, and whether it is certainly an integer (bitwise operators on
    /// integer key paths), for callers that need one.
    struct NumericExpression {
        var text: String
        var isInteger: Bool
    }

    private mutating func numericComparison(_ scope: Scope) -> String {
        let expression = numericExpression(scope, depth: 0)
        let op = random.pick(["==", "!=", "<", "<=", ">", ">="], or: "==")
        let right: String
        switch random.weighted([(6, 0), (2, 1), (1, 2)], or: 0) {
        case 0: right = numericConstant(attribute: nil)
        case 1: right = numericExpression(scope, depth: 1).text
        default: right = "nil"
        }
        return "\(expression.text) \(op) \(right)"
    }

    /// A numeric key path (integer only when asked; a boolean, which is a number, now and then).
    private mutating func numericPath(_ scope: Scope, integer: Bool = false) -> String? {
        let booleans = !integer && random.chance(1, in: 8)
        return scalarPath(scope) { $0.type == .integer || (!integer && $0.type == .double) || (booleans && $0.type == .boolean) }
            .map { key(scope, $0.path) }
    }

    mutating func numericExpression(_ scope: Scope, depth: Int) -> NumericExpression {
        guard let path = numericPath(scope) else { return NumericExpression(text: numericConstant(attribute: nil), isInteger: false) }
        let deeper = depth < 2
        let hasMany = !catalogue(scope.entity).many.isEmpty
        switch random.weighted([
            (6, 0), (8, 1), (2, 2), (3, 3), (2, 4), (4, 5), (2, 6), (3, 7), (2, 8), (3, 9), (hasMany ? 4 : 0, 10),
            (deeper ? 2 : 0, 11), (2, 12), (2, 13), (1, 14), (3, 15),
        ], or: 0) {
        case 0:
            return NumericExpression(text: path, isInteger: false)
        case 1:
            // path op constant, the constant sometimes zero or near the limits.
            let op = random.pick(["+", "-", "*", "/"], or: "+")
            let constant = random.weighted([(5, smallNumber()), (2, "0"), (1, "0.0"), (2, overflowConstant())], or: "1")
            return NumericExpression(text: random.chance(1, in: 4) ? "\(constant) \(op) \(path)" : "\(path) \(op) \(constant)", isInteger: false)
        case 2:
            let other = numericPath(scope) ?? path
            return NumericExpression(text: "\(path) \(random.pick(["+", "-", "*", "/"], or: "+")) \(other)", isInteger: false)
        case 3:
            return NumericExpression(text: "-\(path)", isInteger: false)
        case 4:
            let inner = deeper ? numericExpression(scope, depth: depth + 1).text : path
            return NumericExpression(text: "(\(inner)) \(random.pick(["+", "-", "*", "/"], or: "*")) \(smallNumber())", isInteger: false)
        case 5:
            let function = random.pick(["abs", "floor", "ceiling", "trunc", "noindex", "abs:", "floor:"], or: "abs")
            return NumericExpression(text: "\(function)(\(path))", isInteger: false)
        case 6:
            return NumericExpression(text: "sqrt(abs(\(path)))", isInteger: false)
        case 7:
            let function = random.pick(["modulus:by:", "add:to:", "from:subtract:", "multiply:by:", "divide:by:"], or: "add:to:")
            let constant = random.weighted([(4, smallNumber()), (1, "0")], or: "1")
            return NumericExpression(text: "\(function)(\(path), \(constant))", isInteger: false)
        case 8:
            return NumericExpression(text: "\(path) ** \(random.pick(["0", "1", "2", "3", "2.0"], or: "2"))", isInteger: false)
        case 9:
            // Bitwise operators, on integer key paths only.
            guard let integer = numericPath(scope, integer: true) else { return NumericExpression(text: path, isInteger: false) }
            let shift = String(random.int(in: 0...8))
            let mask = random.pick(["1", "3", "7", "255", "-1", "0"], or: "1")
            let text = random.pick([
                "\(integer) & \(mask)", "\(integer) | \(mask)", "\(integer) ^ \(mask)", "~\(integer)",
                "bitwiseAnd:with:(\(integer), \(mask))", "bitwiseOr:with:(\(integer), \(mask))", "bitwiseXor:with:(\(integer), \(mask))",
                "leftshift:by:(\(integer), \(shift))", "rightshift:by:(\(integer), \(shift))", "onesComplement:(\(integer))",
                "\(integer) << \(shift)", "\(integer) >> \(shift)",
            ], or: integer)
            return NumericExpression(text: text, isInteger: true)
        case 10:
            return NumericExpression(text: aggregateExpression(scope, numericOnly: true).text, isInteger: false)
        case 11:
            let a = numericExpression(scope, depth: depth + 1).text
            let b = random.chance(1, in: 2) ? numericExpression(scope, depth: depth + 1).text : numericConstant(attribute: nil)
            return NumericExpression(text: "TERNARY(\(predicate(scope, depth: maximumDepth)), \(a), \(b))", isInteger: false)
        case 12:
            // CAST to NSNumber of a number, a boolean or a date (seconds since 2001).
            let source = scalarPath(scope) { $0.type.isNumeric || $0.type == .date }.map { key(scope, $0.path) } ?? path
            return NumericExpression(text: "CAST(\(source), \"NSNumber\")", isInteger: false)
        case 13:
            let selector = random.pick(["multiply:by:", "add:to:", "divide:by:", "modulus:by:"], or: "add:to:")
            return NumericExpression(text: "FUNCTION(\(path), \(quoted(selector)), \(smallNumber()))", isInteger: false)
        case 14:
            // Dates subtract to seconds.
            guard let date = scalarPath(scope, where: { $0.type == .date }) else { return NumericExpression(text: path, isInteger: false) }
            return NumericExpression(text: "\(key(scope, date.path)) - \(dateConstant(attribute: nil))", isInteger: false)
        default:
            // Functions that may give NaN or infinities (a negative square root or logarithm, a
            // fractional power, fmod of an infinity, zero times infinity), which SQL cannot hold.
            let other = numericPath(scope) ?? path
            return NumericExpression(text: random.pick([
                "sqrt(\(path))", "log(\(path))", "ln(\(path))", "exp(\(path))", "\(path) ** 0.5", "\(path) ** -1",
                "raise:toPower:(\(path), \(other))", "modulus:by:(\(path), 2.5)", "modulus:by:(\(path) * 1e999, 3)",
                "\(path) * 1e999", "(\(path) * 1e999) - (\(other) * 1e999)", "floor(\(path) / 0.0)", "\(path) ** 2 - \(other) * 1e308",
            ], or: "sqrt(\(path))"), isInteger: false)
        }
    }

    private mutating func smallNumber() -> String {
        random.pick(["1", "2", "3", "-1", "10", "0.5", "2.5", "-0.5", "100", "7"], or: "1")
    }

    private mutating func overflowConstant() -> String {
        random.pick(["9223372036854775807", "-9223372036854775808", "4611686018427387904", "9223372036854775806", "-9223372036854775807"], or: "9223372036854775807")
    }

    // MARK: Strings and dates through functions

    private mutating func convertedComparison(_ scope: Scope) -> String {
        switch random.weighted([(5, 0), (2, 1), (2, 2), (2, 3), (1, 4), (2, 5), (2, 6)], or: 0) {
        case 5:
            // The text of a date or a UUID; a case mapping compared literally ([n]) or mapped again.
            if random.chance(1, in: 2), let path = scalarPath(scope, where: { $0.type == .date || $0.type == .uuid }) {
                let right = observedValue(path.attribute.name).map { quoted(ValueText.text($0)) } ?? quoted("2001")
                return "CAST(\(key(scope, path.path)), \"NSString\") \(random.pick(["==", "BEGINSWITH", "<", "CONTAINS[c]"], or: "==")) \(right)"
            }
            guard let path = scalarPath(scope, where: { $0.type == .string }) else { return attributeComparison(scope) }
            let inner = random.pick(["lowercase", "uppercase", "canonical"], or: "lowercase")
            let outer = random.pick(["uppercase", "lowercase", "noindex", "canonical"], or: "uppercase")
            let left = random.chance(1, in: 2) ? "\(outer)(\(inner)(\(key(scope, path.path))))" : "\(inner)(\(key(scope, path.path)))"
            return "\(left) \(random.pick(["==", "!=", "<", "BEGINSWITH", "LIKE", "MATCHES", "IN"], or: "=="))\(random.pick(["[n]", "", "[c]", "[n]"], or: "")) \(stringConstant(attribute: path.attribute))"
        case 6:
            // FUNCTION with string and numeric selectors, on the receiver or on the arguments alone.
            guard let path = scalarPath(scope, where: { $0.type == .string }) else { return attributeComparison(scope) }
            let selector = random.pick(["uppercase:", "lowercase:", "canonical:"], or: "uppercase:")
            let call = random.chance(1, in: 2) ? "FUNCTION(\(key(scope, path.path)), \(quoted(selector)))" : "FUNCTION(SELF, \(quoted(selector)), \(key(scope, path.path)))"
            return "\(call) \(random.pick(["==", "!=", "BEGINSWITH", "<"], or: "==")) \(stringConstant(attribute: path.attribute))"
        case 0:
            // lowercase / uppercase / canonical of a string key path.
            guard let path = scalarPath(scope, where: { $0.type == .string }) else { return attributeComparison(scope) }
            let function = random.pick(["lowercase", "uppercase", "canonical", "lowercase:", "noindex"], or: "lowercase")
            let left = "\(function)(\(key(scope, path.path)))"
            var constant = stringConstant(attribute: path.attribute)
            if random.chance(1, in: 2), case .string(let text)? = constantValue(constant) {
                constant = quoted(function.hasPrefix("upper") ? text.uppercased() : text.lowercased())
            }
            return "\(left) \(random.pick(["==", "!=", "BEGINSWITH", "<", "CONTAINS[c]"], or: "==")) \(constant)"
        case 1:
            // The text of a number, a boolean or a date.
            guard let path = scalarPath(scope, where: { $0.type != .string && $0.type != .uuid }) else { return attributeComparison(scope) }
            let left = "CAST(\(key(scope, path.path)), \"NSString\")"
            let right: String
            if random.chance(1, in: 2), let value = observedValue(path.attribute.name) {
                right = quoted(ValueText.text(value))
            } else {
                right = quoted(random.pick(["1", "0", "-1", "2.0", "1.5", "100", "-0.0", "0.0", "2021", "1e+300"], or: "1"))
            }
            return "\(left) \(random.pick(["==", "!=", "BEGINSWITH", "ENDSWITH", "<"], or: "==")) \(right)"
        case 2:
            // Dates moved by seconds.
            guard let path = scalarPath(scope, where: { $0.type == .date }) else { return attributeComparison(scope) }
            let shift = random.pick(["86400", "-1", "0.5", "3600", "-86400.25", "0"], or: "1")
            return "\(key(scope, path.path)) \(random.pick(["+", "-"], or: "+")) \(shift) \(random.pick(["==", "<", ">", ">=", "!="], or: "<")) \(dateConstant(attribute: path.attribute))"
        case 3:
            // A number read as a date.
            guard let path = numericPath(scope, integer: random.chance(1, in: 2)) else { return attributeComparison(scope) }
            return "CAST(\(path), \"NSDate\") \(random.pick(["==", "<", ">", "!="], or: "<")) \(dateConstant(attribute: nil))"
        default:
            // A constant of another kind converted for the comparison.
            guard let path = scalarPath(scope, where: { $0.type == .integer || $0.type == .double }) else { return attributeComparison(scope) }
            return "\(key(scope, path.path)) \(random.pick(["==", "<", ">="], or: "==")) CAST(\(quoted(random.pick(["5", "-1", "2.5", "0", " 7 ", "1e3"], or: "5"))), \"NSNumber\")"
        }
    }

    /// `tags[FIRST].name`, `children[LAST].count`, `owner.items[1]`, `tags[-1]` (nil): an element
    /// of a to-many relationship by its place, or a value read on it.
    private mutating func indexComparison(_ scope: Scope) -> String {
        guard let many = manyPath(scope) else { return attributeComparison(scope) }
        let index = random.weighted([(4, "[FIRST]"), (3, "[LAST]"), (2, "[0]"), (2, "[1]"), (1, "[2]"), (1, "[-1]"), (1, "[\"x\"]"), (1, "[1.0]")], or: "[FIRST]")
        let base = key(scope, many.path) + index
        if random.chance(1, in: 4) {
            return random.chance(1, in: 2)
                ? "\(base) \(random.pick(["==", "!="], or: "==")) nil"
                : "\(base) \(random.pick(["==", "!="], or: "==")) \(objectIDConstant(many.entity))"
        }
        let element = catalogue(many.entity)
        guard let path = random.pick(random.chance(4, in: 5) ? element.own : element.scalars) else { return "\(base) != nil" }
        return typedComparison(left: "\(base).\(path.path)", type: path.type, attribute: path.attribute)
    }

    private mutating func ternaryComparison(_ scope: Scope) -> String {
        guard let path = scalarPath(scope, where: { $0.type == .string || $0.type == .integer || $0.type == .double }) else { return "TRUEPREDICATE" }
        let condition = predicate(scope, depth: maximumDepth)
        let other = constant(for: path.type, attribute: path.attribute)
        let left = random.chance(1, in: 2)
            ? "TERNARY(\(condition), \(key(scope, path.path)), \(other))"
            : "TERNARY(\(condition), \(other), \(key(scope, path.path)))"
        return typedComparison(left: left, type: path.type, attribute: path.attribute)
    }

    // MARK: To-many key paths

    /// A to-many key path: across one to-many step, or a third of the time several.
    private mutating func manyPath(_ scope: Scope) -> ManyPath? {
        let catalogue = catalogue(scope.entity)
        if random.chance(1, in: 3), let deep = random.pick(catalogue.deepMany) { return deep }
        return random.pick(catalogue.many)
    }

    /// An attribute of the elements of a to-many key path (`tags.name`, `owner.items.count`),
    /// sometimes through a to-one step after the to-many one (`Tag.items.owner.age`).
    private mutating func elementPath(_ many: ManyPath, where accept: (ScalarPath) -> Bool = { _ in true }) -> ScalarPath? {
        let element = catalogue(many.entity)
        let candidates = (random.chance(4, in: 5) ? element.own : element.scalars).filter(accept)
        guard let path = random.pick(candidates) ?? random.pick(element.scalars.filter(accept)) else { return nil }
        return ScalarPath(path: "\(many.path).\(path.path)", attribute: path.attribute)
    }

    private mutating func qualified(_ scope: Scope) -> String {
        guard let many = manyPath(scope), let path = elementPath(many) else { return attributeComparison(scope) }
        let modifier = random.weighted([(4, "ANY"), (3, "ALL"), (3, "NONE"), (1, "SOME"), (1, "any")], or: "ANY")
        let left = key(scope, path.path)
        switch random.weighted([(6, 0), (1, 1), (1, 2), (1, 3)], or: 0) {
        case 3:
            // A to-many key path on the right is one value, the whole collection (nil after a nil
            // to-one): only IN looks inside it, `!=` holds, nil equals only nil.
            guard let otherMany = manyPath(scope), let right = elementPath(otherMany, where: { $0.type == path.type }) else {
                return "\(modifier) \(left) != nil"
            }
            let op = random.weighted([(3, "IN"), (2, "=="), (2, "!="), (1, "<"), (1, path.type == .string ? "BEGINSWITH" : ">=")], or: "IN")
            let options = path.type == .string ? stringOptions() : ""
            let single = random.chance(1, in: 3) ? "\(constant(for: path.type, attribute: path.attribute))" : left
            return "\(modifier) \(single) \(op)\(options) \(key(scope, right.path))"
        case 1:
            let low = constant(for: path.type, attribute: path.attribute), high = constant(for: path.type, attribute: path.attribute)
            return "\(modifier) \(left) BETWEEN {\(low), \(high)}"
        case 2 where path.type != .boolean:
            let elements = (0..<random.int(in: 1...3)).map { _ in constant(for: path.type, attribute: path.attribute) }
            return "\(modifier) \(left) IN\(path.type == .string ? stringOptions() : "") {\(elements.joined(separator: ", "))}"
        default:
            return "\(modifier) \(typedComparison(left: left, type: path.type, attribute: path.attribute))"
        }
    }

    private mutating func implicitAny(_ scope: Scope) -> String {
        guard let many = manyPath(scope), let path = elementPath(many) else { return attributeComparison(scope) }
        return typedComparison(left: key(scope, path.path), type: path.type, attribute: path.attribute)
    }

    /// `tags.@count`, `tags.@sum.weight`, `sum:(tags.weight)`, `children[SIZE]`, `tags.@min.name`:
    /// the text and the type of its value (`@min` / `@max` of strings and dates are strings and
    /// dates; everything else a number).
    private mutating func aggregateExpression(_ scope: Scope, numericOnly: Bool) -> (text: String, type: DifferentialModel.ValueType) {
        guard let many = manyPath(scope) else { return ("0", .integer) }
        let collection = key(scope, many.path)
        let numeric = elementPath(many) { $0.type == .integer || $0.type == .double }
        let other = numericOnly ? nil : elementPath(many) { $0.type == .string || $0.type == .date }
        func element(_ path: ScalarPath) -> String { String(path.path.dropFirst(many.path.count + 1)) }
        switch random.weighted([(4, 0), (2, 1), (numeric == nil ? 0 : 7, 2), (other == nil ? 0 : 2, 3), (numeric == nil ? 0 : 3, 4), (1, 5)], or: 0) {
        case 1:
            // `[SIZE]` of a to-many relationship, of a value read across one (a count of its
            // elements), or of one value (0 for nil, else nil).
            let value = random.chance(1, in: 2) ? elementPath(many).map { key(scope, $0.path) } : scalarPath(scope).map { key(scope, $0.path) }
            let text = random.weighted([(5, "\(collection)[SIZE]"), (5, "count:(\(collection))"), (2, "\(value ?? collection)[SIZE]")], or: "count:(\(collection))")
            return (text, .integer)
        case 2:
            guard let numeric else { return ("\(collection).@count", .integer) }
            return ("\(collection).\(random.pick(["@sum", "@avg", "@min", "@max", "@sum", "@avg"], or: "@sum")).\(element(numeric))", .double)
        case 3:
            guard let other else { return ("\(collection).@count", .integer) }
            return ("\(collection).\(random.pick(["@min", "@max"], or: "@min")).\(element(other))", other.type)
        case 4:
            guard let numeric else { return ("\(collection).@count", .integer) }
            let function = random.pick(["sum", "average", "min", "max", "count", "median", "stddev", "mode"], or: "sum")
            return ("\(function):(\(key(scope, numeric.path)))", .double)
        case 5:
            return ("\(collection).@count \(random.pick(["+", "*", "-"], or: "+")) \(smallNumber())", .integer)
        default:
            return ("\(collection).@count", .integer)
        }
    }

    private mutating func aggregateComparison(_ scope: Scope) -> String {
        let (left, type) = aggregateExpression(scope, numericOnly: false)
        switch type {
        case .integer, .double:
            let op = random.pick(["==", "!=", "<", "<=", ">", ">="], or: "==")
            let right = random.weighted([(6, String(random.int(in: 0...4))), (3, numericConstant(attribute: nil)), (1, "nil")], or: "0")
            return "\(left) \(op) \(right)"
        default:
            if random.chance(1, in: 4) { return "\(left) \(random.pick(["==", "!="], or: "==")) nil" }
            return typedComparison(left: left, type: type, attribute: nil)
        }
    }

    private mutating func subqueryComparison(_ scope: Scope) -> String {
        guard let many = manyPath(scope) else { return attributeComparison(scope) }
        let variable = "v\(scope.subqueryDepth)"
        // Inside, key paths read the element through the variable (and, now and then, bare).
        let inner = Scope(entity: many.entity, prefix: random.chance(5, in: 6) ? "$\(variable)." : "", subqueryDepth: scope.subqueryDepth + 1)
        let condition = predicate(inner, depth: maximumDepth - 1)
        let subquery = "SUBQUERY(\(key(scope, many.path)), $\(variable), \(condition))"
        let size = random.chance(4, in: 5) ? "\(subquery).@count" : "\(subquery)[SIZE]"
        return "\(size) \(random.pick(["==", "!=", ">", ">=", "<"], or: ">")) \(random.int(in: 0...3))"
    }

    private mutating func inKeyPath(_ scope: Scope) -> String {
        guard let many = manyPath(scope), let path = elementPath(many, where: { $0.type != .boolean }) else { return attributeComparison(scope) }
        let collection = key(scope, path.path)
        let options = path.type == .string ? stringOptions() : ""
        // A key path of the same type on the left, or a constant.
        let sameType = catalogue(scope.entity).scalars.filter { $0.type == path.type }
        if random.chance(1, in: 3), let left = random.pick(sameType) {
            return "\(key(scope, left.path)) IN\(options) \(collection)"
        }
        let constant = constant(for: path.type, attribute: path.attribute)
        if path.type == .string, random.chance(1, in: 4) {
            // CONTAINS with a collection on the left is membership too.
            return "\(collection) CONTAINS\(options) \(constant)"
        }
        return "\(constant) IN\(options) \(collection)"
    }

    // MARK: Objects

    private mutating func objectComparison(_ scope: Scope) -> String {
        let catalogue = catalogue(scope.entity)
        let selfPath = scope.prefix.isEmpty ? "SELF" : String(scope.prefix.dropLast())
        var objects = catalogue.objects.map { (key(scope, $0.path), $0.entity) }
        objects.append((selfPath, scope.entity))
        guard let (left, entity) = random.pick(objects) else { return "TRUEPREDICATE" }
        switch random.weighted([(5, 0), (2, 1), (2, 2), (2, 3), (catalogue.many.isEmpty ? 0 : 3, 4)], or: 0) {
        case 1:
            let ids = (0..<random.int(in: 1...3)).map { _ in objectIDConstant(entity) }
            return "\(left) IN {\(ids.joined(separator: ", "))}"
        case 2:
            // Two object key paths (nil == nil holds).
            let same = objects.filter { $0.1 == entity && $0.0 != left }
            guard let (right, _) = random.pick(same) else { return "\(left) != nil" }
            return "\(left) \(random.pick(["==", "!="], or: "==")) \(right)"
        case 3:
            // Membership in a to-many key path of objects of the same entity.
            let many = catalogue.many.filter { $0.entity == entity }
            guard let collection = random.pick(many) else { return "\(left) == \(objectIDConstant(entity))" }
            return "\(left) IN \(key(scope, collection.path))"
        case 4:
            guard let many = random.pick(catalogue.many) else { return "\(left) != nil" }
            let id = objectIDConstant(many.entity)
            let collection = key(scope, many.path)
            return random.pick([
                "ANY \(collection) == \(id)", "\(collection) CONTAINS \(id)", "\(id) IN \(collection)",
                "NONE \(collection) == \(id)", "ALL \(collection) != \(id)",
            ], or: "\(id) IN \(collection)")
        default:
            return "\(left) \(random.pick(["==", "!="], or: "==")) \(objectIDConstant(entity))"
        }
    }

    private mutating func objectIDConstant(_ entity: String) -> String {
        let known = objectIDs[entity] ?? []
        let id = random.chance(9, in: 10) ? (random.pick(known) ?? ObjectID("none")) : ObjectID(random.pick(["P99", "T99", "I99", "x"], or: "x"))
        return "CAST(\(quoted(id.rawValue)), \"NSManagedObjectID\")"
    }

    // MARK: Errors

    /// A predicate every store must refuse before reading an object.
    private mutating func errorPredicate(_ scope: Scope) -> String {
        let unknownKey: String
        switch scope.entity {
        case "Item": unknownKey = random.pick(["extra == \"x\"", "level > 1", "age < 3"], or: "extra == \"x\"")
        case "Person": unknownKey = random.pick(["weight > 1", "title == \"a\""], or: "weight > 1")
        case "Tag": unknownKey = random.pick(["age > 1", "owner == nil"], or: "age > 1")
        default: unknownKey = "items.@count > 1"
        }
        let string = scalarPath(scope) { $0.type == .string }.map { key(scope, $0.path) } ?? "name"
        return random.pick([
            unknownKey,
            "\(string) MATCHES \(quoted(random.pick(["(", "[a-", "*a", "a{2,1}", "\\"], or: "(")))",
            "\"a\" + \"b\" == \(string)",
            "5 < \"a\"",
            "FUNCTION(\(string), \"fooBar:\") == 1",
        ], or: unknownKey)
    }

    // MARK: Constants

    private func quoted(_ text: String) -> String { CanonicalPrinter.formatString(text) }

    private mutating func observedValue(_ attribute: String) -> Value? { random.pick(observed[attribute] ?? []) }

    /// A constant for a value of `type`, as text.
    private mutating func constant(for type: DifferentialModel.ValueType, attribute: DifferentialModel.Attribute?) -> String {
        switch type {
        case .string: stringConstant(attribute: attribute)
        case .integer, .double: numericConstant(attribute: attribute)
        case .boolean: random.pick(["YES", "NO", "1", "0"], or: "YES")
        case .date: dateConstant(attribute: attribute)
        case .uuid: uuidConstant()
        }
    }

    /// A string the data set holds (sometimes in another case), or one from the pool.
    private mutating func stringConstant(attribute: DifferentialModel.Attribute?) -> String {
        var text: String
        if random.chance(2, in: 3), let attribute, case .string(let s)? = observedValue(attribute.name) {
            text = s
        } else {
            text = random.pick(DifferentialValues.strings, or: "")
        }
        switch random.below(8) {
        case 0: text = text.uppercased()
        case 1: text = text.lowercased()
        default: break
        }
        return quoted(text)
    }

    /// The right-hand side for a string operator: prefixes for BEGINSWITH, suffixes for
    /// ENDSWITH, inner parts for CONTAINS, patterns for LIKE and MATCHES. Now and then an
    /// empty needle, or one `[d]` folds to empty (neither ever matches, LANGUAGE.md §4).
    private mutating func stringOperand(for op: String, attribute: DifferentialModel.Attribute?) -> String {
        if ["BEGINSWITH", "ENDSWITH", "CONTAINS"].contains(op), random.chance(1, in: 8) {
            return quoted(random.pick(["", "\u{301}", ""], or: ""))
        }
        var base = ""
        if let attribute, case .string(let s)? = observedValue(attribute.name), random.chance(2, in: 3) {
            base = s
        } else {
            base = random.pick(DifferentialValues.strings, or: "")
        }
        if random.chance(1, in: 6) { base = random.chance(1, in: 2) ? base.uppercased() : base.lowercased() }
        let characters = Array(base)
        switch op {
        case "BEGINSWITH":
            return quoted(String(characters.prefix(random.int(in: 0...characters.count))))
        case "ENDSWITH":
            return quoted(String(characters.suffix(random.int(in: 0...characters.count))))
        case "CONTAINS":
            let start = random.int(in: 0...characters.count)
            let end = random.int(in: start...characters.count)
            return quoted(String(characters[start..<end]))
        case "LIKE":
            if random.chance(1, in: 4) {
                return quoted(random.pick(["*", "?", "??", "a*", "*b*", "*\\**", "a\\?b", "*%*", "a_b", "*ß*", "caf?", "*😀*", "", "\\\\*", "*e\u{301}"], or: "*"))
            }
            return quoted(likePattern(characters))
        case "MATCHES":
            if random.chance(1, in: 2) {
                return quoted(random.pick([
                    ".*", "a.*", ".*[bB].*", "[a-z]+", "\\w+", "caf.", "stra(ss|ß)e", ".?", "\\d+", "(?i)abc", "", "a|b", "[^a]*",
                    ".*\\\\.*", ".*%.*", "\\p{L}+", ".{3}", "[[:alpha:]]*", ".*\u{E9}.*",
                ], or: ".*"))
            }
            return quoted(regexEscaped(base))
        default:
            return quoted(base)
        }
    }

    /// A LIKE pattern that a string matches: some characters replaced by `?`, some runs by `*`,
    /// the special characters escaped.
    private mutating func likePattern(_ characters: [Character]) -> String {
        var pattern = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch random.below(10) {
            case 0:
                pattern += "?"
                index += 1
            case 1:
                pattern += "*"
                index += random.int(in: 0...2)
            default:
                if character == "*" || character == "?" || character == "\\" { pattern += "\\" }
                pattern.append(character)
                index += 1
            }
        }
        if random.chance(1, in: 5) { pattern += "*" }
        return pattern
    }

    private func regexEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { out += "\\" }
            out.append(character)
        }
        return out
    }

    /// An integer or double constant: the data set's own values, the pools of every numeric
    /// type, and the limits.
    private mutating func numericConstant(attribute: DifferentialModel.Attribute?) -> String {
        if let attribute, random.chance(2, in: 3), let value = observedValue(attribute.name) {
            // Now and then — half the time beyond 2^53, where doubles stop holding every integer
            // (issue 29) — the nearest value of the other kind: an integer's double (rounded), a
            // double's integer or one either side (the limits beyond the integers).
            switch value {
            case .int(let i) where random.chance(1, in: i.magnitude > 1 << 53 ? 2 : 10):
                return CanonicalPrinter.formatDouble(Double(i))
            case .double(let d) where d.isFinite && d.rounded() == d && random.chance(1, in: d.magnitude > 0x1p53 ? 2 : 10):
                if d >= 0x1p63 { return String(Int64.max) }
                if d < -0x1p63 { return String(Int64.min) }
                return String(Int64(d).addingReportingOverflow(Int64(random.int(in: -1...1))).partialValue)
            default: break
            }
            return literal(value)
        }
        switch random.weighted([(4, 0), (3, 1), (1, 2), (1, 3), (2, 4)], or: 0) {
        case 0: return String(random.pick(DifferentialValues.integers64 + DifferentialValues.integers16, or: 0))
        case 1: return CanonicalPrinter.formatDouble(random.pick(DifferentialValues.doubles + DifferentialValues.floats.map { Double(Float($0)) }, or: 0))
        case 2: return String(random.int(in: -3...5))
        case 4:
            // Where integers and doubles part (issue 29 §2): a double at the integers' edge
            // (2^63 written as an integer too, which only a double holds), or an integer no
            // double holds.
            if random.chance(1, in: 2) { return String(random.pick(DifferentialValues.edgeIntegers, or: .max)) }
            return random.chance(1, in: 5) ? "9223372036854775808" : CanonicalPrinter.formatDouble(random.pick(DifferentialValues.edgeDoubles, or: 0))
        default: return random.pick(["0x1F", "0b101", "0o17", "1e3", "-2.5e-1", "1e999"], or: "1")
        }
    }

    private mutating func dateConstant(attribute: DifferentialModel.Attribute?) -> String {
        var seconds: Double
        if let attribute, random.chance(2, in: 3), case .date(let date)? = observedValue(attribute.name) {
            seconds = date.timeIntervalSinceReferenceDate
        } else {
            seconds = random.pick(DifferentialValues.dateSeconds, or: 0)
        }
        if random.chance(1, in: 5) { seconds += random.pick([1, -1, 0.5, 86400], or: 1) }
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        if random.chance(1, in: 3), let back = ISO8601.date(from: ISO8601.string(from: date)), back == date {
            return "CAST(\(quoted(ISO8601.string(from: date))), \"NSDate\")"
        }
        return "CAST(\(CanonicalPrinter.formatDouble(seconds)), \"NSDate\")"
    }

    private mutating func uuidConstant() -> String {
        let uuid: UUID
        if random.chance(1, in: 2), case .uuid(let u)? = observedValue("code") {
            uuid = u
        } else {
            uuid = random.pick(DifferentialValues.uuids, or: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        }
        let text = random.chance(1, in: 4) ? uuid.uuidString.lowercased() : uuid.uuidString
        return "CAST(\(quoted(text)), \"NSUUID\")"
    }

    private func literal(_ value: Value) -> String {
        switch value {
        case .int(let i): String(i)
        case .double(let d): CanonicalPrinter.formatDouble(d)
        case .bool(let b): b ? "YES" : "NO"
        case .string(let s): quoted(s)
        case .date(let d): "CAST(\(CanonicalPrinter.formatDouble(d.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .uuid(let u): "CAST(\(quoted(u.uuidString)), \"NSUUID\")"
        default: "nil"
        }
    }

    /// The value of a constant's text, if it is a plain string literal.
    private func constantValue(_ text: String) -> Value? {
        guard let expression = try? ExpressionNode(format: text), case .constant(.string(let s)) = expression.kind else { return nil }
        return .string(s)
    }
}
