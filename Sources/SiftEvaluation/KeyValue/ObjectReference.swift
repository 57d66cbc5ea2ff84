import SiftLanguage

/// A stored object named by its ID: what an object-ID constant (`parent == %@` with an object,
/// `CAST("R", "NSManagedObjectID")`) evaluates to. It equals every object of the same ID —
/// records of a store report ``identity(of:)`` as their `objectIdentity` — and has no keys.
public struct ObjectReference: KeyValueObject {
    public let id: ObjectID

    public init(_ id: ObjectID) { self.id = id }

    public func value(forKey key: String) throws(EvaluationError) -> Value {
        throw EvaluationError(.unknownKey, "an object ID has no key '\(key)'; compare it with a relationship instead", keyPath: key)
    }

    public var objectIdentity: AnyHashable { Self.identity(of: id) }

    /// The identity of the stored object with this ID, shared by every representation of it.
    public static func identity(of id: ObjectID) -> AnyHashable { AnyHashable(StoredObjectIdentity(id: id)) }
}

/// Keeps stored objects' identities apart from any other identity an object may report.
/// Its description is the ID, so JSON output writes `{"$ref": "<id>"}`.
private struct StoredObjectIdentity: Hashable, CustomStringConvertible {
    let id: ObjectID
    var description: String { id.rawValue }
}
