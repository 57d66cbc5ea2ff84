import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftStore

/// What a PostgreSQL fetch loads with each batch of its objects: the destinations of its
/// `relationshipKeyPathsForPrefetching` (each path once, every step of a dotted path) and the
/// destination counts of its `relationshipCountsForPrefetching` (to-many relationships whose
/// destinations are not loaded anyway).
struct PostgreSQLBatchPrefetch: Sendable {
    /// The relationship key paths whose destinations are loaded.
    let paths: [String]
    /// The relationships whose destinations are only counted.
    let counts: [String]

    /// Nothing loaded.
    static let none = PostgreSQLBatchPrefetch(paths: [], counts: [])

    init(paths: [String], counts: [String]) {
        self.paths = paths
        self.counts = counts
    }

    /// What `request` asks to load with each batch.
    init(_ request: FetchRequest) {
        var paths: [String] = []
        for path in request.relationshipKeyPathsForPrefetching where !path.isEmpty && !paths.contains(path) { paths.append(path) }
        // (A relationship whose destinations are loaded is counted from them.)
        let loaded = Set(paths.map { String($0.prefix { $0 != "." }) })
        var counts: [String] = []
        for name in request.relationshipCountsForPrefetching where !loaded.contains(name) && !counts.contains(name) { counts.append(name) }
        self.init(paths: paths, counts: counts)
    }

    var isEmpty: Bool { paths.isEmpty && counts.isEmpty }
}

extension PostgreSQLStore {
    /// Loads what `batch` asks for `objects` (one batch of a fetch).
    func prefetch(_ batch: PostgreSQLBatchPrefetch, of objects: [ManagedObject]) throws(StoreError) {
        guard !batch.isEmpty, !objects.isEmpty else { return }
        try prefetch(batch.paths, of: objects)
        try prefetchCounts(batch.counts, of: objects)
    }

    /// Reads the relationship key paths `paths` (`tracks`, `playlists.tracks.album`) of a batch
    /// of objects: one query per relationship and entity of the batch (`= ANY` of the batch's
    /// keys), kept in the objects' storage (``SQLObjectStorage``) and answered from
    /// memory while the rows have not changed; a dotted path's next step is read the same way
    /// for the destinations of the step before, each row once. Keys an object's entity does not
    /// have are passed over.
    func prefetch(_ paths: [String], of objects: [ManagedObject]) throws(StoreError) {
        guard !paths.isEmpty, !objects.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        var names: [String] = []
        var rests: [String: [String]] = [:]
        for path in paths {
            let parts = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let first = parts.first, !first.isEmpty else { continue }
            if rests[first] == nil { names.append(first) }
            rests[first, default: []].append(contentsOf: parts.dropFirst())
        }
        for (storage, keys) in Self.owners(of: objects) {
            guard let table = schema.table(for: storage.entity) else { continue }
            for name in names {
                guard let relationship = table.entity.relationship(named: name) else { continue }
                let found = try destinations(of: relationship, from: table, keys: keys)
                storage.replacePrefetched(name, found)
                if let rest = rests[name], !rest.isEmpty { try prefetch(rest, of: found.values.flatMap { $0 }) }
            }
        }
    }

    /// Reads how many destinations each of `objects` has in the to-many relationships `names`:
    /// one grouped query per relationship and entity of the batch (the rows
    /// `destinations(of:from:keys:)` reads, counted: ``SQLRelationshipRead``), kept in the
    /// objects' storage, replacing an earlier batch's.
    func prefetchCounts(_ names: [String], of objects: [ManagedObject]) throws(StoreError) {
        guard !names.isEmpty, !objects.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        for (storage, keys) in Self.owners(of: objects) {
            guard let table = schema.table(for: storage.entity) else { continue }
            for name in names {
                guard let relationship = table.entity.relationship(named: name), relationship.isToMany,
                      let held = table.relationships[name] else { continue }
                let root = schema.table(for: relationship.destination).map { destination in
                    model.entity(named: destination.entity.rootEntity).flatMap { schema.table(for: $0.name) } ?? destination
                }
                guard let sql = SQLRelationshipRead.countSQL(relationship, of: table, held: held, destination: root,
                                                             keys: "= ANY($1)", schema: schema, dialect: dialect) else { continue }
                let result = try read { () throws(StoreError) in try query(sql, [PostgreSQLRowObjects.keyArray(keys)]) }
                var counts: [Int64: Int] = [:]
                for key in keys { counts[key] = 0 }
                for row in result {
                    guard let owner = row[0].int64Value, counts[owner] != nil, let count = row[1].int64Value else { continue }
                    counts[owner] = Int(count)
                }
                storage.replacePrefetchedCounts(name, counts)
            }
        }
    }

    /// `objects` by the storage they share (one per entity of a layout), each row's key once,
    /// in the order first met.
    private static func owners(of objects: [ManagedObject]) -> [(storage: SQLObjectStorage, keys: [Int64])] {
        var owners: [(storage: SQLObjectStorage, keys: [Int64], seen: Set<Int64>)] = []
        for object in objects {
            guard let storage = object.storage as? SQLObjectStorage else { continue }
            if let index = owners.firstIndex(where: { $0.storage === storage }) {
                if owners[index].seen.insert(object.storageKey).inserted { owners[index].keys.append(object.storageKey) }
            } else {
                owners.append((storage, [object.storageKey], [object.storageKey]))
            }
        }
        return owners.map { ($0.storage, $0.keys) }
    }
}
