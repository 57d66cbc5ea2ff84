import SiftLanguage

/// Where an object is in sectioned results: its section and its row in the section (Core
/// Data's `IndexPath` of `section` and `row`).
public struct ResultIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var row: Int

    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    public static func < (a: ResultIndexPath, b: ResultIndexPath) -> Bool {
        (a.section, a.row) < (b.section, b.row)
    }

    public var description: String { "[\(section), \(row)]" }
}

/// The identifiers of a fetch's results, by section, in order (what
/// `NSDiffableDataSourceSnapshot` holds): the state a ``ResultsChangeSet`` goes from and to.
public struct ResultsSnapshot: Hashable, Sendable {
    /// One section: its name and its objects' IDs in order.
    public struct Section: Hashable, Sendable {
        public var name: String
        public var objectIDs: [ObjectID]

        public init(name: String, objectIDs: [ObjectID]) {
            self.name = name
            self.objectIDs = objectIDs
        }
    }

    public var sections: [Section]

    public init(sections: [Section] = []) {
        self.sections = sections
    }

    /// The snapshot of sectioned results (one section named "" when the request has no section
    /// key path, as Core Data gives).
    public init(_ results: SectionedFetchResults) throws {
        sections = try results.sections.map { Section(name: $0.name, objectIDs: try $0.objects.checkedObjectIDs()) }
    }

    /// How many objects there are in all sections.
    public var objectCount: Int { sections.reduce(0) { $0 + $1.objectIDs.count } }

    /// The object at an index path, if the path is inside the snapshot.
    public func objectID(at indexPath: ResultIndexPath) -> ObjectID? {
        guard sections.indices.contains(indexPath.section) else { return nil }
        let ids = sections[indexPath.section].objectIDs
        return ids.indices.contains(indexPath.row) ? ids[indexPath.row] : nil
    }
}
