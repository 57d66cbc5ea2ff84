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
    ///
    /// `indirect` (boxed): an existential is stored out of line, so `Value` stays a loadable
    /// type that is copied with a retain instead of through its type's value witnesses.
    indirect case object(any KeyValueObject)

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
    /// The same as `value(forKey: key.name)`, which is the default; an object may answer faster
    /// for a key prepared once for many reads (a key compiled into a predicate).
    func value(for key: PreparedKey) throws(EvaluationError) -> Value
    /// Identity, for equality of objects (`parent == %@`): two objects are equal when their
    /// identities are.
    var objectIdentity: AnyHashable { get }
}

extension KeyValueObject {
    public func value(for key: PreparedKey) throws(EvaluationError) -> Value {
        try value(forKey: key.name)
    }
}

/// A key prepared for many lookups (a key path compiled into a predicate): its name, and its
/// representation's bits for a quick first comparison.
public struct PreparedKey: Sendable, Hashable {
    public let name: String
    /// The string's representation (its two words), when a String is two words; two strings
    /// with the same bits are the same string (not conversely: then names are compared).
    let bits: Bits?

    @usableFromInline
    package struct Bits: Hashable, Sendable {
        @usableFromInline package let low: UInt64
        @usableFromInline package let high: UInt64

        @usableFromInline
        package init(low: UInt64, high: UInt64) {
            self.low = low
            self.high = high
        }
    }

    public init(_ name: String) {
        self.name = name
        self.bits = PreparedKey.bits(of: name)
    }

    /// The position of the first of `strings` with this key's representation, read in place
    /// (no copy of each string, so no reference counting); nil when none has it, or when the
    /// key's representation is not known.
    @inline(__always)
    func position(in strings: [String]) -> Int? {
        guard let bits, MemoryLayout<String>.stride == 16 else { return nil }
        return strings.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            var position = 0, offset = 0
            while offset + 16 <= raw.count {
                if raw.load(fromByteOffset: offset, as: UInt64.self) == bits.low,
                   raw.load(fromByteOffset: offset + 8, as: UInt64.self) == bits.high { return position }
                position += 1
                offset += 16
            }
            return nil
        }
    }

    /// (Inlinable: the stores' attribute look-ups call it for every name they are asked.)
    @inlinable @inline(__always)
    package static func bits(of string: String) -> Bits? {
        guard MemoryLayout<String>.size == 16 else { return nil }
        return withUnsafeBytes(of: string) { (raw: UnsafeRawBufferPointer) -> Bits in
            Bits(low: raw.loadUnaligned(as: UInt64.self), high: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }

    public static func == (a: PreparedKey, b: PreparedKey) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
