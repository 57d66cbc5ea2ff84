import CoreDataFixtures
import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Changes to stores Core Data wrote (issue 32 item 5), on copies of the fixtures: new rows take
/// `Z_PK` after `Z_PRIMARYKEY.Z_MAX` (and after any key in the table), their entity's `Z_ENT`
/// and `Z_OPT` 1; changed rows `Z_OPT + 1`; join tables, foreign keys, entity and order columns
/// kept consistent; delete rules applied; `Z_METADATA` and `Z_MODELCACHE` untouched; every check
/// by hand-written SQL, with `PRAGMA integrity_check`, and read back through the store.
@Suite struct CoreDataWritingTests {
    /// A copy of the fixture `name` (with its `-wal` and `-shm`, if any) in a directory of its own.
    static func copy(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-write-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            let source = CoreDataFixtures.directory.appendingPathComponent(name + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent(name + suffix))
        }
        return directory.appendingPathComponent(name)
    }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

    /// Hand-written SQL on the file, through a connection of its own.
    static func rows(_ url: URL, _ sql: String) throws -> [[SQLiteValue]] {
        let database = try SQLiteDatabase(path: url.path, options: [])
        return try database.rows(sql)
    }

    static func integer(_ url: URL, _ sql: String) throws -> Int64? {
        guard case .integer(let n)? = try rows(url, sql).first?.first else { return nil }
        return n
    }

    /// Z_METADATA and Z_MODELCACHE as they are, to show a write left them alone.
    static func bookkeeping(_ url: URL) throws -> [[SQLiteValue]] {
        var found = try rows(url, #"SELECT "Z_VERSION", "Z_UUID", "Z_PLIST" FROM "Z_METADATA""#)
        if try integer(url, "SELECT count(*) FROM sqlite_schema WHERE name = 'Z_MODELCACHE'") == 1 {
            found += try rows(url, #"SELECT "Z_CONTENT" FROM "Z_MODELCACHE""#)
        }
        return found
    }

    static func integrity(_ url: URL) throws -> String {
        guard case .text(let text)? = try rows(url, "PRAGMA integrity_check").first?.first else { return "" }
        return text
    }

    static func storeUUID(_ url: URL) throws -> String {
        guard case .text(let uuid)? = try rows(url, #"SELECT "Z_UUID" FROM "Z_METADATA""#).first?.first else { return "" }
        return uuid
    }

    // MARK: Inserts

    /// A new Account takes the key after Z_MAX, Account's Z_ENT and Z_OPT 1; Z_MAX follows it;
    /// its to-one is its column and its many-to-many a join-table row; the other side's
    /// changed rows have their Z_OPT raised once; and it reads back as written.
    @Test func anInsertTakesCoreDatasKeysAndBookkeeping() throws {
        let url = try Self.copy("Accounts3.sqlite")
        defer { Self.remove(url) }
        let metadata = try Self.bookkeeping(url)
        let zMax = try #require(try Self.integer(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Account'"))
        let largest = try #require(try Self.integer(url, "SELECT max(Z_PK) FROM ZACCOUNT"))
        let typeVersion = try #require(try Self.integer(url, "SELECT Z_OPT FROM ZACCOUNTTYPE WHERE Z_PK = 1"))
        let uuid = try Self.storeUUID(url)
        let prefix = "x-coredata://\(uuid)/"
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        let id: ObjectID
        do {
            let store = try SQLiteStore.open(at: url)
            #expect(!store.isReadOnly)
            id = try store.insert(entity: "Account", id: nil,
                                  attributes: ["username": .string("sift@example.com"), "date": .date(date), "active": .bool(false)],
                                  relationships: ["accountType": [ObjectID(prefix + "AccountType/p1")],
                                                  "enabledDataclasses": [ObjectID(prefix + "Dataclass/p1"), ObjectID(prefix + "Dataclass/p2")]])
            try store.save()
            // Read back through the store: the fetch sees what was written.
            let fetched = try store.fetch(FetchRequest(statement: "Account WHERE username == 'sift@example.com' AND accountType.identifier != nil AND enabledDataclasses.@count == 2"))
            #expect(fetched.objectIDs == [id])
            let object = fetched[0]
            guard case .date(let readDate)? = object[attribute: "date"], case .bool(let active)? = object[attribute: "active"],
                  case .bool(let visible)? = object[attribute: "visible"] else {
                Issue.record("\(String(describing: object[attribute: "date"])), \(String(describing: object[attribute: "active"]))")
                return
            }
            #expect(readDate == date)
            #expect(!active)
            #expect(visible)  // the model's default
        }
        let key = max(zMax, largest) + 1
        #expect(id == ObjectID(prefix + "Account/p\(key)"))
        let row = try Self.rows(url, "SELECT Z_ENT, Z_OPT, ZUSERNAME, ZDATE, ZACTIVE, ZVISIBLE, ZACCOUNTTYPE FROM ZACCOUNT WHERE Z_PK = \(key)")
        #expect(row == [[.integer(2), .integer(1), .text("sift@example.com"), .real(700_000_000.5), .integer(0), .integer(1), .integer(1)]])
        #expect(try Self.integer(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Account'") == key)
        #expect(try Self.rows(url, "SELECT Z_7ENABLEDDATACLASSES FROM Z_2ENABLEDDATACLASSES WHERE Z_2ENABLEDACCOUNTS = \(key) ORDER BY 1")
                == [[.integer(1)], [.integer(2)]])
        // The account type's to-many changed: its version goes up once.
        #expect(try Self.integer(url, "SELECT Z_OPT FROM ZACCOUNTTYPE WHERE Z_PK = 1") == typeVersion + 1)
        #expect(try Self.bookkeeping(url) == metadata)
        #expect(try Self.integrity(url) == "ok")
    }

    /// Rows added without Core Data leave Z_MAX behind: the next key is after the largest in the
    /// table, never one already used.
    @Test func aLaggingZMaxIsNeverReused() throws {
        let url = try Self.copy("Recipes.sqlite")
        defer { Self.remove(url) }
        let zMax = try #require(try Self.integer(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'RecipeType'"))
        _ = try Self.rows(url, "INSERT INTO ZRECIPETYPE (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (\(zMax + 3), 4, 1, 'by hand')")
        let model = try ModelFile.load(CoreDataFixtures.url("Recipes.xcdatamodel"))
        do {
            let store = try SQLiteStore.open(at: url, coreDataModel: model)
            for name in ["Stew", "Salad"] { try store.insert(entity: "RecipeType", id: nil, attributes: ["name": .string(name)], relationships: [:]) }
            try store.save()
        }
        #expect(try Self.rows(url, "SELECT Z_PK, Z_ENT, Z_OPT FROM ZRECIPETYPE WHERE ZNAME IN ('Stew', 'Salad') ORDER BY Z_PK")
                == [[.integer(zMax + 4), .integer(4), .integer(1)], [.integer(zMax + 5), .integer(4), .integer(1)]])
        #expect(try Self.integer(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'RecipeType'") == zMax + 5)
        #expect(try Self.integrity(url) == "ok")
    }

    /// A sub-entity's row goes in its root's table, with its own Z_ENT and the root's key
    /// sequence; a to-one to an entity with sub-entities fills its `Z<n>_` column; an ordered
    /// to-many numbers its `Z_FOK_` column and keeps the order asked for.
    @Test func subEntitiesEntityColumnsAndOrder() throws {
        let url = try Self.copy("netusage.sqlite")
        defer { Self.remove(url) }
        let zMax = try #require(try Self.integer(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Process'"))
        let largest = try #require(try Self.integer(url, "SELECT max(Z_PK) FROM ZPROCESS"))
        let app: ObjectID, usages: [ObjectID]
        do {
            let store = try SQLiteStore.open(at: url)
            app = try store.insert(entity: "App", id: nil, attributes: ["procName": .string("sift"), "bundleName": .string("org.sift")], relationships: [:])
            usages = try (0..<3).map { n in
                try store.insert(entity: "AppTypicalUsage", id: nil, attributes: ["intervalType": .int(Int64(n))], relationships: [:])
            }
            try store.update(app, attributes: [:], relationships: ["hasTypicalUsage": usages])
            _ = try store.insert(entity: "LiveUsage", id: nil, attributes: ["kind": .int(7)], relationships: ["hasProcess": [app]])
            try store.save()
            let ordered = try store.fetch(FetchRequest(statement: "AppTypicalUsage WHERE hasApp.procName == 'sift' SORT BY intervalType"))
            #expect(ordered.objectIDs == usages)
            // Reordered: the Z_FOK_ column follows.
            try store.update(app, attributes: [:], relationships: ["hasTypicalUsage": [usages[2], usages[0], usages[1]]])
            try store.save()
        }
        let key = max(zMax, largest) + 1
        #expect(app.rawValue.hasSuffix("/App/p\(key)"))
        #expect(try Self.rows(url, "SELECT Z_ENT, Z_OPT FROM ZPROCESS WHERE Z_PK = \(key)") == [[.integer(16), .integer(2)]])
        #expect(try Self.integer(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Process'") == key)
        #expect(try Self.integer(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'App'") == 0)
        #expect(try Self.rows(url, "SELECT ZHASPROCESS, Z15_HASPROCESS FROM ZLIVEUSAGE WHERE ZKIND = 7") == [[.integer(key), .integer(16)]])
        #expect(try Self.rows(url, "SELECT ZINTERVALTYPE FROM ZAPPTYPICALUSAGE WHERE ZHASAPP = \(key) ORDER BY Z_FOK_HASAPP")
                == [[.integer(2)], [.integer(0)], [.integer(1)]])
        #expect(try Self.integrity(url) == "ok")
    }

    // MARK: Updates

    /// A changed row's Z_OPT goes up by one a save, however many changes it had; rows not
    /// changed keep theirs; moving a to-one changes both the old and the new destination.
    @Test func anUpdateRaisesZOptOnceASave() throws {
        let url = try Self.copy("Accounts3.sqlite")
        defer { Self.remove(url) }
        let prefix = "x-coredata://\(try Self.storeUUID(url))/"
        let before = try Self.rows(url, "SELECT Z_PK, Z_OPT, ZACCOUNTTYPE FROM ZACCOUNT ORDER BY Z_PK")
        let account = try #require(before.first { $0[2] != .null })
        guard case .integer(let key) = account[0], case .integer(let version) = account[1], case .integer(let oldType) = account[2] else { return }
        let newType: Int64 = oldType == 1 ? 2 : 1
        let types = try Self.rows(url, "SELECT Z_PK, Z_OPT FROM ZACCOUNTTYPE WHERE Z_PK IN (\(oldType), \(newType)) ORDER BY Z_PK")
        let metadata = try Self.bookkeeping(url)
        do {
            let store = try SQLiteStore.open(at: url)
            let id = ObjectID(prefix + "Account/p\(key)")
            try store.update(id, attributes: ["username": .string("one")], relationships: [:])
            try store.update(id, attributes: ["username": .string("two")], relationships: ["accountType": [ObjectID(prefix + "AccountType/p\(newType)")]])
            try store.save()
            #expect(try store.count(FetchRequest(statement: "Account WHERE username == 'two'")) == 1)
        }
        #expect(try Self.rows(url, "SELECT Z_OPT, ZUSERNAME, ZACCOUNTTYPE FROM ZACCOUNT WHERE Z_PK = \(key)")
                == [[.integer(version + 1), .text("two"), .integer(newType)]])
        let after = try Self.rows(url, "SELECT Z_PK, Z_OPT, ZACCOUNTTYPE FROM ZACCOUNT ORDER BY Z_PK")
        #expect(after.filter { $0[0] != .integer(key) } == before.filter { $0[0] != .integer(key) })
        let typesAfter = try Self.rows(url, "SELECT Z_PK, Z_OPT FROM ZACCOUNTTYPE WHERE Z_PK IN (\(oldType), \(newType)) ORDER BY Z_PK")
        for (old, new) in zip(types, typesAfter) {
            guard case .integer(let v0) = old[1], case .integer(let v1) = new[1] else { continue }
            #expect(v1 == v0 + 1, "AccountType \(old[0])")
        }
        #expect(try Self.bookkeeping(url) == metadata)
        #expect(try Self.integrity(url) == "ok")
    }

    /// A one-to-one Core Data kept on one side only (NoteStore's `ZICCLOUDSYNCINGOBJECT.ZCLOUDSTATE`,
    /// with `ZICCLOUDSTATE.ZCLOUDSYNCINGOBJECT` NULL) changed from the side whose column is NULL:
    /// the old link is read from the other side and cleared there, and the new one is written in
    /// both columns (as Core Data wrote `ICNote.noteData`), with the entity column.
    @Test func aOneToOneKeptOnOneSideChangesFromTheOther() throws {
        let url = try Self.copy("NoteStore.sqlite")
        defer { Self.remove(url) }
        let prefix = "x-coredata://\(try Self.storeUUID(url))/"
        let unlinked = try #require(try Self.integer(url, "SELECT min(c.Z_PK) FROM ZICCLOUDSTATE c WHERE NOT EXISTS (SELECT 1 FROM ZICCLOUDSYNCINGOBJECT o WHERE o.ZCLOUDSTATE = c.Z_PK)"))
        #expect(try Self.integer(url, "SELECT count(*) FROM ZICCLOUDSTATE WHERE ZCLOUDSYNCINGOBJECT IS NOT NULL") == 0)
        // The folder p1 names the cloud state p1; the account p2 the cloud state p2.
        #expect(try Self.rows(url, "SELECT Z_ENT, ZCLOUDSTATE FROM ZICCLOUDSYNCINGOBJECT WHERE Z_PK IN (1, 2) ORDER BY Z_PK")
                == [[.integer(14), .integer(1)], [.integer(13), .integer(2)]])
        do {
            let store = try SQLiteStore.open(at: url)
            let linked = "ICCloudState WHERE cloudSyncingObject != nil"
            #expect(try store.count(FetchRequest(statement: linked)) == 28)
            try store.update(ObjectID(prefix + "ICCloudState/p\(unlinked)"), attributes: [:], relationships: ["cloudSyncingObject": [ObjectID(prefix + "ICFolder/p1")]])
            try store.update(ObjectID(prefix + "ICCloudState/p2"), attributes: [:], relationships: ["cloudSyncingObject": []])
            try store.save()
            #expect(try store.count(FetchRequest(statement: linked)) == 27)
            for key in [1, 2] {
                let state = try #require(store.object(with: ObjectID(prefix + "ICCloudState/p\(key)")))
                guard case .null = try state.value(forKey: "cloudSyncingObject") else { Issue.record("ICCloudState p\(key) is still linked"); continue }
            }
            let moved = try #require(store.object(with: ObjectID(prefix + "ICCloudState/p\(unlinked)")))
            guard case .object(let folder) = try moved.value(forKey: "cloudSyncingObject") else { Issue.record("not linked"); return }
            #expect((folder as? ManagedObject)?.objectID == ObjectID(prefix + "ICFolder/p1"))
        }
        #expect(try Self.rows(url, "SELECT Z_PK, ZCLOUDSTATE FROM ZICCLOUDSYNCINGOBJECT WHERE Z_PK IN (1, 2) ORDER BY Z_PK")
                == [[.integer(1), .integer(unlinked)], [.integer(2), .null]])
        #expect(try Self.rows(url, "SELECT ZCLOUDSYNCINGOBJECT, Z2_CLOUDSYNCINGOBJECT FROM ZICCLOUDSTATE WHERE Z_PK = \(unlinked)") == [[.integer(1), .integer(14)]])
        #expect(try Self.rows(url, "SELECT ZCLOUDSYNCINGOBJECT FROM ZICCLOUDSTATE WHERE Z_PK IN (1, 2)") == [[.null], [.null]])
        #expect(try Self.integer(url, "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT WHERE ZCLOUDSTATE IN (1, 2)") == 0)
        #expect(try Self.integrity(url) == "ok")
    }

    /// Many-to-many changes on either side are one join table's rows.
    @Test func manyToManyChangesKeepOneJoinTable() throws {
        let url = try Self.copy("Accounts3.sqlite")
        defer { Self.remove(url) }
        let prefix = "x-coredata://\(try Self.storeUUID(url))/"
        let key = try #require(try Self.integer(url, "SELECT Z_1ACCESSKEYS FROM Z_1OWNINGACCOUNTTYPES LIMIT 1"))
        let owning = try Self.rows(url, "SELECT Z_4OWNINGACCOUNTTYPES FROM Z_1OWNINGACCOUNTTYPES WHERE Z_1ACCESSKEYS = \(key) ORDER BY 1")
        let kept = try #require(owning.first?.first)
        guard case .integer(let keptType) = kept else { return }
        let name = try #require(try Self.rows(url, "SELECT ZNAME FROM ZACCESSOPTIONSKEY WHERE Z_PK = \(key)").first?.first)
        guard case .text(let keyName) = name else { return }
        let added: Int64 = try #require(try Self.integer(url, "SELECT min(Z_PK) FROM ZACCOUNTTYPE WHERE Z_PK NOT IN (SELECT Z_4OWNINGACCOUNTTYPES FROM Z_1OWNINGACCOUNTTYPES WHERE Z_1ACCESSKEYS = \(key))"))
        do {
            let store = try SQLiteStore.open(at: url)
            try store.update(ObjectID(prefix + "AccessOptionsKey/p\(key)"), attributes: [:],
                             relationships: ["owningAccountTypes": [ObjectID(prefix + "AccountType/p\(keptType)"), ObjectID(prefix + "AccountType/p\(added)")]])
            try store.save()
            #expect(try store.count(FetchRequest(statement: "AccountType WHERE ANY accessKeys.name == %@", arguments: [keyName])) == 2)
        }
        #expect(try Self.rows(url, "SELECT Z_4OWNINGACCOUNTTYPES FROM Z_1OWNINGACCOUNTTYPES WHERE Z_1ACCESSKEYS = \(key) ORDER BY 1")
                == [[.integer(min(keptType, added))], [.integer(max(keptType, added))]])
        #expect(try Self.integrity(url) == "ok")
    }

    // MARK: Deletes

    /// A delete applies the delete rules — Cascade deletes an account's properties, Nullify
    /// clears its children's and type's sides — and removes its join-table rows.
    @Test func aDeleteAppliesTheRulesAndClearsJoinTables() throws {
        let url = try Self.copy("Accounts3.sqlite")
        defer { Self.remove(url) }
        let prefix = "x-coredata://\(try Self.storeUUID(url))/"
        let key = try #require(try Self.integer(url, """
            SELECT Z_PK FROM ZACCOUNT WHERE Z_PK IN (SELECT ZOWNER FROM ZACCOUNTPROPERTY) AND Z_PK IN (SELECT Z_2ENABLEDACCOUNTS FROM Z_2ENABLEDDATACLASSES)
            AND Z_PK NOT IN (SELECT ZPARENTACCOUNT FROM ZACCOUNT WHERE ZPARENTACCOUNT IS NOT NULL) ORDER BY Z_PK LIMIT 1
            """))
        let properties = try #require(try Self.integer(url, "SELECT count(*) FROM ZACCOUNTPROPERTY"))
        let owned = try #require(try Self.integer(url, "SELECT count(*) FROM ZACCOUNTPROPERTY WHERE ZOWNER = \(key)"))
        let type = try Self.integer(url, "SELECT ZACCOUNTTYPE FROM ZACCOUNT WHERE Z_PK = \(key)")
        let typeVersion = try type.map { try Self.integer(url, "SELECT Z_OPT FROM ZACCOUNTTYPE WHERE Z_PK = \($0)") }
        let metadata = try Self.bookkeeping(url)
        do {
            let store = try SQLiteStore.open(at: url)
            try store.delete(ObjectID(prefix + "Account/p\(key)"))
            try store.save()
            #expect(try store.count(FetchRequest(statement: "AccountProperty WHERE owner == nil")) == 0)
        }
        #expect(try Self.integer(url, "SELECT count(*) FROM ZACCOUNT WHERE Z_PK = \(key)") == 0)
        #expect(try Self.integer(url, "SELECT count(*) FROM ZACCOUNTPROPERTY") == properties - owned)
        #expect(try Self.integer(url, "SELECT count(*) FROM Z_2ENABLEDDATACLASSES WHERE Z_2ENABLEDACCOUNTS = \(key)") == 0)
        #expect(try Self.integer(url, "SELECT count(*) FROM Z_2PROVISIONEDDATACLASSES WHERE Z_2PROVISIONEDACCOUNTS = \(key)") == 0)
        if let type, let typeVersion {
            #expect(try Self.integer(url, "SELECT Z_OPT FROM ZACCOUNTTYPE WHERE Z_PK = \(type)") == typeVersion.map { $0 + 1 })
        }
        #expect(try Self.bookkeeping(url) == metadata)
        #expect(try Self.integrity(url) == "ok")
    }

    /// Deleting a destination of to-ones (Nullify) clears their key columns, with the entity
    /// column of a destination that has sub-entities.
    @Test func aDeleteNullsTheInverseKeys() throws {
        let url = try Self.copy("netusage.sqlite")
        defer { Self.remove(url) }
        let prefix = "x-coredata://\(try Self.storeUUID(url))/"
        let process = try #require(try Self.integer(url, "SELECT ZHASPROCESS FROM ZLIVEUSAGE WHERE ZHASPROCESS IS NOT NULL GROUP BY ZHASPROCESS ORDER BY count(*) DESC LIMIT 1"))
        let entity = try #require(try Self.integer(url, "SELECT Z_ENT FROM ZPROCESS WHERE Z_PK = \(process)"))
        let name = entity == 16 ? "App" : "Process"
        do {
            let store = try SQLiteStore.open(at: url)
            // hasLiveUsage cascades: the live usages go with it.
            try store.delete(ObjectID(prefix + "\(name)/p\(process)"))
            try store.save()
        }
        #expect(try Self.integer(url, "SELECT count(*) FROM ZPROCESS WHERE Z_PK = \(process)") == 0)
        #expect(try Self.integer(url, "SELECT count(*) FROM ZLIVEUSAGE WHERE ZHASPROCESS = \(process)") == 0)
        #expect(try Self.integrity(url) == "ok")
    }

    // MARK: Refusals

    /// A change that fails validation is not saved, and the file keeps every byte; so does a
    /// store whose model was guessed, which refuses changes and says to give the model.
    @Test func rejectedChangesLeaveTheFileAsItWas() throws {
        let url = try Self.copy("Accounts3.sqlite")
        defer { Self.remove(url) }
        let before = try CoreDataFixtures.checksum(url)
        do {
            let store = try SQLiteStore.open(at: url)
            // CredentialItem.accountIdentifier is required.
            try store.insert(entity: "CredentialItem", id: nil, attributes: ["serviceName": .string("x")], relationships: [:])
            #expect(throws: StoreError.self) { try store.save() }
            store.rollback()
            // IDs that are not this store's, or not the entity's, or not spelled as Core Data does.
            let uuid = try Self.storeUUID(url)
            for id in ["D1", "x-coredata://\(UUID().uuidString)/Dataclass/p900", "x-coredata://\(uuid)/Account/p900",
                       "x-coredata://\(uuid)/Dataclass/p0900", "x-coredata://\(uuid)/Dataclass/p+900", "x-coredata://\(uuid)/Dataclass/900"] {
                let error = #expect(throws: StoreError.self) { try store.insert(entity: "Dataclass", id: ObjectID(id), attributes: [:], relationships: [:]) }
                #expect(error?.code == .invalidValue, "\(id)")
            }
            // A key already used.
            #expect(throws: StoreError.self) {
                try store.insert(entity: "Dataclass", id: ObjectID("x-coredata://\(uuid)/Dataclass/p1"), attributes: ["name": .data(Data([1]))], relationships: [:])
            }
            store.rollback()
        }
        #expect(try CoreDataFixtures.checksum(url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))

        let guessed = try Self.copy("Recipes.sqlite")
        defer { Self.remove(guessed) }
        let guessedBefore = try CoreDataFixtures.checksum(guessed)
        do {
            let store = try SQLiteStore.open(at: guessed)
            #expect(store.isReadOnly)
            let error = #expect(throws: StoreError.self) { try store.insert(entity: "RecipeType", id: nil, attributes: [:], relationships: [:]) }
            #expect(error?.code == .readOnly)
            #expect(error?.message.contains("--model") == true, "\(error?.message ?? "")")
        }
        #expect(try CoreDataFixtures.checksum(guessed) == guessedBefore)
        #expect(FileManager.default.fileExists(atPath: guessed.path + "-wal") == false)
    }

    /// A uniqueness constraint's unique index refuses a twin, naming the object; nothing is kept.
    @Test func aUniqueIndexRefusesATwin() throws {
        let url = try Self.copy("knowledgec-10.14.db")
        defer { Self.remove(url) }
        let before = try CoreDataFixtures.checksum(url)
        do {
            let store = try SQLiteStore.open(at: url)
            try store.insert(entity: "StructuredMetadata", id: nil, attributes: ["metadataHash": .string("sift-twin")], relationships: [:])
            let error = #expect(throws: StoreError.self) {
                try store.insert(entity: "StructuredMetadata", id: nil, attributes: ["metadataHash": .string("sift-twin")], relationships: [:])
            }
            #expect(error?.code == .constraintViolation)
            #expect(error?.message.contains("StructuredMetadata 'x-coredata://") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("UNIQUE constraint failed: ZSTRUCTUREDMETADATA.ZMETADATAHASH") == true, "\(error?.message ?? "")")
            store.rollback()
        }
        #expect(try CoreDataFixtures.checksum(url) == before)
    }

    /// A store opened read-only refuses changes as any SQLite store does.
    @Test func aReadOnlyOpenRefusesChanges() throws {
        let url = try Self.copy("Accounts3.sqlite")
        defer { Self.remove(url) }
        let before = try CoreDataFixtures.checksum(url)
        do {
            let store = try SQLiteStore.open(at: url, readOnly: true)
            #expect(store.isReadOnly)
            #expect(throws: StoreError.self) { try store.insert(entity: "Dataclass", id: nil, attributes: [:], relationships: [:]) }
        }
        #expect(try CoreDataFixtures.checksum(url) == before)
    }
}
