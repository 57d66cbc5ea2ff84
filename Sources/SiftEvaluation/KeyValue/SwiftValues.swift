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
    let readers: [String: QueryableKey<Root>]

    public init(dictionaryLiteral elements: (String, QueryableKey<Root>)...) {
        readers = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    public var names: [String] { Array(readers.keys) }
}

/// One key: how to read it from a root value.
public struct QueryableKey<Root>: Sendable {
    let read: @Sendable (Root) -> Value

    /// A key backed by a key path.
    public static func key<V: PredicateValueConvertible>(_ keyPath: KeyPath<Root, V> & Sendable) -> QueryableKey {
        QueryableKey { $0[keyPath: keyPath].predicateValue }
    }

    /// A computed key.
    public static func computed(_ read: @escaping @Sendable (Root) -> Value) -> QueryableKey {
        QueryableKey(read: read)
    }
}

/// A Swift value with a ``Value`` form.
public protocol PredicateValueConvertible {
    var predicateValue: Value { get }
}

extension PredicateQueryable {
    public var predicateValue: Value { .object(QueryableObject(self)) }
}

extension Value {
    /// A queryable Swift value.
    public init<T: PredicateQueryable>(_ value: T) { self = value.predicateValue }
}

/// A ``PredicateQueryable`` value as a ``KeyValueObject``. Unknown keys read as nil.
struct QueryableObject<Root: PredicateQueryable>: KeyValueObject {
    let root: Root
    let identity = UUID()

    init(_ root: Root) { self.root = root }

    func value(forKey key: String) throws(EvaluationError) -> Value {
        guard let reader = Root.queryableKeys.readers[key] else { return .null }
        return reader.read(root)
    }

    var objectIdentity: AnyHashable { identity }
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
extension Array: PredicateValueConvertible where Element: PredicateValueConvertible {
    public var predicateValue: Value { .array(map(\.predicateValue)) }
}
extension Set: PredicateValueConvertible where Element: PredicateValueConvertible {
    public var predicateValue: Value { .set(map(\.predicateValue)) }
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
