import ChinookSupport
import Foundation
import SiftEvaluation
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// What a database Sift did not create declares beyond its model (issue 28 §6): the keys its
/// foreign keys refer to (a to-one shows `marisro01`, not `People/11188`), its indexes and its
/// NOT NULL columns; Sift's own stores declare them in their model and have no catalogue.
@Suite struct DatabaseCatalogTests {
    /// Lahman's shape: a TEXT primary key that a foreign key refers to, beside a rowid.
    static func makeBaseball(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("baseball.sqlite")
        let database = try SQLiteDatabase(path: url.path, options: [.create])
        try database.execute("""
            CREATE TABLE People (playerID TEXT PRIMARY KEY, nameLast TEXT NOT NULL, debut DATE);
            CREATE TABLE Batting (ID INTEGER PRIMARY KEY, playerID TEXT NOT NULL REFERENCES People(playerID), yearID INTEGER, HR INTEGER);
            CREATE INDEX Batting_player ON Batting(playerID);
            CREATE UNIQUE INDEX Batting_year ON Batting(yearID, playerID);
            INSERT INTO People VALUES ('ruthba01', 'Ruth', '1914-07-11'), ('marisro01', 'Maris', '1957-04-16');
            INSERT INTO Batting VALUES (1, 'marisro01', 1961, 61), (2, 'ruthba01', 1927, 60), (3, 'nobody', 1900, 0);
            """)
        return url
    }

    @Test func aForeignKeyShowsTheKeyItRefersTo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore.open(at: Self.makeBaseball(in: directory))
        #expect(store.destinationKeyAttribute(of: "player", in: "Batting") == "playerID")
        #expect(store.destinationKeyAttribute(of: "battings", in: "People") == nil, "a to-many")
        #expect(store.destinationKeyAttribute(of: "playerID", in: "Batting") == nil, "an attribute")
        #expect(store.destinationKeyAttribute(of: "player", in: "Nothing") == nil)

        // Through the protocol, as the CLI asks.
        let any: any PersistentStore = store
        #expect(any.destinationKeyAttribute(of: "player", in: "Batting") == "playerID")
        let objects = Array(try store.fetch(FetchRequest(entityName: "Batting", predicate: nil)))
        let keys = try objects.map { object -> String? in
            guard case .object(let player as ManagedObject) = try object.value(forKey: "player"),
                  case .string(let key)? = player[attribute: "playerID"] else { return nil }
            return key
        }
        #expect(keys == ["marisro01", "ruthba01", nil], "a dangling key names no row")
        #expect(objects[0].destinationIDs(of: "player").first?.rawValue.hasPrefix("People/") == true, "the object ID is the rowid's")
    }

    @Test func chinooksKeysIndexesAndNotNullColumns() throws {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try SQLiteStore.open(at: url)
        #expect(store.destinationKeyAttribute(of: "Customer", in: "Invoice") == "CustomerId")
        #expect(store.destinationKeyAttribute(of: "ReportsTo", in: "Employee") == "EmployeeId", "the relationship took the column's name")
        let catalog = try #require(try store.databaseCatalog())
        #expect(catalog.indexes(of: "Invoice").map(\.name) == ["IFK_InvoiceCustomerId"])
        #expect(catalog.indexes(of: "Invoice").first?.columns == ["CustomerId"])
        #expect(catalog.indexes(of: "Invoice").first?.isUnique == false)
        let playlistTrack = catalog.indexes(of: "PlaylistTrack")
        #expect(playlistTrack.map(\.name) == ["IFK_PlaylistTrackTrackId", "sqlite_autoindex_PlaylistTrack_1"])
        #expect(playlistTrack.last?.columns == ["PlaylistId", "TrackId"] && playlistTrack.last?.isUnique == true, "the composite key's index")
        #expect(catalog.indexes.map(\.name) == catalog.indexes.map(\.name).sorted())
        let database = try SQLiteDatabase(path: url.path, options: [.readOnly])
        #expect(try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'index'") == .integer(Int64(catalog.indexes.count)))
        #expect(catalog.requiredProperties["Invoice"] == ["InvoiceId", "CustomerId", "Customer", "InvoiceDate", "Total"], "a NOT NULL foreign key's to-one too")
        #expect(catalog.requiredProperties["Artist"] == ["ArtistId"])
        #expect(catalog.requiredProperties["Employee"] == ["EmployeeId", "LastName", "FirstName"], "ReportsTo may be NULL")
    }

    @Test func aTextKeyIsRequiredOnlyWhereDeclaredNotNull() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = try #require(try SQLiteStore.open(at: Self.makeBaseball(in: directory)).databaseCatalog())
        // SQLite lets a TEXT PRIMARY KEY hold NULL unless it says NOT NULL.
        #expect(catalog.requiredProperties["People"] == ["nameLast"])
        #expect(catalog.requiredProperties["Batting"] == ["ID", "playerID", "player"])
        #expect(catalog.indexes.map(\.name) == ["Batting_player", "Batting_year", "sqlite_autoindex_People_1"])
        #expect(catalog.indexes.map(\.isUnique) == [false, true, true])
        #expect(catalog.indexes[1].columns == ["yearID", "playerID"])
    }

    @Test func siftsOwnStoresHaveNoCatalogueAndShowObjectIDs() throws {
        let model = try DataModel(name: "M", entities: [
            EntityDescription(name: "Author", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "books", destination: "Book", isToMany: true, inverse: "author")]),
            EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "author", destination: "Author", inverse: "books")]),
        ])
        let store = try SQLiteStore.inMemory(model: model)
        #expect(store.destinationKeyAttribute(of: "author", in: "Book") == nil)
        #expect(try store.databaseCatalog() == nil)
        let atomic: any PersistentStore = AtomicStore.inMemory(model: model)
        #expect(atomic.destinationKeyAttribute(of: "author", in: "Book") == nil)
        #expect(try atomic.databaseCatalog() == nil)
    }
}
