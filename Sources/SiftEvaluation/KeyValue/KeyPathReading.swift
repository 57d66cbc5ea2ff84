/// `value(forKeyPath:)` (NSObject's key-value coding) on values, dictionaries and objects: the
/// dot-separated keys read one after another exactly as a predicate reads them
/// (``KeyValueAccess``): relationships are followed, a to-many step maps the rest of the path
/// over its elements (`tags.name` is the names), and collection operators apply to what is
/// reached so far (`items.@count`, `items.@sum.price`).
///
///     try note.value(forKeyPath: "author.name")     // .string("Ann")
///     try note.value(forKeyPath: "tags.name")       // .array(["swift", "linux"]), or a set's
///     try order.value(forKeyPath: "items.@count")   // .int(3)
extension Value {
    /// The value at `keyPath` (keys separated by `.`): nil for keys schemaless data lacks;
    /// records throw for keys their entity does not have; an empty key throws.
    public func value(forKeyPath keyPath: String) throws(EvaluationError) -> Value {
        try KeyValueAccess.value(of: self, keyPath: try KeyPathReading.keys(keyPath)[...])
    }
}

extension ValueDictionary {
    /// The value at `keyPath`, read as ``Value/value(forKeyPath:)`` reads it.
    public func value(forKeyPath keyPath: String) throws(EvaluationError) -> Value {
        try Value.dictionary(self).value(forKeyPath: keyPath)
    }
}

extension KeyValueObject {
    /// The value at `keyPath`, read as ``Value/value(forKeyPath:)`` reads it: `author.name`
    /// follows the relationship `author`.
    public func value(forKeyPath keyPath: String) throws(EvaluationError) -> Value {
        try Value.object(self).value(forKeyPath: keyPath)
    }
}

enum KeyPathReading {
    /// The keys of a dot-separated key path, prepared for reading.
    static func keys(_ keyPath: String) throws(EvaluationError) -> [PreparedKey] {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        guard !keys.contains(where: \.isEmpty) else {
            throw EvaluationError(.invalidArgument, "key path '\(keyPath)' has an empty key", keyPath: keyPath)
        }
        return keys.map { PreparedKey(String($0)) }
    }
}
