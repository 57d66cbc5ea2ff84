import CoreDataFixtures
import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Stores Core Data wrote, opened as Core Data's layout (issue 32): recognised by their content,
/// with the model of their cache (or one guessed from their tables, with warnings), every entity
/// counted as hand-written SQL on the `Z` tables counts it, predicates over to-one, to-many and
/// many-to-many relationships equal to hand-written SQL and to the evaluator, and not a byte of
/// any file changed.
@Suite struct CoreDataStoreReadingTests {
    static let allStores = CoreDataFixtures.storesWithModelCache + CoreDataFixtures.storesWithoutModelCache

    /// The fixture `name` as Sift opens it (read in place: the tests check nothing changes).
    static func open(_ name: String) throws -> SQLiteStore {
        try SQLiteStore.open(at: CoreDataFixtures.url(name))
    }

    /// The fixture's database through an immutable connection, for hand-written SQL.
    static func database(_ name: String) throws -> SQLiteDatabase {
        try SQLiteDatabase(path: CoreDataFixtures.url(name).path, options: [.immutable])
    }

    static func integer(_ database: SQLiteDatabase, _ sql: String, _ bindings: [SQLiteValue] = []) throws -> Int {
        guard case .integer(let n) = try database.scalar(sql, bindings) else { return -1 }
        return Int(n)
    }

    // MARK: Opening

    @Test(arguments: allStores)
    func theContentSaysItIsCoreDataStore(_ name: String) throws {
        let store = try Self.open(name)
        let origin = try #require(store.modelOrigin)
        #expect(origin.hasPrefix("Core Data's layout"))
        // (Changes are refused where the model was guessed.)
        #expect(store.isReadOnly == (store.coreData?.modelSource == .schema))
        if CoreDataFixtures.storesWithModelCache.contains(name) {
            #expect(store.coreData?.modelSource == .modelCache, "\(name): \(store.openingWarnings)")
            #expect(store.openingWarnings.isEmpty, "\(name): \(store.openingWarnings)")
        } else {
            #expect(store.coreData?.modelSource == .schema)
            #expect(store.openingWarnings.contains { $0.contains("give the model") }, "\(store.openingWarnings)")
        }
        #expect(!store.model.entities.isEmpty)
    }

    /// Not a byte of any fixture file (the store, its `-wal` and `-shm`) changes while stores are
    /// opened and read, and no file appears beside a copy.
    @Test func readingChangesNoFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = try FileManager.default.contentsOfDirectory(atPath: CoreDataFixtures.directory.path).filter { !$0.hasSuffix(".xcdatamodel") }
        for name in names {
            try FileManager.default.copyItem(at: CoreDataFixtures.url(name), to: directory.appendingPathComponent(name))
        }
        func checksums() throws -> [String: UInt64] {
            var sums: [String: UInt64] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                sums[name] = try CoreDataFixtures.checksum(directory.appendingPathComponent(name))
            }
            return sums
        }
        let before = try checksums()
        for name in Self.allStores {
            let store = try SQLiteStore.open(at: directory.appendingPathComponent(name))
            for entity in store.model.entities {
                let objects = try store.fetch(FetchRequest(entityName: entity.name))
                // Every relationship read, to read every table a fetch may touch.
                for object in objects.prefix(3) {
                    for relationship in entity.relationships { _ = try object.value(forKey: relationship.name) }
                }
            }
            // (Asking whether it can be changed writes nothing either; changes: CoreDataWritingTests.)
            #expect(store.isReadOnly == (store.coreData?.modelSource == .schema))
        }
        #expect(try checksums() == before)
    }

    /// A model given when opening must fit the store; one that does not is refused, naming what
    /// differs.
    @Test func aGivenModelMustFitTheStore() throws {
        let own = try #require(try Self.open("netusage.sqlite").coreData?.model)
        let reopened = try SQLiteStore.open(at: CoreDataFixtures.url("netusage.sqlite"), coreDataModel: own, coreDataModelPath: "netusage.momd")
        #expect(reopened.modelOrigin == "Core Data's layout; the model from netusage.momd")
        let other = try #require(try Self.open("DataUsage.sqlite").coreData?.model)
        let error = #expect(throws: StoreError.self) {
            try SQLiteStore.open(at: CoreDataFixtures.url("netusage.sqlite"), coreDataModel: other)
        }
        #expect(error?.message.contains("incompatible with the store") == true, "\(String(describing: error))")
    }

    /// The model's entity version hashes are compared with the store's
    /// (`NSStoreModelVersionHashes`): the cache's own agree; a model whose hash differs (here a
    /// version-hash modifier added to one entity) opens, since its tables fit, with a warning
    /// naming the entity.
    @Test(arguments: CoreDataFixtures.storesWithModelCache)
    func versionHashesAreComparedWithTheStores(_ name: String) throws {
        let database = try Self.database(name)
        let cache = try #require(try CoreDataStoreFile.modelCache(of: database))
        var model = try CoreDataModel(modelCache: cache)
        let same = try SQLiteStore.open(at: CoreDataFixtures.url(name), coreDataModel: model)
        #expect(same.coreData?.versionHashDifferences == [])
        #expect(same.coreData?.hashesAreExact == true)
        #expect(same.openingWarnings.isEmpty, "\(same.openingWarnings)")

        let entity = try #require(model.model.entities.first { model.entities[$0.name]?.propertyVersionHashes != nil })
        model.entities[entity.name]?.versionHashModifier = "changed"
        let changed = try SQLiteStore.open(at: CoreDataFixtures.url(name), coreDataModel: model)
        let differences = try #require(changed.coreData?.versionHashDifferences)
        #expect(differences.contains(entity.name))
        #expect(changed.openingWarnings.contains { $0.contains("version hashes differ") && $0.contains(entity.name) }, "\(changed.openingWarnings)")
        // Core Data would refuse that model for the store: Sift does not write with it.
        #expect(changed.changesRefusal?.message.contains("Sift does not write with it") == true, "\(String(describing: changed.changesRefusal))")
        #expect(same.changesRefusal?.message.contains("version hashes") != true)
    }

    // MARK: Counting

    /// Every entity's count, sub-entities included, equals `count(*)` of its table's rows whose
    /// `Z_ENT` is its number or a descendant's, with the numbers from `Z_PRIMARYKEY`.
    @Test(arguments: allStores)
    func countsEqualHandWrittenSQL(_ name: String) throws {
        let store = try Self.open(name)
        let database = try Self.database(name)
        var parents: [Int: Int] = [:], names: [Int: String] = [:]
        for row in try database.rows(#"SELECT "Z_ENT", "Z_NAME", "Z_SUPER" FROM "Z_PRIMARYKEY" WHERE "Z_ENT" < 16000"#) {
            guard case .integer(let number) = row[0], case .text(let entity) = row[1], case .integer(let parent) = row[2] else { continue }
            parents[Int(number)] = Int(parent)
            names[Int(number)] = entity
        }
        func root(_ number: Int) -> Int { var n = number; while let p = parents[n], p != 0 { n = p }; return n }
        func isBelow(_ number: Int, _ ancestor: Int) -> Bool {
            var n: Int? = number
            while let current = n, current != 0 { if current == ancestor { return true }; n = parents[current] }
            return false
        }
        var checked = 0
        for (number, entity) in names.sorted(by: { $0.key < $1.key }) {
            guard let rootName = names[root(number)], store.model.entity(named: entity) != nil else { continue }
            let table = "Z" + rootName.uppercased()
            let kinds = names.keys.filter { isBelow($0, number) }.sorted().map(String.init).joined(separator: ", ")
            let expected = try Self.integer(database, "SELECT count(*) FROM \(SQLIdentifier.quoted(table)) WHERE Z_ENT IN (\(kinds))")
            #expect(try store.count(FetchRequest(entityName: entity)) == expected, "\(name): \(entity)")
            checked += 1
        }
        #expect(checked > 0)
    }

    // MARK: Predicates against hand-written SQL

    /// To-one, to-many through the inverse's column, many-to-many through a join table, dates as
    /// seconds since 2001 and `[cd]` text, each against the SQL one would write by hand on the
    /// `Z` tables.
    @Test(arguments: [
        ("NoteStore.sqlite", "ICNote", "folder.title == 'Notes'",
         "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT n JOIN ZICCLOUDSYNCINGOBJECT f ON f.Z_PK = n.ZFOLDER WHERE n.Z_ENT = 11 AND f.ZTITLE2 = 'Notes'"),
        ("NoteStore.sqlite", "ICFolder", "ANY notes.title != nil",
         "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT f WHERE f.Z_ENT = 14 AND EXISTS (SELECT 1 FROM ZICCLOUDSYNCINGOBJECT n WHERE n.ZFOLDER = f.Z_PK AND n.ZTITLE1 IS NOT NULL)"),
        ("NoteStore.sqlite", "ICNote", "creationDate > CAST(606000000, 'NSDate')",
         "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT WHERE Z_ENT = 11 AND ZCREATIONDATE3 > 606000000"),
        ("NoteStore.sqlite", "ICFolder", "title CONTAINS[cd] 'NOTÉ'",
         "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT WHERE Z_ENT = 14 AND lower(ZTITLE2) LIKE '%note%'"),
        ("Accounts3.sqlite", "Account", "ANY enabledDataclasses != nil",
         "SELECT count(DISTINCT j.Z_2ENABLEDACCOUNTS) FROM Z_2ENABLEDDATACLASSES j"),
        ("Accounts3.sqlite", "Dataclass", "enabledAccounts.@count >= 2",
         "SELECT count(*) FROM (SELECT j.Z_7ENABLEDDATACLASSES FROM Z_2ENABLEDDATACLASSES j GROUP BY 1 HAVING count(*) >= 2)"),
        // Persistent history, Core Data's own tables.
        ("NoteStore.sqlite", "CHANGE", "transaction.bundleIDString.name == 'com.apple.mobilenotes'",
         "SELECT count(*) FROM ACHANGE c JOIN ATRANSACTION t ON t.Z_PK = c.ZTRANSACTIONID JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZBUNDLEIDTS WHERE s.ZNAME = 'com.apple.mobilenotes'"),
        ("NoteStore.sqlite", "TRANSACTION", "changes.@count > 5 AND timestamp > CAST(700000000, 'NSDate')",
         "SELECT count(*) FROM ATRANSACTION t WHERE (SELECT count(*) FROM ACHANGE c WHERE c.ZTRANSACTIONID = t.Z_PK) > 5 AND t.ZTIMESTAMP > 700000000"),
        ("Accounts3.sqlite", "Account", "accountType.identifier BEGINSWITH 'com.apple.account.'",
         "SELECT count(*) FROM ZACCOUNT a JOIN ZACCOUNTTYPE t ON t.Z_PK = a.ZACCOUNTTYPE WHERE t.ZIDENTIFIER LIKE 'com.apple.account.%'"),
    ])
    func predicatesEqualHandWrittenSQL(_ store: String, _ entity: String, _ predicate: String, _ sql: String) throws {
        let expected = try Self.integer(try Self.database(store), sql)
        #expect(expected > 0, "the hand-written SQL counts rows")
        let request = try FetchRequest(entityName: entity, predicate: predicate)
        let opened = try Self.open(store)
        #expect(try opened.count(request) == expected, "\(store): \(entity) WHERE \(predicate)")
        #expect(try opened.fetch(request).count == expected)
        #expect(try opened.generatedSQL(for: request).inMemoryPredicate == nil, "runs in SQL")
    }

    // MARK: One-to-ones

    /// Core Data keeps a one-to-one's key in its two tables' columns, but not always in both:
    /// NoteStore names each `ICCloudState` in `ZICCLOUDSYNCINGOBJECT.ZCLOUDSTATE` while
    /// `ZICCLOUDSTATE.ZCLOUDSYNCINGOBJECT` is NULL, and `ICNote.noteData` in both tables. Each side
    /// reads as the hand-written SQL that looks at either column, on every fixture that has a
    /// one-to-one (DataUsage's and knowledgeC's are empty).
    @Test(arguments: [
        ("NoteStore.sqlite", "ICCloudState", "cloudSyncingObject != nil",
         "SELECT count(*) FROM ZICCLOUDSTATE c WHERE c.ZCLOUDSYNCINGOBJECT IS NOT NULL OR EXISTS (SELECT 1 FROM ZICCLOUDSYNCINGOBJECT o WHERE o.ZCLOUDSTATE = c.Z_PK)", 28),
        ("NoteStore.sqlite", "ICCloudState", "cloudSyncingObject == nil",
         "SELECT count(*) FROM ZICCLOUDSTATE c WHERE c.ZCLOUDSYNCINGOBJECT IS NULL AND NOT EXISTS (SELECT 1 FROM ZICCLOUDSYNCINGOBJECT o WHERE o.ZCLOUDSTATE = c.Z_PK)", 3),
        ("NoteStore.sqlite", "ICCloudState", "cloudSyncingObject.identifier != nil",
         "SELECT count(*) FROM ZICCLOUDSTATE c JOIN ZICCLOUDSYNCINGOBJECT o ON o.ZCLOUDSTATE = c.Z_PK WHERE o.ZIDENTIFIER IS NOT NULL", 28),
        ("NoteStore.sqlite", "ICCloudState", "ANY cloudSyncingObject.identifier != nil AND inCloud == YES",
         "SELECT count(*) FROM ZICCLOUDSTATE c JOIN ZICCLOUDSYNCINGOBJECT o ON o.ZCLOUDSTATE = c.Z_PK WHERE o.ZIDENTIFIER IS NOT NULL AND c.ZINCLOUD = 1", -1),
        ("NoteStore.sqlite", "ICNote", "cloudState.inCloud == YES",
         "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT n JOIN ZICCLOUDSTATE c ON c.Z_PK = n.ZCLOUDSTATE WHERE n.Z_ENT = 11 AND c.ZINCLOUD = 1", -1),
        ("NoteStore.sqlite", "ICNoteData", "note.title != nil",
         "SELECT count(*) FROM ZICNOTEDATA d JOIN ZICCLOUDSYNCINGOBJECT n ON n.Z_PK = d.ZNOTE WHERE n.ZTITLE1 IS NOT NULL", 7),
        ("NoteStore.sqlite", "ICNote", "noteData != nil",
         "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT n WHERE n.Z_ENT = 11 AND (n.ZNOTEDATA IS NOT NULL OR EXISTS (SELECT 1 FROM ZICNOTEDATA d WHERE d.ZNOTE = n.Z_PK))", 8),
        ("DataUsage.sqlite", "Event", "hasScene != nil OR hasPeer != nil",
         "SELECT count(*) FROM ZEVENT e WHERE e.ZHASSCENE IS NOT NULL OR e.ZHASPEER IS NOT NULL OR EXISTS (SELECT 1 FROM ZEVENTSCENE s WHERE s.ZWITHEVENT = e.Z_PK) OR EXISTS (SELECT 1 FROM ZPEER p WHERE p.ZWITHEVENT = e.Z_PK)", 0),
        ("DataUsage.sqlite", "EventScene", "withEvent != nil",
         "SELECT count(*) FROM ZEVENTSCENE s WHERE s.ZWITHEVENT IS NOT NULL OR EXISTS (SELECT 1 FROM ZEVENT e WHERE e.ZHASSCENE = s.Z_PK)", 0),
        ("knowledgec-10.14.db", "Object", "event != nil",
         "SELECT count(*) FROM ZOBJECT o WHERE o.ZEVENT IS NOT NULL OR EXISTS (SELECT 1 FROM ZOBJECT e WHERE e.ZVALUE = o.Z_PK)", 0),
    ])
    func oneToOnesReadEitherColumn(_ store: String, _ entity: String, _ predicate: String, _ sql: String, _ known: Int) throws {
        let expected = try Self.integer(try Self.database(store), sql)
        if known >= 0 { #expect(expected == known, "the hand-written SQL counts \(known) rows") } else { #expect(expected > 0) }
        let request = try FetchRequest(entityName: entity, predicate: predicate)
        let opened = try Self.open(store)
        #expect(try opened.count(request) == expected, "\(store): \(entity) WHERE \(predicate)")
        #expect(try opened.fetch(request).count == expected)
        #expect(try opened.generatedSQL(for: request).inMemoryPredicate == nil, "runs in SQL")
    }

    /// Each `ICCloudState`'s `cloudSyncingObject`, read as an object's value (one at a time and
    /// prefetched), sorted by, and fetched as a dictionary, is the row whose `ZCLOUDSTATE` names
    /// it, though its own column is NULL; and each object's `cloudState` is the other way round.
    @Test(arguments: [false, true])
    func oneToOneObjectsReadTheOtherSide(_ prefetch: Bool) throws {
        let database = try Self.database("NoteStore.sqlite")
        var expected: [Int64: Int64] = [:]
        for row in try database.rows("SELECT c.Z_PK, o.Z_PK FROM ZICCLOUDSTATE c JOIN ZICCLOUDSYNCINGOBJECT o ON o.ZCLOUDSTATE = c.Z_PK") {
            if case .integer(let state) = row[0], case .integer(let object) = row[1] { expected[state] = object }
        }
        #expect(expected.count == 28)
        func key(_ value: Value) -> Int64? {
            guard case .object(let object) = value, let managed = object as? ManagedObject,
                  let range = managed.objectID.rawValue.range(of: "/p", options: .backwards) else { return nil }
            return Int64(managed.objectID.rawValue[range.upperBound...])
        }
        func ownKey(_ object: ManagedObject) -> Int64? { key(.object(object)) }
        let store = try Self.open("NoteStore.sqlite")
        var request = FetchRequest(entityName: "ICCloudState")
        if prefetch { request.relationshipKeyPathsForPrefetching = ["cloudSyncingObject"] }
        let states = try store.fetch(request)
        #expect(states.count == 31)
        for state in states {
            let own = try #require(ownKey(state))
            #expect(key(try state.value(forKey: "cloudSyncingObject")) == expected[own], "ICCloudState p\(own)")
        }
        var back = FetchRequest(entityName: "ICCloudSyncingObject")
        if prefetch { back.relationshipKeyPathsForPrefetching = ["cloudState"] }
        for object in try store.fetch(back) {
            guard let state = key(try object.value(forKey: "cloudState")) else { continue }
            #expect(expected[state] == ownKey(object))
        }
        // Sorted by the other side's attribute, as the evaluator sorts the same objects.
        let sorted = try FetchRequest(statement: "ICCloudState WHERE cloudSyncingObject != nil SORT BY cloudSyncingObject.identifier")
        let fetched = try store.fetch(sorted)
        #expect(try store.generatedSQL(for: sorted).inMemoryPredicate == nil, "runs in SQL")
        let identifiers = try fetched.map { object -> String in
            guard case .string(let identifier) = try object.value(forKeyPath: "cloudSyncingObject.identifier") else { return "" }
            return identifier
        }
        #expect(identifiers.count == 28 && !identifiers.contains(""))
        #expect(identifiers == identifiers.sorted())
    }

    // MARK: The evaluator

    /// On every fixture, predicates and sorts over each entity's attributes and relationships
    /// give what the evaluator gives on the same objects, in the same order.
    @Test(arguments: allStores)
    func fetchesEqualTheEvaluator(_ name: String) throws {
        let store = try Self.open(name)
        var mismatches: [String] = []
        var checked = 0
        for entity in store.model.entities {
            let all = try store.fetch(FetchRequest(entityName: entity.name))
            guard !all.isEmpty else { continue }
            var formats: [String] = []
            for attribute in entity.attributes {
                formats.append("\(attribute.name) == nil")
                switch attribute.type {
                case .string: formats += ["\(attribute.name) BEGINSWITH[cd] 'a'", "\(attribute.name) > 'M'"]
                case .integer16, .integer32, .integer64: formats += ["\(attribute.name) > 0", "\(attribute.name) BETWEEN {1, 5}"]
                case .boolean: formats.append("\(attribute.name) == YES")
                case .date: formats.append("\(attribute.name) > CAST(600000000, 'NSDate')")
                case .double, .float: formats.append("\(attribute.name) < 1.5")
                default: break
                }
            }
            for relationship in entity.relationships {
                if relationship.isToMany {
                    formats += ["\(relationship.name).@count > 0", "ANY \(relationship.name) != nil"]
                    if let text = store.model.entity(named: relationship.destination)?.attributes.first(where: { $0.type == .string }) {
                        formats.append("ANY \(relationship.name).\(text.name) CONTAINS[c] 'e'")
                    }
                } else {
                    formats += ["\(relationship.name) == nil", "\(relationship.name) != nil"]
                    if let text = store.model.entity(named: relationship.destination)?.attributes.first(where: { $0.type == .string }) {
                        formats.append("\(relationship.name).\(text.name) != nil")
                    }
                }
            }
            for format in formats {
                guard let request = try? FetchRequest(entityName: entity.name, predicate: format) else { continue }
                checked += 1
                let evaluated = Result { () throws -> [String] in
                    let typed = try ModelKeyPaths.typedPredicate(request.predicate!, entity: entity, model: store.model)
                    let compiled = try CompiledPredicate(typed)
                    return try all.filter { try compiled.evaluate(.object($0)) }.map(\.objectID.rawValue)
                }
                let fetched = Result { try store.fetch(request).objectIDs.map(\.rawValue) }
                switch (fetched, evaluated) {
                case let (.success(ids), .success(expected)) where ids == expected: break
                case let (.failure(a), .failure(b)) where "\(a)" == "\(b)": break
                default: mismatches.append("\(entity.name) WHERE \(format): SQL \(fetched), evaluator \(evaluated)")
                }
            }
            // Sorts: each sortable attribute, descending, with the row key as the tie-break.
            for attribute in entity.attributes where [.string, .integer16, .integer32, .integer64, .date, .double, .boolean].contains(attribute.type) {
                let request = try FetchRequest(statement: "\(entity.name) SORT BY \(attribute.name) DESC")
                checked += 1
                let order = try Sorting.sortedIndices(all.map { Value.object($0) }, by: request.sortDescriptors)
                let expected = order.map { all[$0].objectID.rawValue }
                let fetched = try store.fetch(request).objectIDs.map(\.rawValue)
                if fetched != expected { mismatches.append("\(entity.name) SORT BY \(attribute.name) DESC") }
            }
        }
        #expect(checked > 20)
        #expect(mismatches.isEmpty, "\(name): \(mismatches.count) of \(checked) disagree:\n\(mismatches.prefix(8).joined(separator: "\n"))")
    }

    // MARK: Object IDs

    /// Object IDs are Core Data's URIs, naming the row's own entity; each finds its object again,
    /// and one naming another entity of the table finds none.
    @Test func objectIDsAreCoreDataURIs() throws {
        let store = try Self.open("NoteStore.sqlite")
        let uuid = try #require(try CoreDataStoreFile.storeUUID(of: try Self.database("NoteStore.sqlite")))
        let folders = try store.fetch(FetchRequest(entityName: "ICNoteContainer"))
        #expect(folders.count == 4)
        for folder in folders {
            let id = folder.objectID.rawValue
            #expect(id.hasPrefix("x-coredata://\(uuid)/\(folder.entityName)/p"), "\(id)")
            #expect(store.object(with: folder.objectID)?.objectID == folder.objectID)
            let other = id.replacingOccurrences(of: "/\(folder.entityName)/", with: "/ICNote/")
            #expect(store.object(with: ObjectID(other)) == nil)
            let request = try FetchRequest(entityName: "ICNoteContainer", predicate: "self == %@", arguments: [folder])
            #expect(try store.fetch(request).objectIDs == [folder.objectID])
        }
    }

    // MARK: Damaged and hostile stores

    /// A database made with hand-written SQL in a fresh directory; the caller removes it.
    static func made(_ sql: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("store.sqlite")
        try SQLiteDatabase(path: url.path, options: [.create]).execute(sql)
        return url
    }

    static let bookkeeping = """
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        """

    /// `Z_PRIMARYKEY` naming tables that do not exist, super-entities in a cycle or unknown,
    /// repeated names: the store opens with warnings, what exists is read, and what does not
    /// is an error in words, never a crash.
    @Test func aDamagedPrimaryKeyTableOpensWithWarnings() throws {
        let url = try Self.made(Self.bookkeeping + """
            INSERT INTO Z_METADATA VALUES (1, 'U', NULL);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 2), (2, 'Ghost', 0, 0), (3, 'Child', 1, 0), (4, 'Loop', 5, 0), (5, 'Loop2', 4, 0),
                                            (6, 'Note', 0, 0), (7, 'Orphan', 99, 0), (8, NULL, 0, 0);
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
            INSERT INTO ZNOTE VALUES (1, 1, 1, 'hello'), (2, 3, 1, 'kid');
            """)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let before = try CoreDataFixtures.checksum(url)
        let store = try SQLiteStore.open(at: url)
        #expect(store.coreData?.modelSource == .schema)
        let warnings = store.openingWarnings.joined(separator: "\n")
        for expected in ["cycle", "no table ZGHOST", "repeats"] { #expect(warnings.contains(expected), "\(warnings)") }
        #expect(try store.count(FetchRequest(entityName: "Note")) == 2)
        #expect(try store.count(FetchRequest(entityName: "Child")) == 1)
        #expect(try store.fetch(FetchRequest(entityName: "Child")).objectIDs == [ObjectID("x-coredata://U/Child/p2")])
        #expect(throws: (any Error).self) { try store.count(FetchRequest(entityName: "Ghost")) }
        #expect(try CoreDataFixtures.checksum(url) == before)
    }

    /// Core Data's tables without a single entity in `Z_PRIMARYKEY` are read as a plain
    /// database, said in a warning; a cache that is not a model is set aside, said too.
    @Test(arguments: [
        ("", "names no entity"),
        ("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 1); CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB); INSERT INTO Z_MODELCACHE VALUES (x'00112233445566');",
         "model cache (Z_MODELCACHE) cannot be read"),
        ("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 1); CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB); INSERT INTO Z_MODELCACHE VALUES (zeroblob(100000));",
         "model cache (Z_MODELCACHE) cannot be read"),
    ])
    func unreadableModelsFallBackWithAWarning(_ extra: String, _ warning: String) throws {
        let url = try Self.made(Self.bookkeeping + """
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
            INSERT INTO ZNOTE VALUES (1, 1, 1, 'hello');
            """ + extra)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try SQLiteStore.open(at: url)
        #expect(store.openingWarnings.contains { $0.contains(warning) }, "\(store.openingWarnings)")
        let entity = store.coreData == nil ? "ZNOTE" : "Note"
        #expect(try store.count(FetchRequest(entityName: entity)) == 1)
        #expect(store.isReadOnly)
    }

    /// A store cut short is reported as damaged, as any SQLite file is.
    @Test func aTruncatedStoreIsAnError() throws {
        let data = try Data(contentsOf: CoreDataFixtures.url("NoteStore.sqlite"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for length in [100, 4096, 5000, data.count / 2] {
            let url = directory.appendingPathComponent("cut-\(length).sqlite")
            try data.prefix(length).write(to: url)
            let outcome = Result { try SQLiteStore.open(at: url).count(FetchRequest(entityName: "ICNote")) }
            if case .success(let count) = outcome { Issue.record("\(length) bytes read as \(count) notes") }
        }
    }

    // MARK: Ordered relationships

    /// A store laid out as Core Data lays out `model` (its tables' DDL from ``CoreDataLayout``,
    /// `Z_PRIMARYKEY` and `Z_METADATA`), then `rows` run; opened with the model.
    static func laidOut(_ model: DataModel, rows: String) throws -> (URL, SQLiteStore) {
        let layout = CoreDataLayout(model)
        var sql = bookkeeping + "INSERT INTO Z_METADATA VALUES (1, 'U', NULL);\n"
        for table in layout.tables {
            let columns = table.columns.map { "\($0.name) \($0.declaredType)" + ($0.role == .primaryKey ? " PRIMARY KEY" : "") }
            sql += "CREATE TABLE \(table.name) (\(columns.joined(separator: ", ")));\n"
        }
        for entity in layout.entities {
            sql += "INSERT INTO Z_PRIMARYKEY VALUES (\(entity.number), '\(entity.name)', \(entity.superNumber), 0);\n"
        }
        let url = try made(sql + rows)
        return (url, try SQLiteStore.open(at: url, coreDataModel: model))
    }

    /// An ordered to-many through its inverse reads its destinations in `Z_FOK_` order, in SQL
    /// and in the objects alike.
    @Test func orderedToManyFollowsItsPositionColumn() throws {
        let model = try DataModel(entities: [
            EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "notes", destination: "Note", isToMany: true, inverse: "folder", isOrdered: true)]),
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "folder", destination: "Folder", inverse: "notes")]),
        ])
        let layout = CoreDataLayout(model)
        guard case .toManyThroughInverse(_, _, let order?)? = layout.mapping(entity: "Folder", property: "notes") else {
            Issue.record("no order column for Folder.notes")
            return
        }
        #expect(order == "Z_FOK_FOLDER")
        let (url, store) = try Self.laidOut(model, rows: """
            INSERT INTO ZFOLDER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'inbox');
            INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZFOLDER, Z_FOK_FOLDER, ZTITLE) VALUES (1, 2, 1, 1, 3072, 'c'), (2, 2, 1, 1, 1024, 'a'), (3, 2, 1, 1, 2048, 'b');
            """)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(store.openingWarnings.isEmpty, "\(store.openingWarnings)")
        let folder = try #require(try store.fetch(FetchRequest(entityName: "Folder")).first)
        guard case .array(let notes) = try folder.value(forKey: "notes") else {
            Issue.record("notes is not an ordered collection")
            return
        }
        #expect(notes.compactMap { value -> String? in
            guard case .object(let note) = value, case .string(let title)? = try? note.value(forKey: "title") else { return nil }
            return title
        } == ["a", "b", "c"])
        for (format, expected) in [("notes[FIRST].title == 'a'", 1), ("notes[LAST].title == 'c'", 1), ("notes[FIRST].title == 'c'", 0)] {
            let request = try FetchRequest(entityName: "Folder", predicate: format)
            #expect(try store.count(request) == expected, "\(format)")
        }
    }

    // MARK: To-ones made from the row

    /// A to-one's destination ID is made from the owner's row (its key column, and
    /// `Z<n>_FOLDER` where the destination has sub-entities): reading it runs no statement, and
    /// it is the ID of the object the relationship reads (a NULL key, none; a one-to-one kept
    /// in the other side's column only, read as before).
    @Test func toOneIDsAreMadeFromTheOwnersRow() throws {
        let model = try DataModel(entities: [
            EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "notes", destination: "Note", isToMany: true, inverse: "folder")]),
            EntityDescription(name: "SmartFolder", parent: "Folder", attributes: [AttributeDescription(name: "query", type: .string)]),
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "folder", destination: "Folder", inverse: "notes"),
                                              RelationshipDescription(name: "data", destination: "NoteData", inverse: "note")]),
            EntityDescription(name: "NoteData", attributes: [AttributeDescription(name: "size", type: .integer64)],
                              relationships: [RelationshipDescription(name: "note", destination: "Note", inverse: "data")]),
        ])
        let layout = CoreDataLayout(model)
        guard case .toOne(_, let key, let entity?, _)? = layout.mapping(entity: "Note", property: "folder") else {
            Issue.record("no entity column for Note.folder")
            return
        }
        let smart = try #require(layout.entity(named: "SmartFolder")).number
        let plain = try #require(layout.entity(named: "Folder")).number
        let note = try #require(layout.entity(named: "Note")).number
        let data = try #require(layout.entity(named: "NoteData")).number
        // Note 3's data is named only by ZNOTEDATA.ZNOTE (its own ZDATA is NULL).
        let (url, store) = try Self.laidOut(model, rows: """
            INSERT INTO ZFOLDER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, \(plain), 1, 'inbox'), (2, \(smart), 1, 'smart');
            INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, \(key), \(entity), ZDATA, ZTITLE) VALUES
                (1, \(note), 1, 1, \(plain), 1, 'a'), (2, \(note), 1, 2, \(smart), 2, 'b'), (3, \(note), 1, NULL, NULL, NULL, 'c');
            INSERT INTO ZNOTEDATA (Z_PK, Z_ENT, Z_OPT, ZNOTE, ZSIZE) VALUES (1, \(data), 1, 1, 10), (2, \(data), 1, 2, 20), (3, \(data), 1, 3, 30);
            """)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(store.openingWarnings.isEmpty, "\(store.openingWarnings)")
        let notes = Array(try store.fetch(FetchRequest(statement: "Note SORT BY title")))
        var made: [[String]] = []
        let statements = ObjectReadingTests.statements(store) {
            made = notes.map { $0.destinationIDs(of: "folder").map(\.rawValue) }
        }
        #expect(statements.isEmpty, "\(statements)")
        #expect(made == [["x-coredata://U/Folder/p1"], ["x-coredata://U/SmartFolder/p2"], []])
        #expect(notes.map { $0.destinationCount(of: "folder") } == [1, 1, 0])
        // The same IDs as the objects the relationship reads, and in relationshipIDs.
        for object in notes {
            let read = try object.value(forKey: "folder")
            let readID: [String] = if case .object(let folder as ManagedObject) = read { [folder.objectID.rawValue] } else { [] }
            #expect(object.destinationIDs(of: "folder").map(\.rawValue) == readID)
            #expect(object.relationshipIDs.first { $0.name == "folder" }?.ids.map(\.rawValue) == readID)
            // A one-to-one is read from either column, as before.
            let dataID: [String] = if case .object(let found as ManagedObject) = try object.value(forKey: "data") { [found.objectID.rawValue] } else { [] }
            #expect(object.destinationIDs(of: "data").map(\.rawValue) == dataID)
        }
        #expect(notes.last?.destinationIDs(of: "data").map(\.rawValue) == ["x-coredata://U/NoteData/p3"])
        // The attributes are the entity's only.
        #expect(notes.first?.attributeValues.keys == ["title"])
    }
}
