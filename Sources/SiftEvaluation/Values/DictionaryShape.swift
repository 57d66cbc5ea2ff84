import Synchronization

/// The keys of a ``ValueDictionary``, in order, held apart from its values so that many
/// dictionaries with the same keys (the records of one JSON file, the rows of one fetch) share
/// one list instead of each holding a copy: one shared, cache-resident key list, and one
/// allocation per record for its values.
///
/// A shape is immutable while shared. A dictionary that holds the only reference to its shape
/// may change it in place (adding or removing a key); the shape then takes a new ``identity``,
/// so nothing that remembered where a key was in the old identity (``KeySlotCache``) can read
/// a wrong slot.
final class DictionaryShape: @unchecked Sendable {
    /// The keys, distinct, in order.
    /// Not checked for exclusive access at run time (a check per read would cost more than the
    /// read): written only by ``ValueDictionary`` while it holds the only reference.
    @exclusivity(unchecked) private(set) var keys: [String]
    /// An index for larger shapes (small ones are searched linearly, which is faster).
    @exclusivity(unchecked) private(set) var index: [String: Int]?
    /// A number no other shape has had in this process, renewed when the keys change: two
    /// shapes with the same identity have the same keys at the same positions.
    @exclusivity(unchecked) private(set) var identity: UInt64

    /// Shapes with more keys than this are indexed.
    static let indexThreshold = 12

    /// Where identities come from (each shape, and each change of one, takes the next).
    private static let identities = Atomic<UInt64>(1)

    /// A shape of `keys`, which the caller guarantees are distinct.
    init(distinctKeys keys: [String]) {
        self.keys = keys
        self.index = keys.count > Self.indexThreshold ? Self.makeIndex(keys) : nil
        self.identity = Self.nextIdentity()
    }

    /// A copy that may then be changed (the original stays as it is for its other holders).
    func copy() -> DictionaryShape { DictionaryShape(copying: self) }

    private init(copying other: DictionaryShape) {
        keys = other.keys
        index = other.index
        identity = Self.nextIdentity()
    }

    var count: Int { keys.count }

    /// Where `key` is in ``keys`` (compared as strings: canonically equivalent keys are the same
    /// key).
    func position(of key: String) -> Int? {
        if let index { return index[key] }
        for i in keys.indices where keys[i] == key { return i }
        return nil
    }

    /// Where `key` is: first by representation (a key read from the same kind of source usually
    /// has the very same bits), then as ``position(of:)-(String)`` does.
    @inline(__always)
    func position(of key: PreparedKey) -> Int? {
        if let position = key.position(in: keys) { return position }
        return position(of: key.name)
    }

    /// Whether the keys are `other`, in the same order.
    func hasKeys(_ other: some Collection<String>) -> Bool {
        keys.count == other.count && zip(keys, other).allSatisfy { $0 == $1 }
    }

    /// Adds `key` (not yet a key) at the end. Only while uniquely referenced.
    func append(_ key: String) {
        keys.append(key)
        if index != nil {
            index?[key] = keys.count - 1
        } else if keys.count > Self.indexThreshold {
            index = Self.makeIndex(keys)
        }
        identity = Self.nextIdentity()
    }

    /// Removes the key at `position`. Only while uniquely referenced.
    func remove(at position: Int) {
        keys.remove(at: position)
        if index != nil { index = keys.count > Self.indexThreshold ? Self.makeIndex(keys) : nil }
        identity = Self.nextIdentity()
    }

    private static func nextIdentity() -> UInt64 {
        identities.wrappingAdd(1, ordering: .relaxed).newValue
    }

    private static func makeIndex(_ keys: [String]) -> [String: Int] {
        Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
