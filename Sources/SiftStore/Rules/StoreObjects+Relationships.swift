/// Relationships and their inverses: pointing a relationship at new destinations updates the
/// inverse of every destination that comes or goes, and a to-one inverse that moves leaves its
/// previous owner's relationship.
extension StoreObjects {
    /// Points relationship `slot` of `object` at `destinations`, keeping inverses in sync. An
    /// ordered relationship keeps the order asked for; an unordered one holds its destinations
    /// in insertion order, the order every store reads them in.
    package mutating func setDestinations(_ destinations: [Reference], of object: Reference, slot: Int) throws(StoreError) {
        let old = try self.destinations(of: object, slot: slot)
        let kept = Set(destinations), previous = Set(old)
        for destination in old where !kept.contains(destination) {
            try unlink(object, slot, destination)
        }
        for destination in destinations where !previous.contains(destination) {
            try link(object, slot, destination)
        }
        let relationship = entity(of: object).relationships[slot]
        try holdDestinations(relationship.isToMany && !relationship.isOrdered ? destinations.sorted() : destinations, of: object, slot: slot)
    }

    /// Adds `destination` to relationship `slot` of `object`, and `object` to the inverse.
    private mutating func link(_ object: Reference, _ slot: Int, _ destination: Reference) throws(StoreError) {
        if !isToMany(object, slot), let previous = try destinations(of: object, slot: slot).first, previous != destination {
            try unlink(object, slot, previous)
        }
        let inverse = inverseSlot(of: slot, from: object, to: destination)
        // The destination's owner through a to-one inverse, read before anything is written (a
        // store may keep both sides in one place, which the next write changes).
        var previousOwner: Reference?
        if let inverse, !isToMany(destination, inverse) { previousOwner = try destinations(of: destination, slot: inverse).first }
        try addDestination(destination, to: object, slot: slot)
        guard let inverse else { return }
        if let previous = previousOwner, previous != object {
            // A to-one inverse moves: the destination leaves its previous owner's relationship.
            try removeDestination(destination, from: previous, slot: slot)
        }
        try addDestination(object, to: destination, slot: inverse)
    }

    /// Removes `destination` from relationship `slot` of `object`, and `object` from the inverse.
    private mutating func unlink(_ object: Reference, _ slot: Int, _ destination: Reference) throws(StoreError) {
        if let inverse = inverseSlot(of: slot, from: object, to: destination) {
            try removeDestination(object, from: destination, slot: inverse)
        }
        try removeDestination(destination, from: object, slot: slot)
    }
}
