import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// Owners of one batch whose relationship is held in the same place (the same table, storage
/// and, for a Core Data one-to-one, the other side's column): their destinations are read with
/// one query (``SQLBatchPrefetch``), whichever entities and storages they come from.
package struct SQLPrefetchGroup {
    /// The owners' table (the first owner's entity's).
    package let table: EntityTable
    package let relationship: RelationshipDescription
    /// Where `table` holds the relationship.
    package let held: RelationshipStorage
    /// Distinct owner keys, in batch order.
    package private(set) var keys: [Int64] = []
    private var seen: Set<Int64> = []
    /// The owners' storages (each once), with the keys each holds.
    private var storages: [(storage: SQLObjectStorage, keys: [Int64])] = []

    private init(table: EntityTable, relationship: RelationshipDescription, held: RelationshipStorage) {
        self.table = table
        self.relationship = relationship
        self.held = held
    }

    /// `owners` grouped by where their relationship `name` is held, in the order first met;
    /// owners whose entity has no relationship `name` the store holds are in none.
    package static func groups(_ owners: [SQLBatchPrefetch.Owner], _ name: String, schema: SQLSchema) -> [SQLPrefetchGroup] {
        var groups: [SQLPrefetchGroup] = []
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
    private static func groupIndex(of entity: String, _ name: String, _ schema: SQLSchema, _ groups: inout [SQLPrefetchGroup],
                                   _ indexOfKey: inout [GroupKey: Int]) -> Int? {
        guard let table = schema.table(for: entity),
              let relationship = table.entity.relationship(named: name),
              let held = table.relationships[name] else { return nil }
        let groupKey = GroupKey(table: table.table, held: held, pointingBack: table.inverseKeyColumns[name])
        if let index = indexOfKey[groupKey] { return index }
        groups.append(SQLPrefetchGroup(table: table, relationship: relationship, held: held))
        indexOfKey[groupKey] = groups.count - 1
        return groups.count - 1
    }

    private struct GroupKey: Hashable {
        let table: String
        let held: RelationshipStorage
        /// The other side's column a one-to-one is also read from (``EntityTable/inverseKeyColumns``).
        let pointingBack: String?
    }

    private mutating func add(_ owner: SQLBatchPrefetch.Owner) {
        if seen.insert(owner.key).inserted { keys.append(owner.key) }
        if let index = storages.firstIndex(where: { $0.storage === owner.storage }) {
            storages[index].keys.append(owner.key)
        } else {
            storages.append((owner.storage, [owner.key]))
        }
    }

    /// Keeps `byOwner` (every owner of the group) as the relationship `name` of the owners, in
    /// their storages.
    func keep(_ byOwner: [Int64: [ManagedObject]], as name: String, _ keeping: SQLBatchPrefetch.Keeping) {
        if storages.count == 1, let only = storages.first {
            assert(byOwner.count >= keys.count, "every owner of the group has its destinations")
            keep(byOwner, as: name, in: only.storage, keeping)
        } else {
            for (storage, keys) in storages {
                var own: [Int64: [ManagedObject]] = [:]
                for key in keys { own[key] = byOwner[key] ?? [] }
                keep(own, as: name, in: storage, keeping)
            }
        }
    }

    private func keep(_ destinations: [Int64: [ManagedObject]], as name: String, in storage: SQLObjectStorage, _ keeping: SQLBatchPrefetch.Keeping) {
        switch keeping {
        case .merged: storage.setPrefetched(name, destinations)
        case .replaced: storage.replacePrefetched(name, destinations)
        }
    }

    /// Keeps `counts` (owners with any destinations) as the to-many relationship `name`'s
    /// counts of the owners, 0 for the others, in their storages.
    func keepCounts(_ counts: [Int64: Int], as name: String, _ keeping: SQLBatchPrefetch.Keeping) {
        for (storage, keys) in storages {
            var own: [Int64: Int] = [:]
            for key in keys { own[key] = counts[key] ?? 0 }
            switch keeping {
            case .merged: storage.setPrefetchedCounts(name, own)
            case .replaced: storage.replacePrefetchedCounts(name, own)
            }
        }
    }
}
