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
        /// The IDs, in chunks: a change copies the chunk it changes, not the section.
        var ids: ChunkedList<ObjectID>

        public init(name: String, objectIDs: [ObjectID]) {
            self.name = name
            ids = ChunkedList(objectIDs)
        }

        init(name: String, ids: ChunkedList<ObjectID>) {
            self.name = name
            self.ids = ids
        }

        /// The objects' IDs in order (an array made from the section's chunks on each read;
        /// setting it replaces them).
        public var objectIDs: [ObjectID] {
            get { Array(ids) }
            set { ids = ChunkedList(newValue) }
        }

        /// How many objects the section holds.
        public var count: Int { ids.count }
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
    public var objectCount: Int { sections.reduce(0) { $0 + $1.ids.count } }

    /// The object at an index path, if the path is inside the snapshot.
    public func objectID(at indexPath: ResultIndexPath) -> ObjectID? {
        guard sections.indices.contains(indexPath.section) else { return nil }
        let ids = sections[indexPath.section].ids
        return indexPath.row >= 0 && indexPath.row < ids.count ? ids[indexPath.row] : nil
    }
}
