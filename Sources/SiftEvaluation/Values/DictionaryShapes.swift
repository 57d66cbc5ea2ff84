/// A builder's table of the key lists of the dictionaries it made, so that dictionaries with the
/// same keys in the same order share one (`DictionaryShape`): each record then costs one
/// allocation for its values, and a predicate evaluated over the records reads one key list and
/// finds each key once per shape instead of once per record.
///
///     var shapes = DictionaryShapes()
///     let people = rows.map { shapes.dictionary([("name", .string($0.name)), ("age", .int($0.age))]) }
///
/// The dictionaries are the same as ``ValueDictionary/init(_:)`` makes of the same pairs (a
/// repeated key keeps its first place and its last value); only their keys are shared. A few
/// recent key lists are kept (records of one source usually have one or a few shapes).
public struct DictionaryShapes: Sendable {
    /// The shapes kept, most recently used first.
    private var recent: [DictionaryShape] = []

    /// How many shapes are kept.
    static let capacity = 8

    public init() {}

    /// A dictionary of `pairs`, sharing its keys with an earlier dictionary of the same keys.
    public mutating func dictionary(_ pairs: [(String, Value)]) -> ValueDictionary {
        dictionary(keys: pairs.lazy.map(\.0), values: pairs.lazy.map(\.1))
    }

    /// A dictionary of `keys` and their `values` (as many), sharing its keys with an earlier
    /// dictionary of the same keys.
    mutating func dictionary(keys: some Collection<String>, values: some Collection<Value>) -> ValueDictionary {
        for i in recent.indices where recent[i].hasKeys(keys) {
            let shape = recent[i]
            if i != 0 { recent.swapAt(0, i) }
            return ValueDictionary(shape: shape, values: values)
        }
        // A new list of keys (or one with a repeated key): made as any dictionary is, then kept.
        let dictionary = ValueDictionary(Array(zip(keys, values)))
        // Keys with a repeat never match a shape (whose keys are distinct): not kept.
        guard dictionary.count == keys.count else { return dictionary }
        if recent.count == Self.capacity { recent.removeLast() }
        recent.insert(dictionary.shape, at: 0)
        return dictionary
    }
}

/// Dictionaries whose key lists a builder can name by something of its own, cheaper to compare
/// than the keys (a binary property list names each key list by its key objects' references):
/// every dictionary of one name shares one key list, however many names there are.
package struct NamedDictionaryShapes<Name: Hashable> {
    private var shapes: [Name: DictionaryShape] = [:]

    package init() {}

    /// A dictionary of `keys` and their `values` (as many), sharing its keys with the earlier
    /// dictionaries of `name` (which must have the same keys). Keys with a repeat make a
    /// dictionary as ``ValueDictionary/init(_:)`` does, not shared.
    package mutating func dictionary(named name: Name, keys: [String], values: [Value]) -> ValueDictionary {
        if let shape = shapes[name] { return ValueDictionary(shape: shape, values: values) }
        let dictionary = ValueDictionary(Array(zip(keys, values)))
        if dictionary.count == keys.count { shapes[name] = dictionary.shape }
        return dictionary
    }
}
