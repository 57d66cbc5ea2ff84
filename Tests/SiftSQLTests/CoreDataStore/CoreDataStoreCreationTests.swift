import CoreDataFixtures
import Foundation
@testable import SiftSQL
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Stores created in Core Data's layout (issue 32, item 6): from each fixture's own model, the
/// tables, columns, declared types, indexes, join tables and `Z_PRIMARYKEY` rows Core Data made
/// for it, and the same entity version hashes in the metadata; reopened with the model written
/// into it.
@Suite struct CoreDataStoreCreationTests {
    /// Each fixture whose model Sift can read: its model cache, or (Recipes) its model file.
    static let fixtures = CoreDataFixtures.storesWithModelCache + ["Recipes.sqlite"]

    /// Persistent history's tables and entities, which Core Data adds beside the model's.
    static let historyTables: Set<String> = ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"]

    static func model(of fixture: String) throws -> CoreDataModel {
        if fixture == "Recipes.sqlite" { return try ModelFile.loadCoreData(CoreDataFixtures.url("Recipes.xcdatamodel")) }
        let database = try SQLiteDatabase(path: CoreDataFixtures.url(fixture).path, options: [.immutable])
        let cache = try #require(try CoreDataStoreFile.modelCache(of: database))
        return try CoreDataModel(modelCache: cache)
    }

    static func schema(_ url: URL) throws -> CoreDataStoreSchema {
        try CoreDataStoreFile.schema(of: SQLiteDatabase(path: url.path, options: [.immutable]))
    }

    static func temporaryURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sift-cdcreate-\(UUID().uuidString)-\(name)")
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    @Test(arguments: fixtures)
    func aCreatedStoreHasTheTablesCoreDataMadeForItsModel(_ fixture: String) throws {
        let url = Self.temporaryURL(fixture)
        defer { Self.remove(url) }
        _ = try SQLiteStore.createCoreData(at: url, model: Self.model(of: fixture))
        let made = try Self.schema(url), original = try Self.schema(CoreDataFixtures.url(fixture))

        func tables(_ schema: CoreDataStoreSchema) -> [String: [String]] {
            var tables: [String: [String]] = [:]
            for table in schema.tables where !Self.historyTables.contains(table.name) && table.name != "Z_MODELCACHE" {
                // The same columns and types; within one declared type Core Data's order follows
                // its model's (Recipes: by name's hash, not by name), which a model does not keep.
                tables[table.name] = table.columns.map { "\($0.name) \($0.declaredType)" }.sorted()
            }
            return tables
        }
        #expect(tables(made) == tables(original))

        // Indexes: Core Data's own names for key, entity and uniqueness indexes; a fetch
        // index's name is the model file's, which Sift does not keep: its columns only.
        func indexes(_ schema: CoreDataStoreSchema) -> Set<String> {
            Set(schema.indexes.filter { !Self.historyTables.contains($0.table) }.map { index in
                let named = index.name.hasPrefix(index.table + "_") || index.name.contains("_UNIQUE_")
                return "\(named ? index.name : "(fetch index)") \(index.table)(\(index.columns.joined(separator: ","))) \(index.isUnique)"
            })
        }
        #expect(indexes(made) == indexes(original))

        func primaryKeys(_ schema: CoreDataStoreSchema) -> [String] {
            schema.primaryKeys.filter { $0.number < 16000 }.map { "\($0.number) \($0.name) \($0.superNumber)" }
        }
        #expect(primaryKeys(made) == primaryKeys(original))
        #expect(made.primaryKeys.allSatisfy { $0.maximumKey == 0 })
        #expect(made.tables.contains { $0.name == "Z_MODELCACHE" })
        // The key, entity and version columns first, as Core Data puts them.
        for table in made.tables where table.name.hasPrefix("Z") && !table.name.hasPrefix("Z_") {
            #expect(table.columns.prefix(3).map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT"], "\(table.name)")
        }
    }

    @Test(arguments: fixtures)
    func theMetadataHoldsTheFixturesVersionHashes(_ fixture: String) throws {
        let url = Self.temporaryURL(fixture)
        defer { Self.remove(url) }
        _ = try SQLiteStore.createCoreData(at: url, model: Self.model(of: fixture))
        let made = try #require(try CoreDataStoreFile.metadata(of: SQLiteDatabase(path: url.path, options: [.readOnly])))
        let original = try #require(try CoreDataStoreFile.metadata(of: SQLiteDatabase(path: CoreDataFixtures.url(fixture).path, options: [.immutable])))
        let madeHashes = try #require(made["NSStoreModelVersionHashes"] as? [String: Data])
        let originalHashes = try #require(original["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(!madeHashes.isEmpty)
        for (entity, hash) in madeHashes { #expect(originalHashes[entity] == hash, "\(fixture): \(entity)") }
        #expect(Set(madeHashes.keys) == Set(originalHashes.keys).subtracting(["TRANSACTION", "CHANGE", "TRANSACTIONSTRING"]))
        #expect(made["NSStoreType"] as? String == "SQLite")
        #expect(made["NSStoreModelVersionHashesVersion"] as? Int == 3)
        // The digest of the hashes, as Core Data computes it: the fixture's own where the
        // entities are the same (NoteStore's hashes also cover persistent history's).
        #expect(made["NSStoreModelVersionHashesDigest"] as? String == CoreDataModel.versionHashesDigest(madeHashes))
        if let digest = original["NSStoreModelVersionHashesDigest"] as? String, Set(madeHashes.keys) == Set(originalHashes.keys) {
            #expect(made["NSStoreModelVersionHashesDigest"] as? String == digest, "\(fixture)")
        }
    }

    /// `Z_MODELCACHE` holds the model as Core Data caches it: Sift's decoder of real caches
    /// reads the model the store was made for (Recipes' from Xcode 3's `elements` included).
    @Test(arguments: fixtures)
    func theModelCacheHoldsTheModel(_ fixture: String) throws {
        let url = Self.temporaryURL(fixture)
        defer { Self.remove(url) }
        let model = try Self.model(of: fixture)
        _ = try SQLiteStore.createCoreData(at: url, model: model)
        let cache = try #require(try CoreDataStoreFile.modelCache(of: SQLiteDatabase(path: url.path, options: [.readOnly])))
        let read = try CoreDataModel(modelCache: cache, name: model.model.name)
        // Every part the model says, a to-one's counts aside (Core Data's archive says 1 at most
        // where a model file may say nothing).
        func parts(_ model: DataModel) -> [String] {
            model.entities.sorted { $0.name < $1.name }.flatMap { entity -> [String] in
                ["\(entity.name) : \(entity.parent ?? "") abstract \(entity.isAbstract) indexes \(entity.indexes) unique \(entity.uniquenessConstraints)"]
                    + entity.ownAttributes.sorted { $0.name < $1.name }.map { a in
                        "\(entity.name).\(a.name) \(a.type) optional \(a.isOptional) default \(a.defaultValue.map { "\($0)" } ?? "-")"
                    }
                    + entity.ownRelationships.sorted { $0.name < $1.name }.map { r in
                        "\(entity.name).\(r.name) → \(r.destination) inverse \(r.inverse ?? "-") toMany \(r.isToMany) ordered \(r.isOrdered) "
                            + "\(r.deleteRule) optional \(r.isOptional)" + (r.isToMany ? " counts \(r.minCount) \(r.maxCount)" : "")
                    }
            }
        }
        let (written, given) = (parts(read.model), parts(model.model))
        #expect(written == given, "\(fixture): \(zip(written, given).first { $0 != $1 }.map { "\($0.1) → \($0.0)" } ?? "")")
        #expect(CoreDataLayout(read).check(try Self.schema(url)).matches)
    }

    @Test func aCreatedStoreReopensWithTheModelItWasMadeFor() throws {
        let url = Self.temporaryURL("Recipes.sqlite")
        defer { Self.remove(url) }
        let model = try Self.model(of: "Recipes.sqlite")
        _ = try SQLiteStore.createCoreData(at: url, model: model)
        let store = try SQLiteStore.open(at: url)
        #expect(store.coreData?.modelSource == .metadata)
        #expect(store.openingWarnings.isEmpty, "\(store.openingWarnings)")
        #expect(store.model.entities.map(\.name).sorted() == model.model.entities.map(\.name).sorted())
        #expect(try store.count(FetchRequest(entityName: "Recipe")) == 0)
        let database = try SQLiteDatabase(path: url.path, options: [.readOnly])
        #expect(try database.scalar("PRAGMA integrity_check") == .text("ok"))
        guard case .text(let uuid) = try database.scalar("SELECT Z_UUID FROM Z_METADATA") else { Issue.record("no store UUID"); return }
        #expect(UUID(uuidString: uuid) != nil)
    }

    @Test func anExistingFileIsNotReplaced() throws {
        let url = Self.temporaryURL("exists.sqlite")
        defer { Self.remove(url) }
        try Data("not a store".utf8).write(to: url)
        #expect(throws: StoreError.self) { try SQLiteStore.createCoreData(at: url, model: Self.model(of: "Recipes.sqlite")) }
        #expect(try Data(contentsOf: url) == Data("not a store".utf8))
    }
}
