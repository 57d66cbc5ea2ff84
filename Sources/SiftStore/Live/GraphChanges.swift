import SiftEvaluation
import SiftLanguage

extension StoreChanges {
    /// What changed from one state of an atomic store's graph to another: objects by ID,
    /// attribute values slot by slot, relationships by their destinations' IDs.
    init(from old: ObjectGraph, to new: ObjectGraph) {
        self.init()
        for position in new.objects.indices {
            guard let object = new.objects[position] else { continue }
            guard let oldPosition = old.position(of: object.id), let before = old.objects[oldPosition] else {
                inserted.insert(object.id)
                continue
            }
            let entity = new.model.entities[object.entity]
            var keys: Set<String> = []
            if before.entity != object.entity { keys.insert("entity") }
            for (slot, attribute) in entity.attributes.enumerated() {
                let was = slot < before.attributes.count ? before.attributes[slot] : .null
                let now = slot < object.attributes.count ? object.attributes[slot] : .null
                if !ValueComparison.equals(was, now) { keys.insert(attribute.name) }
            }
            for (slot, relationship) in entity.relationships.enumerated() {
                let was = slot < before.relationships.count ? before.relationships[slot].map(old.objectID(of:)) : []
                let now = slot < object.relationships.count ? object.relationships[slot].map(new.objectID(of:)) : []
                if was != now { keys.insert(relationship.name) }
            }
            if !keys.isEmpty { updated[object.id] = keys }
        }
        for object in old.objects {
            guard let object, new.position(of: object.id) == nil else { continue }
            deleted.insert(object.id)
        }
    }
}
