/// One section of your own values, grouped by a key path (see
/// `Sequence.sectioned(by:)` on ``PredicateQueryable`` values).
public struct ObjectSection<Element> {
    /// The section key's text form (FETCH.md §4), of the section's first object.
    public let name: String
    /// The name's first character upper-cased; empty for an empty name.
    public let indexTitle: String
    /// The section's objects, in result order.
    public let objects: [Element]

    public init(name: String, indexTitle: String, objects: [Element]) {
        self.name = name
        self.indexTitle = indexTitle
        self.objects = objects
    }

    public var numberOfObjects: Int { objects.count }
}

extension ObjectSection: Sendable where Element: Sendable {}
