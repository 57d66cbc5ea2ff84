import Sift

/// Result dictionaries as the JSON values `sift query` prints, and printed values as matches
/// for its renderers. (Objects are shown by ``ObjectOutput``.)
enum StoredObjectJSON {
    /// A result dictionary with object references written as their IDs.
    static func value(of row: ValueDictionary) -> Value {
        .dictionary(ValueDictionary(row.pairs.map { ($0.0, plain($0.1)) }))
    }

    private static func plain(_ value: Value) -> Value {
        switch value {
        case .object(let object):
            if let reference = object as? ObjectReference { return .string(reference.id.rawValue) }
            return .string(String(describing: object.objectIdentity.base))
        case .array(let items): return .array(items.map(plain))
        case .set(let items): return .array(items.map(plain))
        default: return value
        }
    }

    static func match(_ value: Value, position: Int) -> Match {
        var text: [UInt8] = []
        JSONWriter.write(value, to: &text)
        return Match(value: value, position: position, text: text, textIsOneLine: true)
    }
}
