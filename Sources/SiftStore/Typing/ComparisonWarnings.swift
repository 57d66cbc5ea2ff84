import Foundation
import SiftEvaluation
import SiftLanguage

/// The warnings of one comparison (``FetchWarning``): what the types of its two sides decide
/// though it is no error, and the comparison that was probably meant.
///
/// Only comparisons whose answer the types fix are warned about — a typed side against a
/// constant that is not nil, an object where a value of a kind is needed: never an Undefined
/// attribute (it holds any kind), never a nil test, never two values read from the object
/// (both may be nil, and nil equals nil).
struct ComparisonWarnings {
    /// The comparison as written (before dates were read from its strings), for messages.
    let written: Comparison
    let range: SourceRange?
    let clause: FetchWarning.Clause
    let model: DataModel
    var left: TypedValue
    var right: TypedValue
    private(set) var found: [FetchWarning] = []

    init(_ written: Comparison, range: SourceRange?, clause: FetchWarning.Clause, model: DataModel, left: TypedValue, right: TypedValue) {
        self.written = written
        self.range = range
        self.clause = clause
        self.model = model
        self.left = left
        self.right = right
    }

    /// The comparison as written, canonically (cut short when long: `x IN {1, 2, 3, …`).
    private var text: String { Self.shortened(PredicateNode(.comparison(written)).description) }

    private mutating func add(_ code: FetchWarning.Code, _ message: String, meant suggestion: Comparison) {
        add(code, message, suggestion: PredicateNode(.comparison(suggestion)).description)
    }

    private mutating func add(_ code: FetchWarning.Code, _ message: String, suggestion: String?) {
        found.append(FetchWarning(code, message, suggestion: suggestion.map(Self.shortened), range: range, clause: clause))
    }

    /// Text of at most ``longest`` characters, cut with `…`: a warning is a line to read.
    static func shortened(_ text: String) -> String {
        guard text.count > longest else { return text }
        return String(text.prefix(longest - 1)) + "…"
    }

    static let longest = 160

    // MARK: Aggregates

    /// `@avg` and `@sum` of values that are no numbers: always nil, always 0.
    mutating func degenerateAggregates() {
        for (expression, typed) in [(written.left, left), (written.right, right)] {
            guard let reason = typed.degenerate else { continue }
            add(.degenerateAggregate, "\(expression) \(reason)", suggestion: nil)
        }
    }

    // MARK: Constants that name keys

    /// Two constants where a string one is spelt as a key path of the object (`"teamID" ==
    /// 'ATL'`, an identifier quoted as SQL quotes it): the comparison reads no object, so its
    /// answer is the same for every one.
    mutating func quotedKeys(_ c: Comparison, in scope: TypingScope) {
        guard TypedComparisons.constantValues(c.left) != nil, TypedComparisons.constantValues(c.right) != nil else { return }
        for onLeft in [true, false] {
            guard case .constant(.string(let quoted)) = (onLeft ? written.left : written.right).kind,
                  !quoted.isEmpty, quoted.count <= 200 else { continue }
            let keys = quoted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard keys.allSatisfy({ !$0.isEmpty }) else { continue }
            let path = ExpressionNode(.keyPath(base: nil, keys: keys))
            guard (try? ExpressionTyping.type(of: path, in: scope)) != nil else { continue }
            var meant = written
            if onLeft { meant.left = path } else { meant.right = path }
            add(.quotedKey, "\(text) compares two constants, the same for every object: quotes make a string, and \(path) is a key of the object",
                meant: meant)
            return
        }
    }

    // MARK: Equality and membership

    /// `==`, `!=`, `IN`, and CONTAINS as membership: a typed side against constants none of
    /// which its values can equal.
    mutating func equality(_ c: Comparison, isMembership: Bool) {
        let op = c.operator
        let rightValues = TypedComparisons.constantValues(c.right)
        let leftValue = TypedComparisons.constantValue(c.left)
        switch op {
        case .equalTo, .notEqualTo:
            if let values = rightValues, !(left.type.isCollection && c.right.isAggregate) {
                // One value, or a constant collection read element by element (implicit ANY).
                check(typedOnLeft: true, values: values, elementResult: op == .notEqualTo)
            } else if let value = leftValue {
                check(typedOnLeft: false, values: [value], elementResult: op == .notEqualTo)
            }
        case .in:
            if let values = rightValues {
                // `x IN "text"` is a substring test, not membership.
                if !c.right.isAggregate, values.count == 1, isString(values[0]) { return }
                check(typedOnLeft: true, values: values, elementResult: false)
            } else if let value = leftValue, right.type.isCollection || right.type.scalarKind != .string {
                check(typedOnLeft: false, values: [value], elementResult: false)
            }
        case .contains:
            if isMembership, let value = TypedComparisons.constantValue(c.right) {
                check(typedOnLeft: true, values: [value], elementResult: false)
            }
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .beginsWith, .endsWith, .like, .matches, .between,
             .utiConformsTo, .utiEquals:
            break
        }
    }

    private func isString(_ value: Value) -> Bool {
        if case .string = value { return true }
        return false
    }

    /// Warns when no value of `values` can equal a value of the typed side.
    private mutating func check(typedOnLeft: Bool, values: [Value], elementResult: Bool) {
        let typed = typedOnLeft ? left : right
        let typedSide = typedOnLeft ? written.left : written.right
        guard !values.isEmpty, !values.contains(where: \.isNull), values.allSatisfy({ !Self.canEqual(typed.type.element, $0) }) else { return }
        guard let sample = values.first else { return }
        let verdict = self.verdict(elementResult: elementResult, collection: typed.type.isCollection ? typedSide : nil)
        let message = "\(text) \(verdict): \(typedSide) is \(typed.phrase), and \(Self.phrase(of: typed.type.element)) never equals \(Self.phrase(of: sample))"
        add(.kindMismatch, message, suggestion: suggestion(typedOnLeft: typedOnLeft, typed: typed, values: values))
    }

    /// Whether a value of the type can equal `value` (the evaluator's equality).
    private static func canEqual(_ type: StaticType, _ value: Value) -> Bool {
        switch type {
        case .scalar(let kind):
            guard let other = ScalarKind(value) else { return false }
            return kind.isComparable(with: other)
        case .object:
            if case .object = value { return true }
            return false
        default:
            return true
        }
    }

    private static func phrase(of type: StaticType) -> String {
        switch type {
        case .scalar(let kind): kind.phrase
        case .object: "an object"
        default: "a value"
        }
    }

    private static func phrase(of value: Value) -> String {
        if let kind = ScalarKind(value) { return kind.phrase }
        if case .object = value { return "an object" }
        return "\(AttributeText.article(value.kindName)) \(value.kindName)"
    }

    /// What the whole comparison is when each element's test is `elementResult`: `is always
    /// false`, or, over a collection, what its emptiness decides.
    private func verdict(elementResult: Bool, collection typedCollection: ExpressionNode?) -> String {
        var modifier = written.modifier
        if modifier == .direct, typedCollection != nil { modifier = .any }
        let collection = modifier == .direct ? written.left : typedCollection ?? written.left
        switch modifier {
        case .direct: return elementResult ? "is always true" : "is always false"
        case .any: return elementResult ? "is true whenever \(collection) is not empty" : "is always false"
        case .all: return elementResult ? "is always true" : "is true only when \(collection) is empty"
        case .none: return elementResult ? "is true only when \(collection) is empty" : "is always true"
        }
    }

    // MARK: Orderings and string tests

    /// An ordering with an object on one side: objects have no order.
    mutating func ordering(_ c: Comparison) {
        for typedOnLeft in [true, false] {
            let typed = typedOnLeft ? left : right
            guard case .object = typed.type.element else { continue }
            let other = typedOnLeft ? written.right : written.left
            let values = TypedComparisons.constantValues(other) ?? []
            if values.contains(where: \.isNull) { continue }
            let message = "\(text) \(verdict(elementResult: false, collection: typed.type.isCollection ? (typedOnLeft ? written.left : written.right) : nil)): \(typedOnLeft ? written.left : written.right) is \(typed.phrase), and objects have no order"
            add(.kindMismatch, message, suggestion: suggestion(typedOnLeft: typedOnLeft, typed: typed, values: values))
            return
        }
    }

    /// An ordering of a computed value with a value of a kind it has no order with
    /// (`invoices.@max.InvoiceDate > 5`).
    mutating func unordered(onLeft: Bool, other: String) {
        let (side, typed) = onLeft ? (written.left, left) : (written.right, right)
        let message = "\(text) \(verdict(elementResult: false, collection: nil)): \(side) is \(typed.phrase), which has no order with \(other)"
        add(.kindMismatch, message, suggestion: nil)
    }

    /// A string test on a computed value that is no string (`invoices.@count BEGINSWITH "1"`).
    mutating func notString(onLeft: Bool) {
        let (side, typed) = onLeft ? (written.left, left) : (written.right, right)
        add(.kindMismatch, "\(text) \(verdict(elementResult: false, collection: nil)): \(side) is \(typed.phrase), and \(written.operator.symbol) tests strings",
            suggestion: nil)
    }

    /// A string test (BEGINSWITH, LIKE, …) with an object on one side, and LIKE written with
    /// SQL's wildcards.
    mutating func stringOperator(_ c: Comparison) {
        for typedOnLeft in [true, false] {
            let typed = typedOnLeft ? left : right
            guard case .object = typed.type.element else { continue }
            let message = "\(text) \(verdict(elementResult: false, collection: typed.type.isCollection ? (typedOnLeft ? written.left : written.right) : nil)): \(typedOnLeft ? written.left : written.right) is \(typed.phrase), and an object is no string"
            add(.kindMismatch, message, suggestion: suggestion(typedOnLeft: typedOnLeft, typed: typed, values: [.string("")]))
            return
        }
        guard c.operator == .like, case .constant(.string(let pattern)) = written.right.kind,
              pattern.contains("%"), !pattern.contains("*"), !pattern.contains("?") else { return }
        var meant = written
        meant.right = ExpressionNode(.constant(.string(pattern.replacingOccurrences(of: "%", with: "*"))))
        add(.sqlWildcard, "\(text) reads '%' as itself: LIKE's wildcards are * (any characters) and ? (one character)", meant: meant)
    }

    // MARK: Suggestions

    /// The comparison probably meant: an object's key (`Artist.ArtistId == 3`), the count of a
    /// to-many (`tracks.@count == 3`), or the constants in the typed side's kind (`343719` for
    /// `"343719"`, a year's range of dates for `2021`).
    private func suggestion(typedOnLeft: Bool, typed: TypedValue, values: [Value]) -> String? {
        let typedSide = typedOnLeft ? written.left : written.right
        let constantSide = typedOnLeft ? written.right : written.left
        var meant = written
        switch typed.type.element {
        case .object(let entityName):
            guard let entity = model.entity(named: entityName), let sample = values.first else { return nil }
            if case .relationship(_, _, true, _)? = typed.origin, written.modifier == .direct, values.count == 1,
               written.operator == .equalTo || written.operator == .notEqualTo, case .int = sample {
                meant.left = Self.appending(CollectionOperator.count.key, to: typedSide)
                meant.right = constantSide
                return PredicateNode(.comparison(meant)).description
            }
            guard let key = KeyAttribute.find(in: entity, for: ScalarKind(sample)) else { return nil }
            let path = Self.appending(key.name, to: typedSide)
            if typedOnLeft { meant.left = path } else { meant.right = path }
            return PredicateNode(.comparison(meant)).description
        case .scalar(let kind):
            if kind == .date, values.count == 1, case .int(let year) = values[0], (1000...9998).contains(year),
               written.operator == .equalTo || written.operator == .notEqualTo {
                return DateHint.yearRange(typedSide, year: Int(year), negated: written.operator == .notEqualTo)
            }
            var converted: [ExpressionNode] = []
            for value in values {
                guard let constant = Self.converted(value, to: kind) else { return nil }
                converted.append(ExpressionNode(.constant(constant)))
            }
            let constant: ExpressionNode
            if case .aggregate = constantSide.kind { constant = ExpressionNode(.aggregate(converted)) } else if converted.count == 1 { constant = converted[0] } else { return nil }
            if typedOnLeft { meant.right = constant } else { meant.left = constant }
            return PredicateNode(.comparison(meant)).description
        default:
            return nil
        }
    }

    /// `path.key`: a key after an expression (`Artist` → `Artist.ArtistId`, `SELF` → `ArtistId`).
    private static func appending(_ key: String, to expression: ExpressionNode) -> ExpressionNode {
        switch expression.kind {
        case .keyPath(let base, let keys): return ExpressionNode(.keyPath(base: base, keys: keys + [key]))
        case .evaluatedObject: return ExpressionNode(.keyPath(base: nil, keys: [key]))
        default: return ExpressionNode(.keyPath(base: expression, keys: [key]))
        }
    }

    /// A constant written in the kind of value it is compared with, where its text says which
    /// (`"343719"` → `343719`, `5` → `"5"`, `"yes"` → `YES`, a UUID's text → the UUID).
    private static func converted(_ value: Value, to kind: ScalarKind) -> ConstantValue? {
        switch (kind, value) {
        case (.integer, .string(let text)), (.real, .string(let text)), (.decimal, .string(let text)):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let i = Int64(trimmed) { return .int(i) }
            if let d = Double(trimmed), d.isFinite { return .double(d) }
            return nil
        case (.string, .int(let i)): return .string(String(i))
        case (.string, .double(let d)): return .string(ValueText.text(.double(d)))
        case (.string, .decimal(let d)): return .string("\(d)")
        case (.string, .bool(let b)): return .string(b ? "true" : "false")
        case (.boolean, .string(let text)):
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return nil
            }
        case (.uuid, .string(let text)):
            return UUID(uuidString: text).map { .uuid($0) }
        default:
            return nil
        }
    }
}

/// The attribute that names an entity's objects, for suggestions (`Artist.ArtistId == 3`): a
/// key of the kind compared with, found from the model alone — a uniqueness constraint of
/// one attribute, then `<Entity>Id`/`id`, then an attribute whose name ends in `id`, and for
/// strings a `name` or `title`, then the first String attribute.
enum KeyAttribute {
    static func find(in entity: EntityDescription, for kind: ScalarKind?) -> AttributeDescription? {
        let candidates = entity.attributes.filter { attribute in
            guard let kind, let own = ScalarKind(attribute.type) else { return false }
            return own.isComparable(with: kind) && (own == .boolean) == (kind == .boolean)
        }
        for constraint in entity.uniquenessConstraints where constraint.count == 1 {
            if let attribute = candidates.first(where: { $0.name == constraint[0] }) { return attribute }
        }
        let entityName = entity.name.lowercased()
        for name in [entityName + "id", entityName + "_id", "id"] {
            if let attribute = candidates.first(where: { $0.name.lowercased() == name }) { return attribute }
        }
        if let attribute = candidates.first(where: { $0.name.lowercased().hasSuffix("id") }) { return attribute }
        guard kind == .string else { return nil }
        for name in ["name", "title"] {
            if let attribute = candidates.first(where: { $0.name.lowercased() == name }) { return attribute }
        }
        return candidates.first
    }
}

/// Dates written for a date compared as text: the range of the year, month or day a string
/// starts with (`BEGINSWITH "2019"` → `d >= "2019-01-01" AND d < "2020-01-01"`).
enum DateHint {
    /// The range of dates `other` (a string constant) names the start of, compared with `side`;
    /// `side >= "2011-01-01"` when it names none.
    static func range(for side: ExpressionNode, matching other: ExpressionNode) -> String {
        guard case .constant(.string(let text)) = other.kind else { return example(side) }
        let digits = text.prefix { $0.isNumber || $0 == "-" }
        let parts = digits.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, first.count == 4, let year = Int(first) else { return example(side) }
        if parts.count >= 2, parts[1].count == 2, let month = Int(parts[1]), (1...12).contains(month) {
            if parts.count >= 3, parts[2].count == 2, let day = Int(parts[2]),
               let start = ISO8601.date(from: String(format: "%04d-%02d-%02d", year, month, day)) {
                return between(side, dayText(start), dayText(start.addingTimeInterval(86400)))
            }
            let next = month == 12 ? (year + 1, 1) : (year, month + 1)
            return between(side, String(format: "%04d-%02d-01", year, month), String(format: "%04d-%02d-01", next.0, next.1))
        }
        return yearRange(side, year: year, negated: false)
    }

    /// `side >= "Y-01-01" AND side < "Y+1-01-01"` (or its negation).
    static func yearRange(_ side: ExpressionNode, year: Int, negated: Bool) -> String {
        let start = String(format: "%04d-01-01", year), end = String(format: "%04d-01-01", year + 1)
        if negated {
            return PredicateNode.or([
                .comparison(side, .lessThan, ExpressionNode(.constant(.string(start)))),
                .comparison(side, .greaterThanOrEqualTo, ExpressionNode(.constant(.string(end)))),
            ]).description
        }
        return between(side, start, end)
    }

    private static func between(_ side: ExpressionNode, _ start: String, _ end: String) -> String {
        PredicateNode.and([
            .comparison(side, .greaterThanOrEqualTo, ExpressionNode(.constant(.string(start)))),
            .comparison(side, .lessThan, ExpressionNode(.constant(.string(end)))),
        ]).description
    }

    private static func dayText(_ date: Date) -> String {
        String(ISO8601.string(from: date).prefix(10))
    }

    private static func example(_ side: ExpressionNode) -> String {
        PredicateNode.comparison(side, .greaterThanOrEqualTo, ExpressionNode(.constant(.string("2011-01-01")))).description
    }
}
