import Foundation
import SiftLanguage
import SiftStore

/// What a SQLite store's saves changed, for live results (``ChangeReportingStore``).
extension SQLiteStore {
    /// What the open transaction changed, read from its journal: the objects inserted, updated
    /// (with the keys each change set) and deleted. Incomplete (``StoreChanges/isComplete``
    /// false) where the journal does not say everything: an import's rows, a journal past its
    /// limit or a transaction that added entities (no journal), a change to a relationship
    /// (its inverse side changes too) and a delete in a model with relationships (delete rules
    /// cascade and nullify).
    func journaledChanges() -> StoreChanges {
        guard let journal, !changesUnrecorded else { return .unknown }
        var changes = StoreChanges()
        let modelHasRelationships = schema.model.entities.contains { !$0.relationships.isEmpty }
        for entry in journal {
            switch entry {
            case .insert(_, let id, _, let relationships):
                changes.inserted.insert(id)
                changes.deleted.remove(id)
                if !relationships.isEmpty { changes.isComplete = false }
            case .insertValues(_, let id, _):
                changes.inserted.insert(id)
                changes.deleted.remove(id)
                changes.isComplete = false
            case .update(let id, let attributes, let relationships):
                if !relationships.isEmpty { changes.isComplete = false }
                guard !changes.inserted.contains(id) else { continue }
                changes.updated[id, default: []].formUnion(attributes.keys)
                changes.updated[id, default: []].formUnion(relationships.keys)
            case .delete(let ids):
                if modelHasRelationships { changes.isComplete = false }
                for id in ids {
                    changes.updated[id] = nil
                    if changes.inserted.remove(id) == nil { changes.deleted.insert(id) }
                }
            case .unitBegan:
                continue
            }
        }
        return changes
    }
}
