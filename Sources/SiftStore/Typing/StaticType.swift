import SiftEvaluation
import SiftLanguage

/// What an expression yields, known from the model before any object is read: one value of a
/// kind, one object of an entity, a collection of either, always nil, or anything.
///
/// The kinds are the evaluator's (``ValueComparison``): the values of two kinds that are not
/// ``ScalarKind/isComparable(with:)`` are never equal and have no order, whatever the objects.
package indirect enum StaticType: Hashable, Sendable {
    /// Any kind, object by object (an Undefined attribute, a dictionary's value, an unbound
    /// variable): nothing is known.
    case any
    /// Always nil (`@avg` of dates, the `nil` constant).
    case null
    /// One value of a kind (or nil).
    case scalar(ScalarKind)
    /// One object of an entity or its sub-entities (or nil).
    case object(entity: String)
    /// A dictionary row whose keys are known (a grouped fetch's rows, as HAVING reads them).
    case row([String: TypedValue])
    /// Many values (a to-many key path, an aggregate), each of the element type.
    case collection(StaticType)

    /// The type of one element: the element type of a collection, else the type itself.
    var element: StaticType {
        if case .collection(let element) = self { return element }
        return self
    }

    var isCollection: Bool {
        if case .collection = self { return true }
        return false
    }

    /// The scalar kind of the value or of each element, if known.
    var scalarKind: ScalarKind? {
        if case .scalar(let kind) = element { return kind }
        return nil
    }

    /// The entity of the object or of each element, if known.
    var entityName: String? {
        if case .object(let entity) = element { return entity }
        return nil
    }

    /// The type of an attribute's values (nil for Undefined, which holds any kind).
    init(_ type: AttributeType) {
        if let kind = ScalarKind(type) { self = .scalar(kind) } else { self = .any }
    }

    /// The type of a constant value.
    init(_ value: Value) {
        if value.isNull {
            self = .null
        } else if let elements = value.collectionElements {
            self = .collection(StaticType.common(elements.map(StaticType.init)))
        } else if let kind = ScalarKind(value) {
            self = .scalar(kind)
        } else {
            self = .any
        }
    }

    /// The one type every value of `types` has (nil values aside), or ``any``.
    static func common(_ types: [StaticType]) -> StaticType {
        var result: StaticType?
        for type in types where type != .null {
            guard let known = result else { result = type; continue }
            if known == type { continue }
            if case .scalar(let a) = known, case .scalar(let b) = type, a.isNumber, b.isNumber {
                result = .scalar(a.mergedNumber(b))
                continue
            }
            return .any
        }
        return result ?? .null
    }
}

/// The kind of a single value, as the evaluator compares them: numbers (integers, doubles,
/// decimals and booleans compare with one another), strings, dates, data and UUIDs.
package enum ScalarKind: Hashable, Sendable {
    case integer, real, decimal, boolean, string, date, data, uuid

    init?(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64: self = .integer
        case .double, .float: self = .real
        case .decimal: self = .decimal
        case .boolean: self = .boolean
        case .string, .uri: self = .string
        case .date: self = .date
        case .binary, .transformable: self = .data
        case .uuid: self = .uuid
        case .undefined: return nil
        }
    }

    init?(_ value: Value) {
        switch value {
        case .int: self = .integer
        case .double: self = .real
        case .decimal: self = .decimal
        case .bool: self = .boolean
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        case .uuid: self = .uuid
        default: return nil
        }
    }

    var isNumber: Bool { self == .integer || self == .real || self == .decimal || self == .boolean }

    /// Whether a value of this kind can equal a value of `other` (the evaluator's equality).
    func isComparable(with other: ScalarKind) -> Bool {
        (isNumber && other.isNumber) || self == other
    }

    /// Whether values of the two kinds have an order (`<`, BETWEEN): numbers, strings, dates.
    func isOrdered(with other: ScalarKind) -> Bool {
        isComparable(with: other) && (isNumber || self == .string || self == .date)
    }

    /// The kind of a number computed from numbers of both kinds.
    func mergedNumber(_ other: ScalarKind) -> ScalarKind {
        if self == other { return self }
        if self == .decimal || other == .decimal { return .decimal }
        if self == .real || other == .real { return .real }
        return .integer
    }

    /// How a message names a value of the kind: "a number", "a string", "a date".
    var phrase: String {
        switch self {
        case .integer, .real, .decimal: "a number"
        case .boolean: "a boolean"
        case .string: "a string"
        case .date: "a date"
        case .data: "data"
        case .uuid: "a UUID"
        }
    }
}

/// An expression's type, and where its values come from, for messages: the attribute or
/// relationship a key path ends at (`InvoiceDate, a Date attribute of Invoice`), or what
/// computes it (`invoices.@max.InvoiceDate`, a date).
package struct TypedValue: Hashable, Sendable {
    /// The property a key path ends at.
    package enum Origin: Hashable, Sendable {
        /// An attribute (`name`) of `entity`.
        case attribute(name: String, type: AttributeType, entity: String)
        /// A relationship (`name`) of `entity` to `destination`.
        case relationship(name: String, destination: String, isToMany: Bool, entity: String)
    }

    package var type: StaticType
    /// The attribute or relationship whose values these are.
    package var origin: Origin?
    /// Why the value is always nil or always zero when the types make it so (`@avg` of dates),
    /// to say in a warning.
    package var degenerate: String?

    package init(_ type: StaticType, origin: Origin? = nil, degenerate: String? = nil) {
        self.type = type
        self.origin = origin
        self.degenerate = degenerate
    }

    /// A value nothing is known of.
    static let any = TypedValue(.any)

    /// The same values with the origin forgotten (a value computed from them).
    var computed: TypedValue { TypedValue(type) }

    /// The attribute's type, when the values are an attribute's.
    var attributeType: AttributeType? {
        if case .attribute(_, let type, _)? = origin { return type }
        return nil
    }

    /// "a Date attribute of Invoice", "a to-one relationship of Album to Artist", "a date".
    var phrase: String {
        switch origin {
        case .attribute(_, let type, let entity)?:
            return "\(AttributeText.article(type.name)) \(type.name) attribute of \(entity)"
        case .relationship(_, let destination, let isToMany, let entity)?:
            return "\(isToMany ? "a to-many" : "a to-one") relationship of \(entity) to \(destination)"
        case nil:
            break
        }
        switch type.element {
        case .scalar(let kind): return type.isCollection ? "a collection of \(kind.pluralPhrase)" : kind.phrase
        case .object(let entity): return type.isCollection ? "a collection of \(entity) objects" : "an object of \(entity)"
        case .null: return "always nil"
        default: return "a value"
        }
    }
}

extension ScalarKind {
    var pluralPhrase: String {
        switch self {
        case .integer, .real, .decimal: "numbers"
        case .boolean: "booleans"
        case .string: "strings"
        case .date: "dates"
        case .data: "data"
        case .uuid: "UUIDs"
        }
    }
}

/// "a" or "an" before an attribute type's name.
enum AttributeText {
    static func article(_ word: String) -> String {
        // "a UUID", "a URI": the letter U read as "you".
        if word.hasPrefix("UU") || word.hasPrefix("UR") { return "a" }
        guard let first = word.first?.lowercased() else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }
}
