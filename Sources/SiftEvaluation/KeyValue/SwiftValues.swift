import Foundation

/// A Swift value that predicates can read: its conformance lists its keys as Swift key paths,
/// so reading a key is a dictionary lookup and a key-path read, with no reflection.
///
///     struct Movie: PredicateQueryable {
///         var title: String
///         var year: Int
///         var rating: Double?
///         var tags: [Tag]
///         static let queryableKeys: QueryableKeys<Movie> = [
///             "title": .key(\.title), "year": .key(\.year), "rating": .key(\.rating), "tags": .key(\.tags),
///         ]
///     }
///     let recent = try CompiledPredicate(format: "year > 2000 AND ANY tags.name == 'sci-fi'")
///     try recent.evaluate(Value(movie))
///
/// Properties may be any ``PredicateValueConvertible`` type: the standard scalars, `Date`,
/// `Data`, `UUID`, `Decimal`, other `PredicateQueryable` types, and optionals, arrays and
/// sets of these. Types that do not conform can be evaluated through ``Value/init(reflecting:)``,
/// which reads stored properties with `Mirror` (slower; documented fallback).
public protocol PredicateQueryable: PredicateValueConvertible, Sendable {
    static var queryableKeys: QueryableKeys<Self> { get }
}

/// The keys of a ``PredicateQueryable`` type.
public struct QueryableKeys<Root>: Sendable, ExpressibleByDictionaryLiteral {
    /// Finding a key, and every key's reader: not generic, so a read through a wrapped value
    /// needs no generic metadata. The only stored property, so that reading a type's keys (once
    /// per evaluation of a value in place) costs one retain.
    let table: QueryableKeyTable

    public init(dictionaryLiteral elements: (String, QueryableKey<Root>)...) {
        var keyNames: [String] = []
        var readers: [QueryableKey<Root>] = []
        var index: [String: Int] = [:]
        for (name, reader) in elements {
            if let position = index[name] {
                readers[position] = reader
            } else {
                index[name] = keyNames.count
                keyNames.append(name)
                readers.append(reader)
            }
        }
        table = QueryableKeyTable(typeName: String(describing: Root.self), keyNames: keyNames, index: index,
                                  storedReaders: readers.map(\.readStored), addressReaders: readers.map(\.readAtAddress),
                                  elementVisitors: readers.map(\.elementVisitor), fields: readers.map(\.field),
                                  destinations: readers.map(\.destination))
    }

    /// The keys, in the order written (a repeated key keeps its first place and its last reader).
    public var names: [String] { table.keyNames }
}

/// The non-generic part of ``QueryableKeys``, built once per type.
final class QueryableKeyTable: Sendable {
    typealias StoredReader = @Sendable (UnsafeRawPointer) -> Value
    /// Whether an array or set property, read from a pointer to the root, satisfies a to-many
    /// comparison (ANY, ALL or NONE: ``KeyComparison/holds(over:as:)``), its elements visited in
    /// place (see ``StoredPropertyReaders``). The comparison is passed, not a closure calling it,
    /// so that no closure context is made per evaluation.
    typealias ElementVisitor = @Sendable (UnsafeRawPointer, KeyComparison) throws(EvaluationError) -> Bool

    /// The type's name, for error messages.
    let typeName: String
    let keyNames: [String]
    let index: [String: Int]
    let storedReaders: [StoredReader?]
    /// Every key's reader from a pointer to the root: the stored reader, or the key path or
    /// closure applied to the root loaded from there.
    let addressReaders: [StoredReader]
    /// For stored array and set properties, their elements visited in place.
    let elementVisitors: [ElementVisitor?]
    /// For stored properties of the commonest types, where they are (read without a closure).
    let fields: [StoredPropertyReaders.Field]
    /// The keys of what each key reaches, when it is a queryable type (or optionals, arrays or
    /// sets of one); nil when its keys are not known (a dictionary, a ``Value``, a computed key).
    /// Asked when a predicate is checked, not when the table is built, so types may refer to
    /// each other (or themselves).
    let destinations: [@Sendable () -> QueryableKeyTable?]

    init(typeName: String, keyNames: [String], index: [String: Int], storedReaders: [StoredReader?],
         addressReaders: [StoredReader], elementVisitors: [ElementVisitor?], fields: [StoredPropertyReaders.Field],
         destinations: [@Sendable () -> QueryableKeyTable?]) {
        self.typeName = typeName
        self.keyNames = keyNames
        self.index = index
        self.storedReaders = storedReaders
        self.addressReaders = addressReaders
        self.elementVisitors = elementVisitors
        self.fields = fields
        self.destinations = destinations
    }

    /// The position of a key, by the key's representation first (no hashing), then by name.
    @inline(__always)
    func position(of key: PreparedKey) -> Int? {
        key.position(in: keyNames) ?? index[key.name]
    }
}

/// One key: how to read it from a root value.
public struct QueryableKey<Root>: Sendable {
    let read: @Sendable (Root) -> Value
    /// For a stored property (of a struct, at a fixed offset): reads it from a pointer to the
    /// root, without going through the key path.
    let readStored: QueryableKeyTable.StoredReader?
    /// For a stored array or set property: its elements, visited in place.
    let elementVisitor: QueryableKeyTable.ElementVisitor?
    /// For a stored property of the commonest types, where it is.
    let field: StoredPropertyReaders.Field
    /// The keys of the key's type, when it is a queryable type (see ``QueryableKeyTable``).
    let destination: @Sendable () -> QueryableKeyTable?

    init(read: @escaping @Sendable (Root) -> Value, readStored: QueryableKeyTable.StoredReader?,
         elementVisitor: QueryableKeyTable.ElementVisitor? = nil, field: StoredPropertyReaders.Field = .other,
         destination: @escaping @Sendable () -> QueryableKeyTable? = { nil }) {
        self.read = read
        self.readStored = readStored
        self.elementVisitor = elementVisitor
        self.field = field
        self.destination = destination
    }

    /// The key read from a pointer to the root.
    var readAtAddress: QueryableKeyTable.StoredReader {
        if let readStored { return readStored }
        let read = self.read
        return { (root: UnsafeRawPointer) -> Value in read(root.load(as: Root.self)) }
    }

    /// A key backed by a key path.
    public static func key<V: PredicateValueConvertible>(_ keyPath: KeyPath<Root, V> & Sendable) -> QueryableKey {
        let read: @Sendable (Root) -> Value = { (root: Root) -> Value in root[keyPath: keyPath].predicateValue }
        let destination: @Sendable () -> QueryableKeyTable? = { QueryableKeyTable.keys(of: V.self) }
        guard let offset = MemoryLayout<Root>.offset(of: keyPath) else { return QueryableKey(read: read, readStored: nil, destination: destination) }
        return QueryableKey(read: read, readStored: StoredPropertyReaders.storedReader(of: V.self, at: offset),
                            elementVisitor: StoredPropertyReaders.visitor(of: V.self, at: offset),
                            field: StoredPropertyReaders.field(of: V.self, at: offset), destination: destination)
    }

    /// A computed key.
    public static func computed(_ read: @escaping @Sendable (Root) -> Value) -> QueryableKey {
        QueryableKey(read: read, readStored: nil)
    }
}

/// A Swift value with a ``Value`` form. (Its metatype is captured by the readers of the keys
/// that hold it, which run on any thread: ``MetatypeSendable``.)
public protocol PredicateValueConvertible: MetatypeSendable {
    var predicateValue: Value { get }
}

extension PredicateQueryable {
    public var predicateValue: Value { .object(QueryableObject(self)) }
}

extension Value {
    /// A queryable Swift value.
    public init<T: PredicateQueryable>(_ value: T) { self = value.predicateValue }
}

/// A ``PredicateQueryable`` value as a ``KeyValueObject``. Unknown keys read as nil here (the
/// typed API — `people.filter(...)` — checks a predicate's keys before evaluating it).
///
/// A class, so a `Value` holding one is copied with one retain; its identity (for `==` between
/// objects) is the box's: copies of one `Value` are the same object, two wraps of equal structs
/// are not.
final class QueryableObject<Root: PredicateQueryable>: KeyValueObject {
    private let root: Root
    private let table: QueryableKeyTable

    init(_ root: Root) {
        self.root = root
        self.table = Root.queryableKeys.table
    }

    func value(forKey key: String) throws(EvaluationError) -> Value {
        guard let position = table.index[key] else { return .null }
        return read(position)
    }

    func value(for key: PreparedKey) throws(EvaluationError) -> Value {
        guard let position = table.position(of: key) else { return .null }
        return read(position)
    }

    /// A stored property is read in place, through the root's address; others through their
    /// key path or closure, on the root loaded from there (see ``QueryableKeyTable/addressReaders``).
    @inline(__always)
    private func read(_ position: Int) -> Value {
        withUnsafePointer(to: root) { (address: UnsafePointer<Root>) -> Value in table.addressReaders[position](UnsafeRawPointer(address)) }
    }

    var objectIdentity: AnyHashable { ObjectIdentifier(self) }
}

extension QueryableObject: KeyedObjectPrinting {
    /// Every key and its value, in the order the type lists them.
    var printedKeys: ValueDictionary {
        ValueDictionary(distinctKeys: table.keyNames, values: table.keyNames.indices.map(read))
    }
}

extension String: PredicateValueConvertible { public var predicateValue: Value { .string(self) } }
extension Substring: PredicateValueConvertible { public var predicateValue: Value { .string(String(self)) } }
extension Bool: PredicateValueConvertible { public var predicateValue: Value { .bool(self) } }
extension Int: PredicateValueConvertible { public var predicateValue: Value { .int(Int64(self)) } }
extension Int8: PredicateValueConvertible { public var predicateValue: Value { .int(Int64(self)) } }
extension Int16: PredicateValueConvertible { public var predicateValue: Value { .int(Int64(self)) } }
extension Int32: PredicateValueConvertible { public var predicateValue: Value { .int(Int64(self)) } }
extension Int64: PredicateValueConvertible { public var predicateValue: Value { .int(self) } }
extension UInt8: PredicateValueConvertible { public var predicateValue: Value { .int(Int64(self)) } }
extension UInt16: PredicateValueConvertible { public var predicateValue: Value { .int(Int64(self)) } }
extension UInt32: PredicateValueConvertible { public var predicateValue: Value { .int(Int64(self)) } }
extension UInt: PredicateValueConvertible {
    public var predicateValue: Value { self <= UInt(Int64.max) ? .int(Int64(self)) : .double(Double(self)) }
}
extension UInt64: PredicateValueConvertible {
    public var predicateValue: Value { self <= UInt64(Int64.max) ? .int(Int64(self)) : .double(Double(self)) }
}
extension Double: PredicateValueConvertible { public var predicateValue: Value { .double(self) } }
extension Float: PredicateValueConvertible { public var predicateValue: Value { .double(Double(self)) } }
extension Decimal: PredicateValueConvertible { public var predicateValue: Value { .decimal(self) } }
extension Date: PredicateValueConvertible { public var predicateValue: Value { .date(self) } }
extension Data: PredicateValueConvertible { public var predicateValue: Value { .data(self) } }
extension UUID: PredicateValueConvertible { public var predicateValue: Value { .uuid(self) } }
extension Value: PredicateValueConvertible { public var predicateValue: Value { self } }
extension Optional: PredicateValueConvertible where Wrapped: PredicateValueConvertible {
    public var predicateValue: Value { self?.predicateValue ?? .null }
}
// `map { $0.predicateValue }`, not `map(\.predicateValue)`: a key-path literal in generic code
// is built at run time on every call (about half the time of `ANY tags == "x"` on structs).
extension Array: PredicateValueConvertible where Element: PredicateValueConvertible {
    public var predicateValue: Value { .array(map { $0.predicateValue }) }
}
extension Set: PredicateValueConvertible where Element: PredicateValueConvertible {
    public var predicateValue: Value { .set(map { $0.predicateValue }) }
}
extension Dictionary: PredicateValueConvertible where Key == String, Value: PredicateValueConvertible {
    public var predicateValue: SiftEvaluation.Value {
        .dictionary(ValueDictionary(sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value.predicateValue) }))
    }
}

extension Value {
    /// Any Swift value, read by reflection (`Mirror`): stored properties become keys. The
    /// fallback for types that are not ``PredicateQueryable``; slower, as every read reflects.
    public init(reflecting subject: Any) {
        if let convertible = subject as? PredicateValueConvertible {
            self = convertible.predicateValue
            return
        }
        let mirror = Mirror(reflecting: subject)
        if mirror.displayStyle == .optional {
            self = mirror.children.first.map { Value(reflecting: $0.value) } ?? .null
            return
        }
        if mirror.displayStyle == .collection || mirror.displayStyle == .set {
            self = .array(mirror.children.map { Value(reflecting: $0.value) })
            return
        }
        var pairs: [(String, Value)] = []
        for child in mirror.children {
            guard let label = child.label else { continue }
            pairs.append((label, Value(reflecting: child.value)))
        }
        self = .dictionary(ValueDictionary(pairs))
    }
}
