/// A JSON object's keys and values in their original order, looked up by key.
///
/// One allocation per dictionary: a reference-counted block (copied on write) holding its values
/// inline, and a reference to its keys (`DictionaryShape`), which dictionaries built with the
/// same keys in the same order share — the records of one JSON file (``JSONParser``,
/// ``JSONRecordReader``), of one conversion (``Value/init(any:)``), or of any builder using
/// ``DictionaryShapes``. Copying a dictionary — or a `Value` holding one — is a single retain;
/// evaluating a key over many records of one shape reads one shared key list, and a compiled
/// key remembers its position per shape (`KeySlotCache`).
///
/// How a dictionary was built does not show: equality, order, ``keys``, ``values`` and
/// ``pairs`` are the same for a shared shape and an own one.
///
/// `@unchecked Sendable`: its storage is a `ManagedBuffer`, which the standard library does not
/// let conform; the storage is changed only while this dictionary holds the only reference, and
/// its shape only while the storage holds the only reference to it.
public struct ValueDictionary: @unchecked Sendable {
    private var storage: DictionaryStorage

    /// Dictionaries with more keys than this are indexed.
    static var indexThreshold: Int { DictionaryShape.indexThreshold }

    /// The shape of empty dictionaries (shared, so adding a key copies it first).
    private static let emptyShape = DictionaryShape(distinctKeys: [])

    public init() {
        storage = DictionaryStorage.make(shape: Self.emptyShape, capacity: 0)
    }

    /// The pairs in order; a repeated key keeps its first place and its last value.
    public init(_ pairs: [(String, Value)]) {
        var keys: [String] = []
        var values: [Value] = []
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        // Large dictionaries find repeated keys by hashing, small ones by searching.
        var positions: [String: Int]? = pairs.count > Self.indexThreshold ? [:] : nil
        for (key, value) in pairs {
            let existing: Int?
            if let found = positions?[key] {
                existing = found
            } else if positions == nil {
                existing = keys.firstIndex(of: key)
            } else {
                existing = nil
            }
            if let existing {
                values[existing] = value
            } else {
                positions?[key] = keys.count
                keys.append(key)
                values.append(value)
            }
        }
        self.init(shape: DictionaryShape(distinctKeys: keys), values: values)
    }

    /// A dictionary of `keys` (distinct, as the caller guarantees) and their `values`, sharing
    /// the keys' storage: how a store builds many records of one shape without copying or
    /// searching its keys per record.
    package init(distinctKeys keys: [String], values: [Value]) {
        self.init(shape: DictionaryShape(distinctKeys: keys), values: values)
    }

    /// A dictionary of `shape`'s keys and `values` (as many as the shape has keys, as the caller
    /// guarantees).
    init(shape: DictionaryShape, values: some Collection<Value>) {
        let count = values.count
        storage = DictionaryStorage.make(shape: shape, capacity: count)
        let elements = storage.elements
        var i = 0
        for value in values where i < count {
            (elements + i).initialize(to: value)
            i += 1
        }
        storage.head.pointee.count = i
    }

    public var keys: [String] { storage.head.pointee.shape.keys }
    public var values: [Value] { Array(UnsafeBufferPointer(start: storage.elements, count: storage.head.pointee.count)) }
    public var count: Int { storage.head.pointee.count }

    /// The shape (keys) this dictionary holds, shared or not.
    var shape: DictionaryShape { storage.head.pointee.shape }

    public subscript(key: String) -> Value? {
        get {
            guard let position = position(of: key) else { return nil }
            return value(at: position)
        }
        set {
            if let existing = position(of: key) {
                guard let newValue else { remove(at: existing); return }
                makeUnique(capacity: count)
                storage.elements[existing] = newValue
                return
            }
            guard let newValue else { return }
            append(key, newValue)
        }
    }

    /// Where `key` is in ``keys`` (keys are compared as strings: canonically equivalent keys
    /// are the same key).
    func position(of key: String) -> Int? {
        storage.head.pointee.shape.position(of: key)
    }

    /// Where `key` is in ``keys``: first by representation (a key read from the same kind of
    /// source usually has the very same bits), then as ``position(of:)-(String)`` does.
    @inline(__always)
    func position(of key: PreparedKey) -> Int? {
        storage.head.pointee.shape.position(of: key)
    }

    /// Where `key` is in ``keys``, remembered per shape in `cache` (a key compiled into a
    /// predicate finds its position once for all the records of one shape).
    @inline(__always)
    func position(of key: PreparedKey, cache: KeySlotCache) -> Int? {
        withExtendedLifetime(storage) { BorrowedDictionary(storage).position(of: key, cache: cache) }
    }

    /// The storage, for a view that reads it in place (``BorrowedDictionary``).
    var storageReference: DictionaryStorage { storage }

    /// `body` on a view of this dictionary read in place, valid during `body`.
    @inline(__always)
    func withBorrowed<R>(_ body: (BorrowedDictionary) throws(EvaluationError) -> R) throws(EvaluationError) -> R {
        try withExtendedLifetime(storage) { () throws(EvaluationError) -> R in try body(BorrowedDictionary(storage)) }
    }

    /// The value at a position ``position(of:)`` returned.
    @inline(__always)
    func value(at position: Int) -> Value { storage.elements[position] }

    /// Whether some value, read in place, satisfies `predicate`.
    @inline(__always)
    func containsValue(where predicate: (Value) throws(EvaluationError) -> Bool) throws(EvaluationError) -> Bool {
        try withExtendedLifetime(storage) { () throws(EvaluationError) -> Bool in
            let elements = storage.elements
            for i in 0..<storage.head.pointee.count where try predicate(elements[i]) { return true }
            return false
        }
    }

    /// The pairs in order.
    public var pairs: [(String, Value)] { Array(zip(keys, values)) }

    /// Makes the storage this dictionary's own, with room for at least `capacity` values.
    private mutating func makeUnique(capacity: Int) {
        if isKnownUniquelyReferenced(&storage), storage.head.pointee.capacity >= capacity { return }
        storage = storage.copy(capacity: capacity)
    }

    /// Makes the shape this dictionary's own (its storage already is), so it may change.
    private mutating func makeShapeUnique() {
        if !isKnownUniquelyReferenced(&storage.head.pointee.shape) {
            storage.head.pointee.shape = storage.head.pointee.shape.copy()
            storage.head.pointee.shapeIdentity = storage.head.pointee.shape.identity
        }
    }

    private mutating func append(_ key: String, _ value: Value) {
        let count = storage.head.pointee.count
        if count >= storage.head.pointee.capacity || !isKnownUniquelyReferenced(&storage) {
            makeUnique(capacity: Swift.max(count + 1, count * 2, 4))
        }
        makeShapeUnique()
        storage.head.pointee.shape.append(key)
        storage.head.pointee.shapeIdentity = storage.head.pointee.shape.identity
        (storage.elements + count).initialize(to: value)
        storage.head.pointee.count = count + 1
    }

    private mutating func remove(at position: Int) {
        makeUnique(capacity: count)
        makeShapeUnique()
        storage.head.pointee.shape.remove(at: position)
        storage.head.pointee.shapeIdentity = storage.head.pointee.shape.identity
        let elements = storage.elements
        let count = storage.head.pointee.count
        (elements + position).deinitialize(count: 1)
        (elements + position).moveInitialize(from: elements + position + 1, count: count - position - 1)
        storage.head.pointee.count = count - 1
    }
}

/// What a ``DictionaryStorage`` holds before its values.
struct DictionaryStorageHeader {
    /// The keys, one per value.
    var shape: DictionaryShape
    /// `shape.identity`, kept here (set whenever the shape changes) so that a compiled key's
    /// remembered position is checked without taking a reference to the shape.
    var shapeIdentity: UInt64
    /// How many values are initialized (as many as the shape's keys).
    var count: Int
    /// How many values fit.
    var capacity: Int
}

/// A dictionary's values, allocated in one block with their header.
/// Mutated only while uniquely referenced (``ValueDictionary`` copies on write).
final class DictionaryStorage: ManagedBuffer<DictionaryStorageHeader, Value> {
    static func make(shape: DictionaryShape, capacity: Int) -> DictionaryStorage {
        let buffer = create(minimumCapacity: capacity) { _ in DictionaryStorageHeader(shape: shape, shapeIdentity: shape.identity, count: 0, capacity: capacity) }
        return unsafeDowncast(buffer, to: DictionaryStorage.self)
    }

    /// The header's address (valid while the storage lives). Read through it, not through
    /// `header`: `header` is a class's stored property, checked for exclusive access at run time
    /// on every read from outside the standard library.
    @inline(__always)
    var head: UnsafeMutablePointer<DictionaryStorageHeader> { withUnsafeMutablePointerToHeader { $0 } }

    /// The first value's address (valid while the storage lives).
    @inline(__always)
    var elements: UnsafeMutablePointer<Value> { withUnsafeMutablePointerToElements { $0 } }

    /// A copy (sharing the shape) with room for `capacity` values.
    func copy(capacity: Int) -> DictionaryStorage {
        let count = head.pointee.count
        let copy = DictionaryStorage.make(shape: head.pointee.shape, capacity: Swift.max(capacity, count))
        copy.elements.initialize(from: elements, count: count)
        copy.head.pointee.count = count
        return copy
    }

    deinit {
        _ = withUnsafeMutablePointers { header, elements in elements.deinitialize(count: header.pointee.count) }
    }
}
