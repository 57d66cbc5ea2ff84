import CoreDataFixtures
import Foundation
import SeedAppSupport
import SiftEvaluation
import SiftLanguage
import SiftSQLiteStore
@testable import SiftStore
import Testing

/// ``StoreCopy``: a whole store moved into another of another kind (`sift import --from`),
/// checked through fetches of both: every entity's count, every object's attributes and every
/// relationship's destinations (in order where ordered) equal the source's.
@Suite struct StoreCopyTests {
    static let model = LibraryFixture.model
    static let modelJSON = LibraryFixture.modelJSON
    static func read(_ json: String) -> DataModel { LibraryFixture.read(json) }
    static func fill(_ store: any PersistentStore) throws { try LibraryFixture.fill(store) }

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Copies `source` into a new store made with its model by `make`, reopened by `reopen`,
    /// and checks both hold the same.
    static func copyAndCompare(_ source: any PersistentStore, batchSize: Int = 7, make: (DataModel) throws -> any PersistentStore,
                               reopen: (any PersistentStore) throws -> any PersistentStore) throws -> StoreCopy.Summary {
        let model = StoreCopy.model(of: source)
        let target = try make(model)
        var copy = StoreCopy(from: source, into: target)
        copy.batchSize = batchSize
        var steps: [StoreCopy.Progress] = []
        let summary = try copy.run { steps.append($0) }
        #expect(!target.hasChanges)
        #expect(summary.keptObjectIDs)
        let expected = try StoreContents.lines(of: source, model: model)
        let copied = try StoreContents.lines(of: try reopen(target), model: model)
        #expect(StoreContents.firstDifference(copied, expected) == nil)
        // Progress: every object inserted, then linked, and the last step says so.
        let total = summary.total
        #expect(steps.last == StoreCopy.Progress(inserted: total, linked: total, total: total))
        #expect(steps.first == StoreCopy.Progress(inserted: 0, linked: 0, total: total))
        return summary
    }

    @Test func sqliteToJSON() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try SQLiteStore.create(at: directory.appendingPathComponent("source.sqlite"), model: Self.model)
        try Self.fill(source)
        let reopened = try SQLiteStore.open(at: directory.appendingPathComponent("source.sqlite"), readOnly: true)
        let summary = try Self.copyAndCompare(reopened, make: { model in
            try AtomicStore.create(at: directory.appendingPathComponent("target.json"), model: model)
        }, reopen: { _ in try AtomicStore.open(at: directory.appendingPathComponent("target.json")) })
        #expect(summary.counts.map(\.entity) == ["Folder", "Note", "Memo", "Tag"])
        #expect(summary.counts.map(\.count) == [3, 30, 10, 5])
        #expect(try StoreContents.destinationCount(of: reopened) > 100)
    }

    @Test func jsonToSQLite() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("source.json")
        try Self.fill(try AtomicStore.create(at: url, model: Self.model))
        let source = try AtomicStore.open(at: url)
        let target = directory.appendingPathComponent("target.sqlite")
        let summary = try Self.copyAndCompare(source, make: { model in try SQLiteStore.create(at: target, model: model) },
                                              reopen: { _ in try SQLiteStore.open(at: target) })
        #expect(summary.total == 48)
    }

    /// Every seed app's data, JSON to SQLite and back.
    @Test(arguments: ["Notes", "NestedItems", "TaterRater", "MustC", "Movies", "VideoItems", "ToDoItem", "PointsOfInterest", "HouseholdTasks", "Albums"])
    func seedAppJSONToSQLiteAndBack(_ app: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try StoreKind.json.seeded(app, in: directory)
        let sqlite = directory.appendingPathComponent("copy.sqlite")
        _ = try Self.copyAndCompare(source, make: { model in try SQLiteStore.create(at: sqlite, model: model) },
                                    reopen: { _ in try SQLiteStore.open(at: sqlite) })
        let back = directory.appendingPathComponent("back.plist")
        _ = try Self.copyAndCompare(try SQLiteStore.open(at: sqlite), make: { model in try AtomicStore.create(at: back, model: model) },
                                    reopen: { _ in try AtomicStore.open(at: back) })
    }

    static let coreDataStores = CoreDataFixtures.storesWithModelCache + CoreDataFixtures.storesWithoutModelCache

    /// The Core Data fixture `name` (Recipes with its model file).
    static func coreDataStore(_ name: String) throws -> SQLiteStore {
        let model = name == "Recipes.sqlite" ? try ModelFile.load(CoreDataFixtures.url("Recipes.xcdatamodel")) : nil
        return try SQLiteStore.open(at: CoreDataFixtures.url(name), coreDataModel: model)
    }

    /// Every Core Data fixture into Sift's SQLite layout: the same objects under their
    /// `x-coredata://` IDs, sub-entities and join tables included, and the fixture unchanged.
    @Test(arguments: coreDataStores)
    func coreDataStoreToSQLite(_ name: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try CoreDataFixtures.checksum(CoreDataFixtures.url(name))
        let target = directory.appendingPathComponent("copy.sqlite")
        // (NoteStore's sibling sub-entities each have a to-one `account`, which Sift's own
        // layout keeps in one column: each to-many through it reads its own entity's rows.)
        let summary = try Self.copyAndCompare(try Self.coreDataStore(name), batchSize: 50,
                                              make: { model in try SQLiteStore.create(at: target, model: model) },
                                              reopen: { _ in try SQLiteStore.open(at: target) })
        #expect(summary.total > 0)
        #expect(try CoreDataFixtures.checksum(CoreDataFixtures.url(name)) == before)
    }

    /// Every Core Data fixture into a JSON store.
    @Test(arguments: coreDataStores)
    func coreDataStoreToJSON(_ name: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("copy.json")
        let summary = try Self.copyAndCompare(try Self.coreDataStore(name), batchSize: 50,
                                              make: { model in try AtomicStore.create(at: target, model: model) },
                                              reopen: { _ in try AtomicStore.open(at: target) })
        #expect(summary.total > 0)
    }

    /// Accounts3's many-to-many join tables and Recipes' to-manys arrive whole.
    @Test func coreDataRelationshipsArrive() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["Accounts3.sqlite", "Recipes.sqlite"] {
            let model = name == "Recipes.sqlite" ? try ModelFile.load(CoreDataFixtures.url("Recipes.xcdatamodel")) : nil
            let source = try SQLiteStore.open(at: CoreDataFixtures.url(name), coreDataModel: model)
            let url = directory.appendingPathComponent("\(name).json")
            let target = try AtomicStore.create(at: url, model: StoreCopy.model(of: source))
            try StoreCopy(from: source, into: target).run()
            let destinations = try StoreContents.destinationCount(of: source)
            #expect(destinations > 0, "\(name)")
            #expect(try StoreContents.destinationCount(of: try AtomicStore.open(at: url)) == destinations, "\(name)")
        }
    }

    @Test func aTargetWithoutTheSourcesModelIsRefusedNamingTheDifference() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = AtomicStore.inMemory(model: Self.model)
        try Self.fill(source)
        let notes = try ModelFile.load(ExampleModelsTests.folder("Notes").appendingPathComponent("model.json"))
        let target = AtomicStore.inMemory(model: notes)
        #expect(StoreCopy.modelDifference(source: Self.model, target: notes) == "the target's model has no entity Folder")
        let error = #expect(throws: StoreError.self) { try StoreCopy(from: source, into: target).run() }
        #expect(error?.code == .unsupportedModel)
        #expect(error?.message.contains("has no entity Folder") == true)
        #expect(!target.hasChanges)
        // A type that differs, a relationship's cardinality.
        var changed = Self.read(Self.modelJSON.replacingOccurrences(of: #"{"name": "rank", "type": "integer64"}"#, with: #"{"name": "rank", "type": "string"}"#))
        #expect(StoreCopy.modelDifference(source: Self.model, target: changed) == "Note.rank is Integer 64 in the source and String in the target")
        changed = Self.read(Self.modelJSON.replacingOccurrences(of: #""ordered": true"#, with: #""ordered": false"#))
        #expect(StoreCopy.modelDifference(source: Self.model, target: changed) == "Folder.notes is ordered to-many in the source and to-many in the target")
        #expect(StoreCopy.modelDifference(source: Self.model, target: Self.model) == nil)
    }

    /// A failure midway (a duplicate ID in a target that holds objects) leaves the target as it was.
    @Test(arguments: [StoreKind.json, .sqlite])
    func aFailedCopyLeavesTheTargetAsItWas(_ kind: StoreKind) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = AtomicStore.inMemory(model: Self.model)
        try Self.fill(source)
        let target = try kind.make(Self.model, name: "target", in: directory)
        try target.insert("Tag", id: ObjectID("T3"), ["label": .string("mine")])
        try target.save()
        #expect(throws: StoreError.self) { try StoreCopy(from: source, into: target).run() }
        #expect(!target.hasChanges)
        let reopened = try kind.reopen(target) ?? target
        #expect(try StoreContents.lines(of: reopened) == ["Folder: 0 objects", "Note: 0 objects", "Memo: 0 objects", "Tag: 1 objects", "Tag T3 label=\(String(describing: Value.string("mine"))) notes->[]"])
    }

    /// A target that refuses changes (a Core Data store whose model was guessed: Recipes.sqlite
    /// has no model cache) is refused before anything is read, with the store's own reason.
    @Test func aReadOnlyTargetIsRefusedWithItsReason() throws {
        let source = AtomicStore.inMemory(model: Self.model)
        try Self.fill(source)
        let target = try SQLiteStore.open(at: CoreDataFixtures.url("Recipes.sqlite"))
        let error = #expect(throws: StoreError.self) { try StoreCopy(from: source, into: target).run() }
        #expect(error?.code == .readOnly)
        #expect(error?.message.hasPrefix("Recipes.sqlite is a Core Data store without a model") == true, "\(String(describing: error))")
        #expect(!target.hasChanges)
    }

    /// Set from one side each: the ordered side, else the to-one, else the first name; a
    /// relationship without an inverse, or its own inverse, from its side.
    @Test func eachRelationshipIsSetFromOneSide() {
        let owned = StoreCopy.relationshipsToSet(Self.model)
        #expect(owned["Folder"] == ["notes"])
        #expect(owned["Note"] == ["related", "pinnedTag"])
        #expect(owned["Memo"] == ["related", "pinnedTag"])
        #expect(owned["Tag"] == ["notes"])
        // Roots whose objects others' to-ones lead to come first.
        #expect(StoreCopy.rootsInOrder(Self.model).map(\.name) == ["Folder", "Tag", "Note"])
    }
}
