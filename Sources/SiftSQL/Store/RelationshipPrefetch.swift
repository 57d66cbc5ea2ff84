import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// `relationshipKeyPathsForPrefetching` on the SQLite store: the relationships loaded with a
/// batch of fetched objects, one query per relationship for the whole batch (in chunks of at
/// most `RowKeyLists.limit` owner keys), instead of one query per object when each is read.
///
/// The owners' row keys are bound as parameters; the destinations come back with their
/// owner's key in an extra last column, in the order `SQLiteStore.destinations(of:from:key:)`
/// gives them for one owner, so a prefetched relationship reads exactly as an unprefetched one:
///
///     -- a to-one (this row's column holds the destination's key)
///     SELECT <destination columns>, "s"."_pk" FROM "Book" AS "s"
///       JOIN "Author" AS "d" ON "d"."_pk" = "s"."author" WHERE "s"."_pk" IN (?1, ?2, …)
///     -- a to-many held by the destination's to-one column
///     SELECT <destination columns>, "d"."author" FROM "Book" AS "d"
///       WHERE "d"."author" IN (?1, ?2, …) ORDER BY "d"."_pk"
///     -- (… whose column holds another column than the key, in a database Sift did not create)
///     SELECT <destination columns>, "s"."_pk" FROM "Artist" AS "s"
///       JOIN "Album" AS "d" ON "d"."ArtistCode" = "s"."Code" WHERE "s"."_pk" IN (?1, …) ORDER BY "d"."_pk"
///     -- a to-many held in a join table
///     SELECT <destination columns>, "j"."_owner" FROM "Book.tags" AS "j"
///       JOIN "Tag" AS "d" ON "d"."_pk" = "j"."_target" WHERE "j"."_owner" IN (?1, ?2, …)
///       ORDER BY "j"."_owner", "j"."_position"
///
/// The destinations are kept in the owners' shared `SQLObjectStorage` (every owner of the
/// batch gets an entry, an empty one for a nil to-one or an empty to-many), replacing the
/// previous batch's, so memory stays bounded by a batch. A dotted path (`author.books`) loads
/// its first step, then the rest on the destinations as a batch of their own (they share the
/// storage of the layout they were read with). Paths sharing a first step load it once.
///
/// Only objects read through the streaming cursor (`SQLStatementCursor`) are prefetched:
/// results served from a list of keys (`SQLKeyListSource`: part of the fetch ran in memory,
/// or a section read by key) and random access (`object(at:)`) read each object's
/// relationships when asked. A prefetch query that fails is skipped: those relationships are
/// then read per object, which reports the error.
struct RelationshipPrefetch: Sendable {
    /// Relationship names to load from the owners (in the order the paths first name them),
    /// each with what to load from its destinations.
    let steps: [Step]

    struct Step: Sendable {
        let name: String
        let then: RelationshipPrefetch
    }

    /// The prefetch for key paths the fetch checked (`ModelKeyPaths.checkPrefetchKeyPath`).
    init(keyPaths: [String]) {
        var names: [String] = []
        var rests: [String: [String]] = [:]
        for path in keyPaths {
            let parts = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = parts.first.map(String.init), !first.isEmpty else { continue }
            if rests[first] == nil { names.append(first) }
            rests[first, default: []].append(contentsOf: parts.dropFirst().map(String.init))
        }
        steps = names.map { Step(name: $0, then: RelationshipPrefetch(keyPaths: rests[$0] ?? [])) }
    }

    var isEmpty: Bool { steps.isEmpty }

    /// One fetched object: the storage it shares and its row key.
    struct Owner {
        let storage: SQLObjectStorage
        let key: Int64
    }

    /// Loads every step for `owners` (one batch), keeping the destinations in the owners'
    /// storages. Call with `store.lock` held.
    func load(_ owners: [Owner], store: SQLiteStore) {
        guard !steps.isEmpty, !owners.isEmpty else { return }
        for step in steps {
            // Owners whose relationship is held in the same place are read together.
            var groups: [GroupKey: Group] = [:]
            var order: [GroupKey] = []
            for owner in owners {
                guard let table = store.schema.table(for: owner.storage.entity),
                      let relationship = table.entity.relationship(named: step.name),
                      let held = table.relationships[step.name] else { continue }
                let groupKey = GroupKey(table: table.table, held: held)
                if groups[groupKey] == nil {
                    groups[groupKey] = Group(table: table, relationship: relationship, held: held)
                    order.append(groupKey)
                }
                groups[groupKey]?.add(owner)
            }
            var destinations: [Owner] = []
            for groupKey in order {
                guard let group = groups[groupKey],
                      let loaded = try? group.load(step.name, store: store) else { continue }
                destinations.append(contentsOf: loaded)
            }
            step.then.load(destinations, store: store)
        }
    }

    private struct GroupKey: Hashable {
        let table: String
        let held: RelationshipStorage
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
            var byOwner: [Int64: [ManagedObject]] = [:]
            for key in keys { byOwner[key] = [] }
            // A destination row read for several owners is one object.
            var decoded: [Int64: ManagedObject] = [:]
            var destinations: [Owner] = []
            let ownerColumn = Int32(layout.columns.count)
            for chunk in RowKeyLists.chunks(keys) {
                let statement = try store.database.prepare(Self.sql(held, from: table, layout: layout, count: chunk.count))
                try statement.bind(chunk.bindings)
                while try statement.step() {
                    let owner = statement.int64(ownerColumn)
                    guard byOwner[owner] != nil else { continue }
                    let key = statement.int64(0)
                    let object: ManagedObject
                    if let known = decoded[key] {
                        object = known
                    } else {
                        let row = layout.decode(statement)
                        object = store.managedObject(row)
                        decoded[key] = object
                        if let storage = row.storage { destinations.append(Owner(storage: storage, key: key)) }
                    }
                    byOwner[owner, default: []].append(object)
                }
            }
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

        /// The query reading the destinations of `count` owners (`?1` … `?count`), each row
        /// ending with its owner's key; owners' destinations in `destinations(of:from:key:)`'s order.
        static func sql(_ held: RelationshipStorage, from table: EntityTable, layout: RowLayout, count: Int) -> String {
            let columns = layout.columns.joined(separator: ", ")
            let destinationKey = SQLIdentifier.qualified("d", layout.table.primaryKey)
            let list = RowKeyLists.inList(count)
            let source = "\(SQLIdentifier.quoted(table.table)) AS \"s\""
            let sourceKey = SQLIdentifier.qualified("s", table.primaryKey)
            switch held {
            case .foreignKey(let column, let destinationTable, let key):
                return "SELECT \(columns), \(sourceKey) FROM \(source) JOIN \(SQLIdentifier.quoted(destinationTable)) AS \"d\" ON \(SQLIdentifier.qualified("d", key)) = \(SQLIdentifier.qualified("s", column)) WHERE \(sourceKey) \(list)"
            case .inverseForeignKey(let column, let destinationTable, let heldKey):
                let foreignKey = SQLIdentifier.qualified("d", column)
                if heldKey == table.primaryKey {
                    return "SELECT \(columns), \(foreignKey) FROM \(SQLIdentifier.quoted(destinationTable)) AS \"d\" WHERE \(foreignKey) \(list) ORDER BY \(destinationKey)"
                }
                return "SELECT \(columns), \(sourceKey) FROM \(source) JOIN \(SQLIdentifier.quoted(destinationTable)) AS \"d\" ON \(foreignKey) = \(SQLIdentifier.qualified("s", heldKey)) WHERE \(sourceKey) \(list) ORDER BY \(destinationKey)"
            case .joinTable(let name, let destinationTable):
                let owner = SQLIdentifier.qualified("j", SQLSchema.ownerColumn)
                return "SELECT \(columns), \(owner) FROM \(SQLIdentifier.quoted(name)) AS \"j\" JOIN \(SQLIdentifier.quoted(destinationTable)) AS \"d\" ON \(destinationKey) = \(SQLIdentifier.qualified("j", SQLSchema.targetColumn)) WHERE \(owner) \(list) ORDER BY \(owner), \(SQLIdentifier.qualified("j", SQLSchema.positionColumn))"
            }
        }
    }
}
