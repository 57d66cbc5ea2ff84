import SiftLanguage

/// Deleting objects with their relationships' delete rules: Cascade deletes the destinations
/// too (as deep as the chain goes, without recursion), Deny refuses while a destination is not
/// itself being deleted (naming the object that blocks it), Nullify removes the deleted objects
/// from the surviving destinations' inverses, and No Action leaves the destinations alone (Sift
/// drops the reference they would keep to a deleted object).
extension StoreObjects {
    /// Deletes the objects with these IDs and everything their Cascade rules reach; nothing is
    /// changed if any ID names no object or a Deny rule refuses. Returns how many objects were
    /// deleted (cascades included).
    @discardableResult
    package mutating func deleteObjects(_ ids: [ObjectID]) throws(StoreError) -> Int {
        var starts: [(Reference, ObjectID)] = []
        for id in ids {
            guard let start = try reference(to: id) else { throw unknownObject(id) }
            starts.append((start, id))
        }
        return try deleteObjects(starts)
    }

    /// Deletes objects (with the IDs they were asked for by) and their cascades.
    package mutating func deleteObjects(_ starts: [(object: Reference, id: ObjectID)]) throws(StoreError) -> Int {
        // Everything the delete reaches through Cascade rules, with the start that reached it.
        var origin: [Reference: ObjectID] = [:]
        var queue: [Reference] = []
        for (start, id) in starts where origin[start] == nil {
            origin[start] = id
            queue.append(start)
        }
        let startSet = Set(starts.map(\.object))
        while let object = queue.popLast() {
            let entity = entity(of: object)
            for (slot, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                for destination in try destinations(of: object, slot: slot) where origin[destination] == nil {
                    origin[destination] = origin[object]
                    queue.append(destination)
                }
            }
        }
        let doomed = origin.keys.sorted()
        // Deny: a doomed object may not keep a destination that survives.
        for object in doomed {
            let entity = entity(of: object)
            for (slot, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .deny {
                guard let blocker = try destinations(of: object, slot: slot).first(where: { origin[$0] == nil }) else { continue }
                let id = try objectID(of: object)
                let cascade = startSet.contains(object) ? nil : origin[object]
                let what = cascade.map { "\(entity.name) '\(id)' (deleted by cascade from '\($0)')" } ?? "\(entity.name) '\(id)'"
                throw StoreError(.deleteDenied,
                                 "cannot delete \(what): its relationship \(relationship.name) still has \(self.entity(of: blocker).name) '\(try objectID(of: blocker))' (delete rule Deny)",
                                 entity: entity.name, objectID: id, key: relationship.name)
            }
        }
        // Nullify (and No Action): detach every doomed object from what survives.
        for object in doomed {
            for slot in entity(of: object).relationships.indices {
                for destination in try destinations(of: object, slot: slot) where origin[destination] == nil {
                    if let inverse = inverseSlot(of: slot, from: object, to: destination) {
                        try removeDestination(object, from: destination, slot: inverse)
                    }
                }
            }
        }
        try removeObjects(doomed)
        return doomed.count
    }
}
