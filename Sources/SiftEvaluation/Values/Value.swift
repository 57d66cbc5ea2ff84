import Foundation
import SiftLanguage

/// A value predicates are evaluated on (LANGUAGE.md §3): nil, boolean, integer, double,
/// decimal, string, date, data, UUID, array, set, dictionary, or an object (a record of a
/// model's entity, or a Swift value that exposes its keys).
///
/// Equality and order are the language's, not Swift's: see ``ValueComparison``.
public enum Value: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    /// An ordered collection (a JSON array, a to-many key path's values).
    case array([Value])
    /// An unordered collection.
    case set([Value])
    /// A JSON object or `[String: Any]`, keys in their original order.
    case dictionary(ValueDictionary)
    /// Anything else that has keys: records, Swift values (see ``KeyValueObject``).
    case object(any KeyValueObject)

    /// The kind's name, for error messages: `nil`, `boolean`, `integer`, `double`, `decimal`,
    /// `string`, `date`, `data`, `uuid`, `array`, `set`, `dictionary`, `object`.
    public var kindName: String {
        switch self {
        case .null: "nil"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "double"
        case .decimal: "decimal"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .uuid: "uuid"
        case .array: "array"
        case .set: "set"
        case .dictionary: "dictionary"
        case .object: "object"
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The elements of an array or set; nil for anything else.
    public var collectionElements: [Value]? {
        switch self {
        case .array(let elements), .set(let elements): elements
        default: nil
        }
    }

    /// The value of a constant in a predicate.
    public init(_ constant: ConstantValue) {
        switch constant {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .decimal(let d): self = .decimal(d)
        case .string(let s): self = .string(s)
        case .date(let d): self = .date(d)
        case .data(let d): self = .data(d)
        case .uuid(let u): self = .uuid(u)
        case .objectID(let id): self = .object(ObjectReference(id))
        }
    }
}

/// An object with keys: a record of a model's entity, or a Swift value.
///
/// `value(forKey:)` returns `.null` for a key the object does not have when the data is
/// schemaless; objects with a schema (records) throw ``EvaluationError`` naming the key and
/// the entity instead.
public protocol KeyValueObject: Sendable {
    func value(forKey key: String) throws(EvaluationError) -> Value
    /// Identity, for equality of objects (`parent == %@`): two objects are equal when their
    /// identities are.
    var objectIdentity: AnyHashable { get }
}

/// A JSON object's keys and values in their original order, looked up by key.
public struct ValueDictionary: Sendable {
    public private(set) var keys: [String]
    public private(set) var values: [Value]
    /// An index for larger dictionaries (small ones are searched linearly, which is faster).
    private var index: [String: Int]?

    public init() {
        keys = []
        values = []
    }

    public init(_ pairs: [(String, Value)]) {
        keys = []
        values = []
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { keys.count }

    public subscript(key: String) -> Value? {
        get {
            if let index { return index[key].map { values[$0] } }
            for i in keys.indices where keys[i] == key { return values[i] }
            return nil
        }
        set {
            let existing: Int? = index.map { $0[key] } ?? keys.firstIndex(of: key)
            if let existing {
                if let newValue { values[existing] = newValue } else { remove(at: existing) }
                return
            }
            guard let newValue else { return }
            keys.append(key)
            values.append(newValue)
            if index != nil {
                index?[key] = keys.count - 1
            } else if keys.count > 12 {
                index = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
            }
        }
    }

    private mutating func remove(at position: Int) {
        keys.remove(at: position)
        values.remove(at: position)
        if index != nil { index = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last }) }
    }

    /// The pairs in order.
    public var pairs: [(String, Value)] { Array(zip(keys, values)) }
}
