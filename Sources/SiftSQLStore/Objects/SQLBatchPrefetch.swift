import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// What a SQL store loads with each batch of fetched objects, and how: the destinations of a
/// request's `relationshipKeyPathsForPrefetching` (every step of a dotted path) and the
/// destination counts of its `relationshipCountsForPrefetching`, one query per relationship and
/// group of owners for the whole batch, instead of one query per object when each is read.
/// The executors also load this way what a residual predicate or a section key path reads
/// (``PredicateRelationshipPaths``).
///
/// The core's part is the plan and the walk: the paths split into a first step and the rest
/// (paths sharing a first step load it once), the owners grouped by where the relationship is
/// held (``SQLPrefetchGroup``: owners of several entities whose relationship is held in the same
/// place are read together), each group's destinations kept in the owners' storages
/// (``SQLObjectStorage``: every owner gets an entry, an empty one for a nil to-one or an empty
/// to-many), and the next step walked on the destinations reached, as a batch of their own. The
/// driver's part (``SQLBatchPrefetchDriver``) is running the core's ``SQLRelationshipRead`` query
/// for a group's owner keys and making the destination objects; a driver that skips a group
/// (a query that failed, where the objects then read their relationships one by one and report
/// the error) leaves its owners unprefetched and its destinations unwalked.
package struct SQLBatchPrefetch: Sendable {
    /// Relationship names to load from the owners (in the order the paths first name them),
    /// each with what to load from its destinations.
    package let steps: [Step]
    /// To-many relationships whose destination counts are loaded for the owners.
    package let counts: [String]

    /// Nothing loaded.
    package static let none = SQLBatchPrefetch(keyPaths: [])

    /// One relationship loaded from the owners, and what is loaded from its destinations.
    package struct Step: Sendable {
        package let name: String
        package let then: SQLBatchPrefetch
    }

    /// The prefetch a fetch request asks for (its paths and counts checked).
    package init(_ request: FetchRequest) {
        self.init(keyPaths: request.relationshipKeyPathsForPrefetching, counts: request.relationshipCountsForPrefetching)
    }

    /// The prefetch for key paths the fetch checked (`ModelKeyPaths.checkPrefetchKeyPath`), and
    /// the to-many relationships `counts` counted, each once; an empty path (or step) is passed
    /// over, and a relationship whose destinations a path loads is not counted as well (its
    /// count is read from them: `destinationCount(of:)` looks at the loaded destinations).
    package init(keyPaths: [String], counts: [String] = []) {
        var names: [String] = []
        var rests: [String: [String]] = [:]
        for path in keyPaths {
            let parts = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = parts.first.map(String.init), !first.isEmpty else { continue }
            if rests[first] == nil { names.append(first) }
            rests[first, default: []].append(contentsOf: parts.dropFirst().map(String.init))
        }
        steps = names.map { Step(name: $0, then: SQLBatchPrefetch(keyPaths: rests[$0] ?? [])) }
        var counted: [String] = []
        for name in counts where rests[name] == nil && !counted.contains(name) { counted.append(name) }
        self.counts = counted
    }

    package var isEmpty: Bool { steps.isEmpty && counts.isEmpty }

    /// One fetched object: the storage it shares and its row key.
    package struct Owner {
        package let storage: SQLObjectStorage
        package let key: Int64

        package init(storage: SQLObjectStorage, key: Int64) {
            self.storage = storage
            self.key = key
        }
    }

    /// How a batch's destinations and counts are kept in the owners' storages.
    package enum Keeping: Sendable {
        /// Beside what the storage holds (``SQLObjectStorage/setPrefetched(_:_:)``): the SQLite
        /// store clears a layout's storages before each batch.
        case merged
        /// In place of what the storage held for the relationship
        /// (``SQLObjectStorage/replacePrefetched(_:_:)``): the PostgreSQL store, whose batch and
        /// residual-predicate prefetches share storages without clearing them.
        case replaced
    }

    /// Loads every step and count for `owners` (one batch) through `driver`, keeping what is
    /// read in the owners' storages as `keeping` says. Call with the store's lock held.
    package func load<Driver: SQLBatchPrefetchDriver>(_ owners: [Owner], keeping: Keeping, through driver: Driver) throws(Driver.Failure) {
        guard !isEmpty, !owners.isEmpty else { return }
        let schema = driver.schema
        for step in steps {
            var reached: [Owner] = []
            for group in SQLPrefetchGroup.groups(owners, step.name, schema: schema) {
                guard let loaded = try driver.destinations(of: group) else { continue }
                group.keep(loaded.byOwner, as: step.name, keeping)
                reached.append(contentsOf: loaded.reached)
            }
            try step.then.load(reached, keeping: keeping, through: driver)
        }
        for name in counts {
            for group in SQLPrefetchGroup.groups(owners, name, schema: schema) where group.relationship.isToMany {
                guard let counted = try driver.counts(of: group) else { continue }
                group.keepCounts(counted, as: name, keeping)
            }
        }
    }
}

/// What a group's prefetch query read (``SQLBatchPrefetchDriver/destinations(of:)``).
package struct SQLPrefetchedDestinations {
    /// Owner row key → destinations, in the relationship's order: every owner of the group,
    /// those with none included.
    package let byOwner: [Int64: [ManagedObject]]
    /// The destinations read, each row once (the owners of a dotted path's next step).
    package let reached: [SQLBatchPrefetch.Owner]

    package init(byOwner: [Int64: [ManagedObject]], reached: [SQLBatchPrefetch.Owner]) {
        self.byOwner = byOwner
        self.reached = reached
    }
}

/// How a SQL store runs a batch prefetch's queries (``SQLBatchPrefetch``): the core's
/// ``SQLRelationshipRead`` query for a group's owner keys, with its destination layout, its key
/// list and its way of decoding rows. A driver whose queries cannot fail has `Never` failure.
package protocol SQLBatchPrefetchDriver {
    associatedtype Failure: Error
    /// The store's layout, which the owners are grouped by.
    var schema: SQLSchema { get }
    /// The destinations of the group's owners (`group.keys`) in its relationship; nil when they
    /// are not loaded (the owners then read the relationship when asked).
    func destinations(of group: SQLPrefetchGroup) throws(Failure) -> SQLPrefetchedDestinations?
    /// How many destinations the group's owners have in its to-many relationship: owner row key
    /// → count, for owners with any (others count 0); nil when they are not loaded.
    func counts(of group: SQLPrefetchGroup) throws(Failure) -> [Int64: Int]?
}
