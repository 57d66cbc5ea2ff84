import SiftLanguage

/// What changed between two states of sectioned results, in Core Data's vocabulary
/// (`NSFetchedResultsChangeType`: insert, delete, move, update) and in the order a table view's
/// batch updates (`performBatchUpdates`) apply them:
///
/// 1. **Deletes, against the old state**, highest index path first: ``sectionDeletes`` (old
///    section indexes), the ``ObjectChange/Kind/delete`` changes and the old index path of every
///    ``ObjectChange/Kind/move``. Each index path is valid in the old results.
/// 2. **Inserts, against the new state**, lowest index path first: ``sectionInserts`` (new
///    section indexes), the ``ObjectChange/Kind/insert`` changes and the new index path of every
///    move. Each index path is valid in the new results.
/// 3. **Updates**: each ``ObjectChange/Kind/update`` names the object's old index path (where
///    the view shows it before the batch) and its new one.
///
/// ``ResultsSnapshot/applying(_:)`` applies a change set so, and checks every index path on
/// the way.
///
/// The rules:
/// - An object in the new results and not the old is an insert; in the old and not the new, a
///   delete — also when its whole section is inserted or deleted (as Core Data reports them).
/// - An object that is in another section afterwards is a move; so is one whose place among the
///   objects that stay in its section changed (its sort key changed). Objects that only shift
///   because others came or went are not moves. Where several objects changed places, the moves
///   are as few as possible (the longest run of objects that kept their order stays), objects
///   whose values changed moving before those whose values did not.
/// - Sections are known by name (and by occurrence, where results that are not grouped by the
///   first sort key give a name twice). A section present before and after keeps its identity;
///   one whose place among the kept sections changed is deleted and inserted again (Core Data's
///   controller has no section moves), its objects moved with it.
/// - An object reported changed (``ResultsDiff/changes(from:to:updated:)``'s `updated`) that is
///   neither inserted nor moved is an update; one that moved is reported as the move alone.
///   An object not reported changed is never an update: a change to a value the fetch does not
///   read is no change.
///
/// Each list is in its order of application: section deletes descending, section inserts
/// ascending; object deletes by old index path descending, inserts by new index path ascending,
/// moves and updates by old index path ascending.
public struct ResultsChangeSet: Hashable, Sendable {
    /// A section deleted (its index in the old results) or inserted (its index in the new).
    public struct SectionChange: Hashable, Sendable {
        public var index: Int
        public var name: String

        public init(index: Int, name: String) {
            self.index = index
            self.name = name
        }
    }

    /// A change to one object.
    public struct ObjectChange: Hashable, Sendable {
        /// `NSFetchedResultsChangeType`, without the section-only cases.
        public enum Kind: String, Hashable, Sendable {
            case insert, delete, move, update
        }

        public var kind: Kind
        public var objectID: ObjectID
        /// Where the object was (nil for an insert).
        public var oldIndexPath: ResultIndexPath?
        /// Where the object is now (nil for a delete).
        public var newIndexPath: ResultIndexPath?

        public init(kind: Kind, objectID: ObjectID, oldIndexPath: ResultIndexPath?, newIndexPath: ResultIndexPath?) {
            self.kind = kind
            self.objectID = objectID
            self.oldIndexPath = oldIndexPath
            self.newIndexPath = newIndexPath
        }
    }

    public var sectionDeletes: [SectionChange]
    public var sectionInserts: [SectionChange]
    public var deletes: [ObjectChange]
    public var inserts: [ObjectChange]
    public var moves: [ObjectChange]
    public var updates: [ObjectChange]
    /// The whole new state's identifiers.
    public var snapshot: ResultsSnapshot

    public init(sectionDeletes: [SectionChange] = [], sectionInserts: [SectionChange] = [],
                deletes: [ObjectChange] = [], inserts: [ObjectChange] = [], moves: [ObjectChange] = [],
                updates: [ObjectChange] = [], snapshot: ResultsSnapshot) {
        self.sectionDeletes = sectionDeletes
        self.sectionInserts = sectionInserts
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
        self.updates = updates
        self.snapshot = snapshot
    }

    /// The object changes in Core Data's order: deletes, inserts, moves, updates.
    public var objectChanges: [ObjectChange] { deletes + inserts + moves + updates }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && deletes.isEmpty && inserts.isEmpty && moves.isEmpty && updates.isEmpty
    }
}

/// Computes ``ResultsChangeSet``s: in time linear in the results' size (and n log n in the
/// objects whose order changed). Where the sections stay the same, only the objects between
/// each section's first and last difference are looked up by ID.
public enum ResultsDiff {
    /// The change set from `old` to `new`, where `updated` holds the objects whose fetched
    /// values changed (others are never updates). The rules are ``ResultsChangeSet``'s.
    public static func changes(from old: ResultsSnapshot, to new: ResultsSnapshot, updated: Set<ObjectID> = []) -> ResultsChangeSet {
        changes(from: old, to: new, updated: updated, oldPlaces: nil)
    }

    /// ``changes(from:to:updated:)``, where `oldPlaces`, when given, holds the old index path of
    /// every object of `updated` that is in `old` (so the objects outside the compared windows
    /// need not be looked at one by one).
    static func changes(from old: ResultsSnapshot, to new: ResultsSnapshot, updated: Set<ObjectID>,
                        oldPlaces: [ObjectID: ResultIndexPath]?) -> ResultsChangeSet {
        // Sections by name and occurrence.
        let oldKeys = sectionKeys(old)
        let newKeys = sectionKeys(new)
        var newSectionByKey: [SectionKey: Int] = [:]
        newSectionByKey.reserveCapacity(newKeys.count)
        for (index, key) in newKeys.enumerated() { newSectionByKey[key] = index }
        // The old sections found again, in old order, and which of them keep their order.
        var kept: [(old: Int, new: Int)] = []
        for (index, key) in oldKeys.enumerated() {
            if let newIndex = newSectionByKey[key] { kept.append((index, newIndex)) }
        }
        let stay = longestIncreasingRun(kept.map(\.new))
        var newSectionOfOld = [Int?](repeating: nil, count: old.sections.count)
        var oldSectionOfNew = [Int?](repeating: nil, count: new.sections.count)
        for (position, pair) in kept.enumerated() where stay[position] {
            newSectionOfOld[pair.old] = pair.new
            oldSectionOfNew[pair.new] = pair.old
        }
        var changeSet = ResultsChangeSet(snapshot: new)
        for index in old.sections.indices.reversed() where newSectionOfOld[index] == nil {
            changeSet.sectionDeletes.append(.init(index: index, name: old.sections[index].name))
        }
        for index in new.sections.indices where oldSectionOfNew[index] == nil {
            changeSet.sectionInserts.append(.init(index: index, name: new.sections[index].name))
        }

        // Where the sections are the same, the objects of each before its first difference and
        // after its last stay where they are: only the windows between are compared by ID (one
        // update in place compares no IDs by hash, one move only those it passed).
        let sameSections = oldKeys == newKeys
        var oldWindows = old.sections.map { 0..<$0.ids.count }
        var newWindows = new.sections.map { 0..<$0.ids.count }
        if sameSections {
            for s in old.sections.indices {
                // Chunks both states share are skipped whole.
                let before = old.sections[s].ids, after = new.sections[s].ids
                let shorter = min(before.count, after.count)
                let prefix = min(shorter, before.commonPrefixCount(with: after))
                let suffix = before.commonSuffixCount(with: after, limit: shorter - prefix)
                oldWindows[s] = prefix..<(before.count - suffix)
                newWindows[s] = prefix..<(after.count - suffix)
                // Updates among the objects that stay outside the window.
                guard !updated.isEmpty else { continue }
                // Where the caller knows the updated objects' old places, those are looked at,
                // not every object outside the window.
                func update(_ r: Int, _ id: ObjectID) {
                    let shifted = r < prefix ? r : r + after.count - before.count
                    changeSet.updates.append(.init(kind: .update, objectID: id, oldIndexPath: ResultIndexPath(section: s, row: r),
                                                   newIndexPath: ResultIndexPath(section: s, row: shifted)))
                }
                if let oldPlaces {
                    for (id, place) in oldPlaces where place.section == s && !oldWindows[s].contains(place.row) && updated.contains(id) {
                        update(place.row, id)
                    }
                } else {
                    before.forEach(in: 0..<prefix) { r, id in if updated.contains(id) { update(r, id) } }
                    before.forEach(in: (before.count - suffix)..<before.count) { r, id in if updated.contains(id) { update(r, id) } }
                }
            }
        }
        // Where each object of the windows is now (an object outside them is in the same place
        // in both states, so never in a window of the other).
        var newPlace: [ObjectID: ResultIndexPath] = [:]
        newPlace.reserveCapacity(newWindows.reduce(0) { $0 + $1.count })
        for (s, section) in new.sections.enumerated() {
            section.ids.forEach(in: newWindows[s]) { r, id in newPlace[id] = ResultIndexPath(section: s, row: r) }
        }
        var seen: Set<ObjectID> = []
        seen.reserveCapacity(oldWindows.reduce(0) { $0 + $1.count })
        for (s, section) in old.sections.enumerated() {
            // Objects still in this (kept) section, in old order: candidates to stay.
            var candidates: [(id: ObjectID, old: ResultIndexPath, new: ResultIndexPath)] = []
            section.ids.forEach(in: oldWindows[s]) { r, id in
                seen.insert(id)
                let oldPath = ResultIndexPath(section: s, row: r)
                guard let newPath = newPlace[id] else {
                    changeSet.deletes.append(.init(kind: .delete, objectID: id, oldIndexPath: oldPath, newIndexPath: nil))
                    return
                }
                if let target = newSectionOfOld[s], target == newPath.section {
                    candidates.append((id, oldPath, newPath))
                } else {
                    changeSet.moves.append(.init(kind: .move, objectID: id, oldIndexPath: oldPath, newIndexPath: newPath))
                }
            }
            let stays = staying(candidates.map { ($0.new.row, updated.contains($0.id)) })
            for (position, candidate) in candidates.enumerated() {
                if !stays[position] {
                    changeSet.moves.append(.init(kind: .move, objectID: candidate.id, oldIndexPath: candidate.old, newIndexPath: candidate.new))
                } else if updated.contains(candidate.id) {
                    changeSet.updates.append(.init(kind: .update, objectID: candidate.id, oldIndexPath: candidate.old, newIndexPath: candidate.new))
                }
            }
        }
        for (s, section) in new.sections.enumerated() {
            section.ids.forEach(in: newWindows[s]) { r, id in
                guard !seen.contains(id) else { return }
                changeSet.inserts.append(.init(kind: .insert, objectID: id, oldIndexPath: nil, newIndexPath: ResultIndexPath(section: s, row: r)))
            }
        }
        changeSet.deletes.reverse()  // collected ascending; applied descending
        changeSet.moves.sort { $0.oldIndexPath! < $1.oldIndexPath! }
        changeSet.updates.sort { $0.oldIndexPath! < $1.oldIndexPath! }
        return changeSet
    }

    private struct SectionKey: Hashable {
        let name: String
        let occurrence: Int
    }

    private static func sectionKeys(_ snapshot: ResultsSnapshot) -> [SectionKey] {
        var counts: [String: Int] = [:]
        return snapshot.sections.map { section in
            let occurrence = counts[section.name, default: 0]
            counts[section.name] = occurrence + 1
            return SectionKey(name: section.name, occurrence: occurrence)
        }
    }

    /// Which of a section's remaining objects (new rows in old order; whether each was
    /// updated) stay where they are: the longest run of unchanged objects in increasing order,
    /// then each changed object that fits in order between the staying ones around it.
    private static func staying(_ objects: [(row: Int, updated: Bool)]) -> [Bool] {
        var stays = [Bool](repeating: false, count: objects.count)
        let unchanged = objects.indices.filter { !objects[$0].updated }
        let unchangedStay = longestIncreasingRun(unchanged.map { objects[$0].row })
        for (position, index) in unchanged.enumerated() where unchangedStay[position] { stays[index] = true }
        // The row of the next staying unchanged object after each position (Int.max: none).
        var nextRow = [Int](repeating: Int.max, count: objects.count)
        var following = Int.max
        for index in objects.indices.reversed() {
            nextRow[index] = following
            if stays[index] { following = objects[index].row }
        }
        var lastRow = -1
        for index in objects.indices {
            if stays[index] {
                lastRow = objects[index].row
            } else if objects[index].updated, objects[index].row > lastRow, objects[index].row < nextRow[index] {
                stays[index] = true
                lastRow = objects[index].row
            }
        }
        return stays
    }

    /// Marks a longest strictly increasing subsequence of `values` (patience sorting, n log n;
    /// linear when the values already increase, the usual case).
    static func longestIncreasingRun(_ values: [Int]) -> [Bool] {
        if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) {
            return [Bool](repeating: true, count: values.count)
        }
        // tails[k]: index of the smallest last value of an increasing run of length k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var marks = [Bool](repeating: false, count: values.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            marks[cursor] = true
            cursor = previous[cursor]
        }
        return marks
    }
}

extension ResultsSnapshot {
    /// Why a change set could not be applied to a snapshot: an index path outside the state it
    /// is applied to, or naming another object than the change's.
    public struct ApplicationError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// This snapshot with `changeSet` applied in Core Data's order (``ResultsChangeSet``):
    /// deletes (objects, moves' sources, then sections) from the highest index path down
    /// against this state, then inserts (sections, then objects and moves' destinations) from
    /// the lowest up against the new state; updates are checked against both. Throws when an
    /// index path is not valid where it is applied, or names another object.
    public func applying(_ changeSet: ResultsChangeSet) throws(ApplicationError) -> ResultsSnapshot {
        // Updates are reported against the old state (and name where the object ends up).
        for update in changeSet.updates {
            guard let path = update.oldIndexPath, objectID(at: path) == update.objectID else {
                throw ApplicationError(description: "update of \(update.objectID) at \(update.oldIndexPath.map(String.init(describing:)) ?? "nil") is not in the old results")
            }
        }
        var sections = self.sections
        let removals = (changeSet.deletes + changeSet.moves).sorted { ($0.oldIndexPath ?? .init(section: -1, row: -1)) > ($1.oldIndexPath ?? .init(section: -1, row: -1)) }
        for change in removals {
            guard let path = change.oldIndexPath, objectID(at: path) == change.objectID else {
                throw ApplicationError(description: "\(change.kind) of \(change.objectID) from \(change.oldIndexPath.map(String.init(describing:)) ?? "nil") is not in the old results")
            }
            sections[path.section].ids.remove(at: path.row)
        }
        for change in changeSet.sectionDeletes.sorted(by: { $0.index > $1.index }) {
            guard self.sections.indices.contains(change.index), self.sections[change.index].name == change.name else {
                throw ApplicationError(description: "section delete at \(change.index) is not in the old results")
            }
            guard sections[change.index].ids.isEmpty else {
                throw ApplicationError(description: "section \(change.index) is deleted with objects left in it")
            }
            sections.remove(at: change.index)
        }
        for change in changeSet.sectionInserts.sorted(by: { $0.index < $1.index }) {
            guard change.index <= sections.count else {
                throw ApplicationError(description: "section insert at \(change.index) is past the end (\(sections.count) sections)")
            }
            sections.insert(Section(name: change.name, ids: ChunkedList()), at: change.index)
        }
        let additions = (changeSet.inserts + changeSet.moves).sorted { ($0.newIndexPath ?? .init(section: -1, row: -1)) < ($1.newIndexPath ?? .init(section: -1, row: -1)) }
        for change in additions {
            guard let path = change.newIndexPath, sections.indices.contains(path.section),
                  path.row >= 0, path.row <= sections[path.section].ids.count else {
                throw ApplicationError(description: "\(change.kind) of \(change.objectID) to \(change.newIndexPath.map(String.init(describing:)) ?? "nil") is outside the results")
            }
            sections[path.section].ids.insert(change.objectID, at: path.row)
        }
        let result = ResultsSnapshot(sections: sections)
        for update in changeSet.updates {
            guard let path = update.newIndexPath, result.objectID(at: path) == update.objectID else {
                throw ApplicationError(description: "update of \(update.objectID) names \(update.newIndexPath.map(String.init(describing:)) ?? "nil"), not its place in the new results")
            }
        }
        return result
    }
}
