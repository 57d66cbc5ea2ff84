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

/// A JSON object's keys and values in their original order, looked up by key.
///
/// One reference-counted storage (copied on write), so copying a dictionary — or a `Value`
/// holding one — is a single retain.
public struct ValueDictionary: Sendable {
    /// Mutated only while uniquely referenced (copy on write).
    /// Its properties are not checked for exclusive access at run time (a check per read would
    /// cost more than the read): only `ValueDictionary` touches them, reading through a
    /// borrowed reference or writing while it holds the only one.
    final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var keys: [String]
        @exclusivity(unchecked) var values: [Value]
        /// An index for larger dictionaries (small ones are searched linearly, which is faster).
        @exclusivity(unchecked) var index: [String: Int]?

        init(keys: [String], values: [Value], index: [String: Int]?) {
            self.keys = keys
            self.values = values
            self.index = index
        }
    }

    private var storage: Storage

    /// Dictionaries with more keys than this are indexed.
    static let indexThreshold = 12

    public init() {
        storage = Storage(keys: [], values: [], index: nil)
    }

    public init(_ pairs: [(String, Value)]) {
        storage = Storage(keys: [], values: [], index: nil)
        storage.keys.reserveCapacity(pairs.count)
        storage.values.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// A dictionary of `keys` (distinct, as the caller guarantees) and their `values`, sharing
    /// the keys' storage: how a store builds many records of one shape without copying or
    /// searching its keys per record.
    package init(distinctKeys keys: [String], values: [Value]) {
        storage = Storage(keys: keys, values: values, index: keys.count > Self.indexThreshold ? Self.makeIndex(keys) : nil)
    }

    public var keys: [String] { storage.keys }
    public var values: [Value] { storage.values }
    public var count: Int { storage.keys.count }

    public subscript(key: String) -> Value? {
        get {
            guard let position = position(of: key) else { return nil }
            return storage.values[position]
        }
        set {
            if !isKnownUniquelyReferenced(&storage) {
                storage = Storage(keys: storage.keys, values: storage.values, index: storage.index)
            }
            let s = storage
            if let existing = position(of: key) {
                if let newValue { s.values[existing] = newValue } else { remove(at: existing) }
                return
            }
            guard let newValue else { return }
            s.keys.append(key)
            s.values.append(newValue)
            if s.index != nil {
                s.index?[key] = s.keys.count - 1
            } else if s.keys.count > Self.indexThreshold {
                s.index = Self.makeIndex(s.keys)
            }
        }
    }

    /// Where `key` is in ``keys`` (keys are compared as strings: canonically equivalent keys
    /// are the same key).
    func position(of key: String) -> Int? {
        if let index = storage.index { return index[key] }
        let keys = storage.keys
        for i in keys.indices where keys[i] == key { return i }
        return nil
    }

    /// Where `key` is in ``keys``: first by representation (a key read from the same kind of
    /// source usually has the very same bits), then as ``position(of:)-(String)`` does.
    @inline(__always)
    func position(of key: PreparedKey) -> Int? {
        if let position = key.position(in: storage.keys) { return position }
        return position(of: key.name)
    }

    /// The value at a position ``position(of:)`` returned.
    @inline(__always)
    func value(at position: Int) -> Value { storage.values[position] }

    /// `body` on the value at a position ``position(of:)`` returned, read in place (not copied).
    @inline(__always)
    func withValue<R>(at position: Int, _ body: (Value) throws(EvaluationError) -> R) throws(EvaluationError) -> R {
        try storage.values.withUnsafeBufferPointer { (values: UnsafeBufferPointer<Value>) throws(EvaluationError) -> R in try body(values[position]) }
    }

    private func remove(at position: Int) {
        let s = storage
        s.keys.remove(at: position)
        s.values.remove(at: position)
        if s.index != nil { s.index = Self.makeIndex(s.keys) }
    }

    private static func makeIndex(_ keys: [String]) -> [String: Int] {
        Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The pairs in order.
    public var pairs: [(String, Value)] { Array(zip(storage.keys, storage.values)) }
}

/// A key prepared for many lookups (a key path compiled into a predicate): its name, and its
/// representation's bits for a quick first comparison.
public struct PreparedKey: Sendable, Hashable {
    public let name: String
    /// The string's representation (its two words), when a String is two words; two strings
    /// with the same bits are the same string (not conversely: then names are compared).
    let bits: Bits?

    package struct Bits: Hashable, Sendable {
        package let low: UInt64
        package let high: UInt64
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

    @inline(__always)
    package static func bits(of string: String) -> Bits? {
        guard MemoryLayout<String>.size == 16 else { return nil }
        return withUnsafeBytes(of: string) { (raw: UnsafeRawBufferPointer) -> Bits in
            Bits(low: raw.loadUnaligned(as: UInt64.self), high: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }

    public static func == (a: PreparedKey, b: PreparedKey) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
