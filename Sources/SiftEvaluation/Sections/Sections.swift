/// One section of sectioned results (NSFetchedResultsSectionInfo).
public struct Section: Sendable, Hashable {
    /// The section key's text form (FETCH.md §4); nil is `""`.
    public let name: String
    /// The name's first character upper-cased; empty for an empty name.
    public let indexTitle: String
    public var numberOfObjects: Int { objectIndices.count }
    /// Positions of the section's objects in the input, in result order.
    public let objectIndices: [Int]

    public init(name: String, indexTitle: String, objectIndices: [Int]) {
        self.name = name
        self.indexTitle = indexTitle
        self.objectIndices = objectIndices
    }
}

/// Results grouped by a section key path (being written).
public struct SectionedResults: Sendable {
    public let sections: [Section]
    /// The index titles of the sections, in order.
    public var sectionIndexTitles: [String] { sections.map(\.indexTitle) }
    /// Set when a section's objects are not contiguous in the sorted results (the first sort
    /// key does not group the section key).
    public let warning: String?

    /// Groups `values[order[0]], values[order[1]], ...` by `keyPath`.
    public init(_ values: [Value], order: [Int], sectionKeyPath keyPath: String) throws(EvaluationError) {
        throw EvaluationError(.unsupported, "sections are not written yet")
    }
}
