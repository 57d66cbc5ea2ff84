/// A relationship from one entity to another: to-one or to-many, with an inverse and a delete
/// rule (FETCH.md §1).
public struct RelationshipDescription: Sendable {
    public var name: String
    /// The destination entity's name.
    public var destination: String
    public var isToMany: Bool
    /// The relationship on the destination that points back, if any.
    public var inverse: String?
    public var deleteRule: DeleteRule
    /// An ordered to-many relationship keeps its destinations in order (an array, not a set).
    public var isOrdered: Bool
    public var isOptional: Bool
    /// For to-many relationships: the fewest and most destinations allowed (0 = no bound).
    public var minCount: Int
    public var maxCount: Int

    public init(name: String, destination: String, isToMany: Bool = false, inverse: String? = nil,
                deleteRule: DeleteRule = .nullify, isOrdered: Bool = false, isOptional: Bool = true,
                minCount: Int = 0, maxCount: Int = 0) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.minCount = minCount
        self.maxCount = maxCount
    }
}
