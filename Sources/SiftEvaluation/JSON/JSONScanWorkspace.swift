/// The scanner's stacks, kept from one value to the next so scanning many records does not
/// allocate them again: the open containers, and the elements and keys read so far in them
/// (innermost last). Each finished array or object is then allocated once, at its size.
/// A struct passed `inout`, so its stacks are mutated without dynamic exclusivity checks.
struct JSONScanWorkspace {
    struct Container {
        var isObject: Bool
        /// Where this container's elements start in `values`.
        var valuesStart: Int
        /// Where this object's keys start in `keys`.
        var keysStart: Int
        /// The byte offset of its `[` or `{`.
        var offset: Int
    }

    var containers: [Container] = []
    var values: [Value] = []
    var keys: [String] = []
    /// The kept members of the object ``JSONScanner/scanProjectedValue(_:_:)`` is reading.
    var projectedKeys: [String] = []
    var projectedValues: [Value] = []
    /// ``JSONScanner/skipValue(_:)``'s stack of open containers.
    var skipStack: [Bool] = []
    /// Whether the top-level keys of object records are collected in `keysSeen`.
    var collectingKeys = false
    var keysSeen: Set<String> = []
    /// The key lists of the objects read so far, so objects of the same keys (the records of one
    /// file) share one.
    var shapes = DictionaryShapes()
    /// When not nil, ``noteKeys(_:)`` only logs the keys it is given, each call's as one list,
    /// for a reader of chunks that hands them to whoever replays them in the input's order
    /// (``KeysSeenReplay``).
    var keyNoteLog: [[String]]? = nil
    /// Past this many keys, collecting stops (a sample is enough for suggestions).
    static let mostKeysSeen = 10_000

    /// Adds record keys to `keysSeen`.
    mutating func noteKeys(_ keys: some Sequence<String>) {
        if keyNoteLog != nil {
            keyNoteLog!.append(Array(keys))
            return
        }
        keysSeen.formUnion(keys)
        if keysSeen.count >= Self.mostKeysSeen { collectingKeys = false }
    }

    /// Empties the stacks (after an error they may hold a value's parts).
    @inline(__always)
    mutating func reset() {
        if !containers.isEmpty { containers.removeAll(keepingCapacity: true) }
        if !values.isEmpty { values.removeAll(keepingCapacity: true) }
        if !keys.isEmpty { keys.removeAll(keepingCapacity: true) }
    }

    /// The elements of the array `container`, removed from the stack.
    mutating func takeArray(_ container: Container) -> [Value] {
        let elements = Array(values[container.valuesStart...])
        values.removeLast(values.count - container.valuesStart)
        return elements
    }

    /// The keys and values of the object `container` (a repeated key keeps its first place and
    /// its last value), removed from the stacks.
    mutating func takeObject(_ container: Container) -> ValueDictionary {
        let n = values.count - container.valuesStart
        let object = shapes.dictionary(keys: keys[container.keysStart...], values: values[container.valuesStart...])
        values.removeLast(n)
        keys.removeLast(n)
        return object
    }
}
