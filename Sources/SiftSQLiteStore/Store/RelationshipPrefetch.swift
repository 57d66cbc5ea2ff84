import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

/// `relationshipKeyPathsForPrefetching` on the SQLite store: the relationships loaded with a
/// batch of fetched objects, one query per relationship for the whole batch (in chunks of at
/// most `RowKeyLists.limit` owner keys), instead of one query per object when each is read.
///
/// The owners' row keys are bound as parameters (`IN (?1, ?2, …)`); the destinations come back
/// with their owner's key in an extra last column, in the order
/// `SQLiteStore.destinations(of:from:key:)` gives them for one owner (both are the core's
/// ``SQLRelationshipRead``, which shows the queries), so a prefetched relationship reads
/// exactly as an unprefetched one.
///
/// The destinations are kept in the owners' shared `SQLObjectStorage` (every owner of the
/// batch gets an entry, an empty one for a nil to-one or an empty to-many), replacing the
/// previous batch's, so memory stays bounded by a batch. A dotted path (`author.books`) loads
/// its first step, then the rest on the destinations as a batch of their own (they share the
/// storage of the layout they were read with). Paths sharing a first step load it once.
///
/// `relationshipCountsForPrefetching` loads only the number of each owner's destinations of a
/// to-many relationship, one grouped query per relationship for the batch
/// (``SQLRelationshipRead/countSQL(_:of:held:destination:keys:schema:dialect:)``; an owner with
/// none is not in the rows, and counts 0).
///
/// Only objects read a batch at a time by iteration (`SQLStatementCursor`, `SQLKeyListSource`'s
/// cursor) are prefetched: random access (`object(at:)`) reads each object's relationships
/// when asked. A prefetch query that fails is skipped: those relationships are then read per
/// object, which reports the error.
struct RelationshipPrefetch: Sendable {
    /// Relationship names to load from the owners (in the order the paths first name them),
    /// each with what to load from its destinations.
    let steps: [Step]
    /// To-many relationships whose destination counts are loaded for the owners.
    let counts: [String]

    /// The prefetch a fetch request asks for (its paths and counts checked).
    init(_ request: FetchRequest) {
        self.init(keyPaths: request.relationshipKeyPathsForPrefetching, counts: request.relationshipCountsForPrefetching)
    }

    struct Step: Sendable {
        let name: String
        let then: RelationshipPrefetch
    }

    /// The prefetch for key paths the fetch checked (`ModelKeyPaths.checkPrefetchKeyPath`).
    init(keyPaths: [String], counts: [String] = []) {
        var names: [String] = []
        var rests: [String: [String]] = [:]
        for path in keyPaths {
            let parts = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = parts.first.map(String.init), !first.isEmpty else { continue }
            if rests[first] == nil { names.append(first) }
            rests[first, default: []].append(contentsOf: parts.dropFirst().map(String.init))
        }
        steps = names.map { Step(name: $0, then: RelationshipPrefetch(keyPaths: rests[$0] ?? [])) }
        self.counts = counts
    }

    var isEmpty: Bool { steps.isEmpty && counts.isEmpty }

    /// One fetched object: the storage it shares and its row key.
    struct Owner {
        let storage: SQLObjectStorage
        let key: Int64
    }

    /// Loads every step for `owners` (one batch), keeping the destinations in the owners'
    /// storages. Call with `store.lock` held.
    func load(_ owners: [Owner], store: SQLiteStore) {
        guard !isEmpty, !owners.isEmpty else { return }
        for step in steps {
            var destinations: [Owner] = []
            for group in Self.groups(owners, step.name, store: store) {
                guard let loaded = try? group.load(step.name, store: store) else { continue }
                destinations.append(contentsOf: loaded)
            }
            step.then.load(destinations, store: store)
        }
        for name in counts {
            for group in Self.groups(owners, name, store: store) where group.relationship.isToMany {
                try? group.loadCounts(name, store: store)
            }
        }
    }

    /// The owners grouped by where their relationship `name` is held (owners whose relationship
    /// is held in the same place are read together), in the order first met.
    private static func groups(_ owners: [Owner], _ name: String, store: SQLiteStore) -> [Group] {
        let schema = store.schema
        var groups: [Group] = []
        var indexOfKey: [GroupKey: Int] = [:]
        // Owners of one storage (one entity) are in one group: its place is found once per
        // storage, not once per owner (a batch's owners mostly share one storage).
        var indexOfStorage: [ObjectIdentifier: Int?] = [:]
        var last: (storage: SQLObjectStorage, index: Int?)?
        for owner in owners {
            let index: Int?
            if let last, last.storage === owner.storage {
                index = last.index
            } else if let known = indexOfStorage[ObjectIdentifier(owner.storage)] {
                index = known
            } else {
                index = groupIndex(of: owner.storage.entity, name, schema, &groups, &indexOfKey)
                indexOfStorage[ObjectIdentifier(owner.storage)] = index
            }
            last = (owner.storage, index)
            if let index { groups[index].add(owner) }
        }
        return groups
    }

    /// The position in `groups` of the group that owners of `entity` join, made if needed; nil
    /// where `entity` has no relationship `name` the store holds.
    private static func groupIndex(of entity: String, _ name: String, _ schema: SQLSchema, _ groups: inout [Group],
                                   _ indexOfKey: inout [GroupKey: Int]) -> Int? {
        guard let table = schema.table(for: entity),
              let relationship = table.entity.relationship(named: name),
              let held = table.relationships[name] else { return nil }
        let groupKey = GroupKey(table: table.table, held: held, pointingBack: table.inverseKeyColumns[name])
        if let index = indexOfKey[groupKey] { return index }
        groups.append(Group(table: table, relationship: relationship, held: held))
        indexOfKey[groupKey] = groups.count - 1
        return groups.count - 1
    }

    private struct GroupKey: Hashable {
        let table: String
        let held: RelationshipStorage
        /// The other side's column a one-to-one is also read from (``EntityTable/inverseKeyColumns``).
        let pointingBack: String?
    }

    /// Owners of one batch whose relationship is held in the same place.
    private struct Group {
        let table: EntityTable
        let relationship: RelationshipDescription
        let held: RelationshipStorage
        /// Distinct owner keys, in batch order.
        var keys: [Int64] = []
        var seen: Set<Int64> = []
        /// The owners' storages (each once), with the keys each holds.
        var storages: [(storage: SQLObjectStorage, keys: [Int64])] = []

        init(table: EntityTable, relationship: RelationshipDescription, held: RelationshipStorage) {
            self.table = table
            self.relationship = relationship
            self.held = held
        }

        mutating func add(_ owner: Owner) {
            if seen.insert(owner.key).inserted { keys.append(owner.key) }
            if let index = storages.firstIndex(where: { $0.storage === owner.storage }) {
                storages[index].keys.append(owner.key)
            } else {
                storages.append((owner.storage, [owner.key]))
            }
        }

        /// Reads the destinations of every owner, keeps them in the owners' storages, and
        /// returns the distinct destinations (for the next step of a dotted path).
        func load(_ name: String, store: SQLiteStore) throws -> [Owner] {
            guard let layout = store.destinationLayout(of: relationship) else { return [] }
            // Each owner's destinations as positions in `rows`, whose values are decoded into
            // one buffer the objects share; a destination row read for several owners is one
            // object.
            var byOwnerRows: [Int64: [Int]] = [:]
            for key in keys { byOwnerRows[key] = [] }
            var decoded: [Int64: Int] = [:]
            var rows: [SQLDecodedRow] = []
            var values: [Value] = []
            var destinations: [Owner] = []
            let ownerColumn = Int32(layout.columns.count)
            for chunk in RowKeyLists.chunks(keys) {
                let read = SQLRelationshipRead(relationship, of: table, held: held, destination: layout.table, selecting: layout.columns,
                                               owners: .many(keys: RowKeyLists.inList(chunk.count)), schema: store.schema, dialect: SQLiteDialect())
                assert(read.ownerColumn == Int(ownerColumn), "the owner's key follows the destination's columns")
                // (Cached: a batch's chunks mostly have the same number of keys, so the same SQL,
                // whose up to 1,000 numbered parameters cost SQLite a quadratic parse.)
                let statement = try store.database.cachedStatement(read.sql)
                defer { statement.reset() }
                try statement.bind(sqlValues: chunk.bindings)
                while try statement.step() {
                    let owner = statement.int64(ownerColumn)
                    guard byOwnerRows[owner] != nil else { continue }
                    let key = statement.int64(0)
                    let position: Int
                    if let known = decoded[key] {
                        position = known
                    } else {
                        let row = layout.decode(statement, previous: rows.last?.entity, appendingTo: &values)
                        position = rows.count
                        rows.append(row)
                        decoded[key] = position
                        if let storage = row.entity.storage { destinations.append(Owner(storage: storage, key: key)) }
                    }
                    byOwnerRows[owner, default: []].append(position)
                }
            }
            let objects = store.managedObjects(rows, values: values)
            let byOwner = byOwnerRows.mapValues { positions in positions.map { objects[$0] } }
            if storages.count == 1, let only = storages.first {
                only.storage.setPrefetched(name, byOwner)
            } else {
                for (storage, keys) in storages {
                    var own: [Int64: [ManagedObject]] = [:]
                    for key in keys { own[key] = byOwner[key] ?? [] }
                    storage.setPrefetched(name, own)
                }
            }
            return destinations
        }

        /// Reads how many destinations every owner has and keeps the counts in the owners'
        /// storages (a to-many relationship).
        func loadCounts(_ name: String, store: SQLiteStore) throws {
            var byOwner: [Int64: Int] = [:]
            for key in keys { byOwner[key] = 0 }
            for chunk in RowKeyLists.chunks(keys) {
                guard let sql = SQLRelationshipRead.countSQL(relationship, of: table, held: held, destination: store.destinationLayout(of: relationship)?.table,
                                                             keys: RowKeyLists.inList(chunk.count), schema: store.schema, dialect: SQLiteDialect()) else { return }
                let statement = try store.database.cachedStatement(sql)
                defer { statement.reset() }
                try statement.bind(sqlValues: chunk.bindings)
                while try statement.step() {
                    let owner = statement.int64(0)
                    guard byOwner[owner] != nil else { continue }
                    byOwner[owner] = Int(statement.int64(1))
                }
            }
            for (storage, keys) in storages {
                var own: [Int64: Int] = [:]
                for key in keys { own[key] = byOwner[key] ?? 0 }
                storage.setPrefetchedCounts(name, own)
            }
        }
    }
}
