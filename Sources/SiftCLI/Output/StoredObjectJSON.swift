import Sift

/// Fetched objects and result dictionaries as the JSON values `sift query` prints:
/// `{"@entity", "@id", attributes..., relationships as @id values}`.
enum StoredObjectJSON {
    static func value(of object: ManagedObject) -> Value {
        var pairs: [(String, Value)] = [("@entity", .string(object.entityName)), ("@id", .string(object.objectID.rawValue))]
        pairs.append(contentsOf: object.attributeValues.pairs)
        for relationship in object.relationshipIDs {
            let ids = relationship.ids.map { Value.string($0.rawValue) }
            pairs.append((relationship.name, relationship.isToMany ? .array(ids) : (ids.first ?? .null)))
        }
        return .dictionary(ValueDictionary(pairs))
    }

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
        return Match(value: value, position: position, text: text)
    }
}
