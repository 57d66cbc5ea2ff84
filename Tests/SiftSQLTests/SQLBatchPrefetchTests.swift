import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftStore
import Testing

/// The core's batch prefetch (`SQLBatchPrefetch`), checked without an engine: the plan a list of
/// key paths makes, the owners grouped by where the relationship is held, what is kept in which
/// storage, the next step walked on the destinations reached, and a group the driver skips.
@Suite struct SQLBatchPrefetchTests {
    /// A driver answering from a table of destinations and counts, recording each group asked.
    final class FakeDriver: SQLBatchPrefetchDriver {
        typealias Failure = Never
        let schema: SQLSchema
        /// Relationship name → owner key → destinations (a relationship missing: skipped).
        var destinations: [String: [Int64: [ManagedObject]]] = [:]
        var counts: [String: [Int64: Int]] = [:]
        /// Each group asked for: its relationship, table and keys.
        var asked: [String] = []

        init(schema: SQLSchema) { self.schema = schema }

        func destinations(of group: SQLPrefetchGroup) -> SQLPrefetchedDestinations? {
            asked.append("\(group.relationship.name) \(group.table.table) \(group.keys)")
            guard let known = destinations[group.relationship.name] else { return nil }
            var byOwner: [Int64: [ManagedObject]] = [:]
            var reached: [SQLBatchPrefetch.Owner] = []
            for key in group.keys {
                byOwner[key] = known[key] ?? []
                for object in known[key] ?? [] where !reached.contains(where: { $0.key == object.storageKey }) {
                    reached.append(SQLBatchPrefetch.Owner(storage: object.storage as! SQLObjectStorage, key: object.storageKey))
                }
            }
            return SQLPrefetchedDestinations(byOwner: byOwner, reached: reached)
        }

        func counts(of group: SQLPrefetchGroup) -> [Int64: Int]? {
            asked.append("count \(group.relationship.name) \(group.keys)")
            return counts[group.relationship.name]
        }
    }

    static func object(_ entity: String, _ key: Int64, _ storage: SQLObjectStorage) -> ManagedObject {
        ManagedObject(objectID: ObjectID("\(entity)\(key)"), entityName: entity, names: AttributeNames([]), values: [], storage: storage, storageKey: key)
    }

    /// Paths sharing a first step load it once, with the rests of all of them; empty paths and
    /// steps are passed over.
    @Test func keyPathsSplitIntoSteps() {
        let prefetch = SQLBatchPrefetch(keyPaths: ["notes.folder", "", "folder", "notes", "notes.folder.notes", "folder."], counts: ["notes"])
        #expect(prefetch.steps.map(\.name) == ["notes", "folder"])
        #expect(prefetch.steps[0].then.steps.map(\.name) == ["folder"])
        #expect(prefetch.steps[0].then.steps[0].then.steps.map(\.name) == ["notes"])
        #expect(prefetch.steps[1].then.isEmpty)
        // ("notes" is loaded, so it is counted from its destinations, not queried again.)
        #expect(prefetch.counts.isEmpty)
        #expect(SQLBatchPrefetch(keyPaths: ["folder.notes"], counts: ["notes", "tags", "notes", "tags"]).counts == ["notes", "tags"])
        #expect(SQLBatchPrefetch.none.isEmpty)
    }

    /// Notes and memos (one table) are one group, each key once; each storage keeps its own
    /// owners' destinations; the next step runs on the destinations reached, once each; a
    /// group the driver skips keeps nothing; only to-many relationships are counted, an owner
    /// without a row counting 0.
    @Test func ownersAreGroupedAndDestinationsWalked() throws {
        let store = try SQLStoreCoreTests.CountingStore()
        let notes = SQLObjectStorage(store: store, entity: "Note")
        let memos = SQLObjectStorage(store: store, entity: "Memo")
        let folders = SQLObjectStorage(store: store, entity: "Folder")
        let driver = FakeDriver(schema: store.schema)
        let folder = Self.object("Folder", 10, folders)
        driver.destinations["folder"] = [1: [folder], 3: [folder]]
        let owners = [SQLBatchPrefetch.Owner(storage: notes, key: 1), SQLBatchPrefetch.Owner(storage: notes, key: 2),
                      SQLBatchPrefetch.Owner(storage: memos, key: 3), SQLBatchPrefetch.Owner(storage: notes, key: 1)]
        SQLBatchPrefetch(keyPaths: ["folder.notes"]).load(owners, keeping: .merged, through: driver)
        let noteTable = try #require(store.schema.table(for: "Note")).table
        let folderTable = try #require(store.schema.table(for: "Folder")).table
        #expect(driver.asked == ["folder \(noteTable) [1, 2, 3]", "notes \(folderTable) [10]"])
        #expect(notes.prefetchedDestinations("folder", of: 1)?.map(\.objectID.rawValue) == ["Folder10"])
        #expect(notes.prefetchedDestinations("folder", of: 2)?.isEmpty == true)
        #expect(notes.prefetchedDestinations("folder", of: 3) == nil)
        #expect(memos.prefetchedDestinations("folder", of: 3)?.map(\.objectID.rawValue) == ["Folder10"])
        // ("notes" was skipped by the driver.)
        #expect(folders.prefetchedDestinations("notes", of: 10) == nil)

        driver.asked = []
        driver.counts["notes"] = [10: 2]
        let folderOwners = [SQLBatchPrefetch.Owner(storage: folders, key: 10), SQLBatchPrefetch.Owner(storage: folders, key: 11)]
        SQLBatchPrefetch(keyPaths: [], counts: ["notes", "missing"]).load(folderOwners, keeping: .merged, through: driver)
        SQLBatchPrefetch(keyPaths: [], counts: ["folder"]).load(owners, keeping: .merged, through: driver)
        #expect(driver.asked == ["count notes [10, 11]"])
        #expect(folders.prefetchedCount("notes", of: 10) == 2)
        #expect(folders.prefetchedCount("notes", of: 11) == 0)
    }

    /// Merged keeping adds a batch's owners to what the storage holds; replaced keeping forgets
    /// the earlier batch's owners of that relationship.
    @Test func keepingMergesOrReplaces() throws {
        let store = try SQLStoreCoreTests.CountingStore()
        let notes = SQLObjectStorage(store: store, entity: "Note")
        let folders = SQLObjectStorage(store: store, entity: "Folder")
        let driver = FakeDriver(schema: store.schema)
        driver.destinations["folder"] = [1: [Self.object("Folder", 10, folders)], 2: [Self.object("Folder", 20, folders)]]
        let prefetch = SQLBatchPrefetch(keyPaths: ["folder"])
        prefetch.load([SQLBatchPrefetch.Owner(storage: notes, key: 1)], keeping: .merged, through: driver)
        prefetch.load([SQLBatchPrefetch.Owner(storage: notes, key: 2)], keeping: .merged, through: driver)
        #expect(notes.prefetchedDestinations("folder", of: 1)?.count == 1)
        #expect(notes.prefetchedDestinations("folder", of: 2)?.count == 1)
        prefetch.load([SQLBatchPrefetch.Owner(storage: notes, key: 1)], keeping: .replaced, through: driver)
        #expect(notes.prefetchedDestinations("folder", of: 1)?.count == 1)
        #expect(notes.prefetchedDestinations("folder", of: 2) == nil)
    }
}
