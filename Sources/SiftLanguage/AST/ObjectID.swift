/// The identity of a stored object (Core Data's NSManagedObjectID): unique within a store.
///
/// Imported objects keep their `@id`; objects created without one get a generated ID. In a
/// predicate an object ID is a constant (`parent == %@` with an object or its ID), printed as
/// `CAST("<id>", "NSManagedObjectID")`.
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Values that stand for a stored object when passed as a format argument (`%@`): a fetched
/// object, an object ID.
public protocol ObjectIDConvertible {
    var objectID: ObjectID { get }
}

extension ObjectID: ObjectIDConvertible {
    public var objectID: ObjectID { self }
}
