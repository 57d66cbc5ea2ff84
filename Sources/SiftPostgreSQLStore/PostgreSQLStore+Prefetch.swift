import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftStore

extension PostgreSQLStore {
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
        // The objects by storage (one per entity of a layout), each row's key once.
        var owners: [(storage: SQLObjectStorage, keys: [Int64], seen: Set<Int64>)] = []
        for object in objects {
            guard let storage = object.storage as? SQLObjectStorage else { continue }
            if let index = owners.firstIndex(where: { $0.storage === storage }) {
                if owners[index].seen.insert(object.storageKey).inserted { owners[index].keys.append(object.storageKey) }
            } else {
                owners.append((storage, [object.storageKey], [object.storageKey]))
            }
        }
        for (storage, keys, _) in owners {
            guard let table = schema.table(for: storage.entity) else { continue }
            for name in names {
                guard let relationship = table.entity.relationship(named: name) else { continue }
                let found = try destinations(of: relationship, from: table, keys: keys)
                storage.replacePrefetched(name, found)
                if let rest = rests[name], !rest.isEmpty { try prefetch(rest, of: found.values.flatMap { $0 }) }
            }
        }
    }
}
