import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// Opening SQLite databases Sift did not create (FETCH.md §1): tables become entities, columns
/// attributes, foreign keys relationships; fetches run; writes are refused.
@Suite struct IntrospectionTests {
    /// A database made with plain SQL, in a fresh directory; returns its URL. The test removes
    /// the directory with ``removeDatabase(_:)``.
    static func makeDatabase() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-introspection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("music.db")
        let database = try SQLiteDatabase(path: url.path, options: [.create])
        try database.execute(#"""
            CREATE TABLE Artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL, founded DATE, active BOOLEAN);
            CREATE TABLE Album (id INTEGER PRIMARY KEY, title VARCHAR(100), artist_id INTEGER REFERENCES Artist(id), price NUMERIC, cover BLOB);
            CREATE TABLE tracks (trackId INTEGER PRIMARY KEY, name TEXT, albumId INTEGER REFERENCES Album, seconds REAL);
            CREATE TABLE "order" ("order no" TEXT PRIMARY KEY, "say ""hi""" TEXT, qty);
            CREATE TABLE pairs (a INTEGER, b INTEGER, PRIMARY KEY (a, b)) WITHOUT ROWID;
            INSERT INTO Artist VALUES (1, 'Nina', 0.0, 1), (2, 'Miles', 86400.0, 0), (3, 'Quiet', NULL, NULL);
            INSERT INTO Album VALUES (10, 'Blue', 1, 9.5, NULL), (11, 'Wild', 1, 12, NULL), (12, 'Kind', 2, 8, x'00ff'), (13, 'Loose', NULL, NULL, NULL);
            INSERT INTO tracks VALUES (100, 'One', 10, 200.5), (101, 'Two', 10, 180), (102, 'Three', 12, 300);
            INSERT INTO "order" VALUES ('A-1', 'hello', 3), ('A-2', 'bye', 'many');
            """#)
        return url
    }

    /// Removes the directory ``makeDatabase()`` made.
    static func removeDatabase(_ url: URL) {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    func names(_ store: SQLiteStore, _ statement: String, key: String = "name") throws -> [String] {
        try store.fetch(FetchRequest(statement: statement)).map { object in
            if case .string(let s)? = object[attribute: key] { return s }
            return "?"
        }
    }

    @Test func tablesBecomeEntitiesWithTypedAttributes() throws {
        let url = try Self.makeDatabase()
        defer { Self.removeDatabase(url) }
        let store = try SQLiteStore.open(at: url)
        let model = store.model
        #expect(model.entities.map(\.name) == ["Artist", "Album", "tracks", "order"])
        let artist = try #require(model.entity(named: "Artist"))
        #expect(artist.attributes.map(\.name) == ["id", "name", "founded", "active"])
        #expect(artist.attributes.map(\.type) == [.integer64, .string, .date, .boolean])
        #expect(artist.attributes.allSatisfy { $0.isOptional })
        let album = try #require(model.entity(named: "Album"))
        #expect(album.attributes.map(\.type) == [.integer64, .string, .integer64, .double, .binary])
        let order = try #require(model.entity(named: "order"))
        #expect(order.attributes.map(\.name) == ["order no", "say \"hi\"", "qty"])
        // qty holds 3 and 'many': each value keeps its kind.
        #expect(order.attributes.map(\.type) == [.string, .string, .undefined])
        let none = ColumnTypeInference.Contents()
        #expect(ColumnTypeInference.choose(declared: "DOUBLE PRECISION", none, isCoreDataStore: false).type == .double)
        #expect(ColumnTypeInference.choose(declared: "datetime", none, isCoreDataStore: false).type == .date)
        #expect(ColumnTypeInference.choose(declared: "NVARCHAR(20)", none, isCoreDataStore: false).type == .string)
        #expect(ColumnTypeInference.choose(declared: "", none, isCoreDataStore: false).type == .undefined)
    }

    @Test func foreignKeysBecomeRelationshipsWithInverses() throws {
        let url = try Self.makeDatabase()
        defer { Self.removeDatabase(url) }
        let store = try SQLiteStore.open(at: url)
        let album = try #require(store.model.entity(named: "Album"))
        let toArtist = try #require(album.relationship(named: "artist"))
        #expect(!toArtist.isToMany && toArtist.destination == "Artist" && toArtist.inverse == "albums")
        #expect(album.attribute(named: "artist_id") != nil)
        let artist = try #require(store.model.entity(named: "Artist"))
        let albums = try #require(artist.relationship(named: "albums"))
        #expect(albums.isToMany && albums.destination == "Album" && albums.inverse == "artist")
        let tracks = try #require(store.model.entity(named: "tracks"))
        #expect(tracks.relationship(named: "album")?.destination == "Album")
        #expect(album.relationship(named: "tracks")?.isToMany == true)
    }

    @Test func fetchesRunInSQL() throws {
        let url = try Self.makeDatabase()
        defer { Self.removeDatabase(url) }
        let store = try SQLiteStore.open(at: url)
        #expect(try names(store, "Album WHERE artist.name == 'Nina' SORT BY title", key: "title") == ["Blue", "Wild"])
        #expect(try names(store, "Artist WHERE albums.@count > 1") == ["Nina"])
        #expect(try names(store, "Artist WHERE albums.@count == 0") == ["Quiet"])
        #expect(try names(store, "Album SORT BY title DESC LIMIT 2", key: "title") == ["Wild", "Loose"])
        #expect(try names(store, "tracks WHERE album.artist.name == 'Miles'") == ["Three"])
        #expect(try names(store, "Artist WHERE ANY albums.tracks.seconds > 190 SORT BY name") == ["Miles", "Nina"])
        #expect(try names(store, "Artist WHERE active == YES") == ["Nina"])
        let ids = try store.fetch(FetchRequest(statement: "Album WHERE price < 10 SORT BY price")).objectIDs
        #expect(ids.map(\.rawValue) == ["Album/12", "Album/10"])
        let miles = try store.fetch(FetchRequest(statement: "Artist WHERE name == 'Miles'"))
        guard case .date(let founded)? = miles.first?[attribute: "founded"] else { Issue.record("founded is not a date"); return }
        // Numbers in a DATE column of a database that is not a Core Data store are Unix time.
        #expect(founded == Date(timeIntervalSince1970: 86400))
        guard case .bool(false)? = miles.first?[attribute: "active"] else { Issue.record("active is not false"); return }
    }

    @Test func oddNamesAndTablesWithoutIntegerKeys() throws {
        let url = try Self.makeDatabase()
        defer { Self.removeDatabase(url) }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(entityName: "order", predicate: "%K == %@", arguments: ["say \"hi\"", "bye"])
        let rows = try store.fetch(request)
        #expect(rows.count == 1)
        guard case .string("A-2")? = rows.first?[attribute: "order no"] else { Issue.record("wrong order row"); return }
        #expect(rows.first?.objectID.rawValue == "order/2")
        #expect(try store.count(FetchRequest(entityName: "order", predicate: "qty == 3")) == 1)
    }

    /// `REFERENCES People` names People's PRIMARY KEY, a TEXT one too — not its rowid.
    @Test func aForeignKeyWithoutAColumnRefersToThePrimaryKey() throws {
        let url = try ForeignDatabaseTests.database("""
            CREATE TABLE People (playerID TEXT PRIMARY KEY, name TEXT);
            CREATE TABLE Salaries (id INTEGER PRIMARY KEY, playerID TEXT REFERENCES People, salary REAL);
            INSERT INTO People VALUES ('b', 'Bee'), ('a', 'Ay');
            INSERT INTO Salaries VALUES (1, 'a', 10), (2, 'b', 20);
            """)
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        #expect(try store.count(FetchRequest(statement: #"Salaries WHERE player.name == "Ay" AND salary == 10"#)) == 1)
        #expect(try store.count(FetchRequest(statement: #"People WHERE ANY salaries.salary == 20 AND name == "Bee""#)) == 1)
    }

    @Test func writesGoIntoTheTablesAndReadOnlyRefusesThem() throws {
        let url = try Self.makeDatabase()
        defer { Self.removeDatabase(url) }
        let before = try Data(contentsOf: url)
        let readOnly = try SQLiteStore.open(at: url, readOnly: true)
        do {
            try readOnly.insert("Artist", ["name": .string("New")])
            Issue.record("the insert was accepted")
        } catch {
            #expect(error.code == .readOnly)
        }
        try readOnly.save()
        #expect(try Data(contentsOf: url) == before)
        #expect(try readOnly.count(FetchRequest(statement: "Artist")) == 3)
        // Opened to write, a date goes in as the column holds its dates (Unix seconds).
        let store = try SQLiteStore.open(at: url)
        let id = try store.insert("Artist", ["name": .string("New"), "founded": .date(Date(timeIntervalSince1970: 172_800))])
        #expect(id.rawValue == "Artist/4")
        try store.save()
        let database = try SQLiteDatabase(path: url.path, options: [.readOnly])
        #expect(try database.rows("SELECT id, name, founded, typeof(founded) FROM Artist WHERE id = 4")
                == [[.integer(4), .text("New"), .integer(172_800), .text("integer")]])
        #expect(try store.count(FetchRequest(statement: #"Artist WHERE founded > "1970-01-02""#)) == 1)
        // A WITHOUT ROWID table has no key to name a row by: it is no entity.
        do {
            try store.insert("pairs", ["a": .int(1), "b": .int(2)])
            Issue.record("a row went into a WITHOUT ROWID table")
        } catch {
            #expect(error.code == .unknownEntity)
            #expect(error.message.hasPrefix("pairs is a WITHOUT ROWID table, whose rows have no integer key"), "\(error)")
        }
        // A fetch of it, a count, a batch update or delete: the same words, not "unknown entity".
        for statement in ["pairs", "COUNT pairs", "pairs WHERE a == 1", "SELECT a FROM pairs"] {
            let error = #expect(throws: StoreError.self, "\(statement)") { _ = try store.execute(FetchRequest(statement: statement)) }
            #expect(error?.code == .unknownEntity)
            #expect(error?.message.hasPrefix("pairs is a WITHOUT ROWID table, whose rows have no integer key") == true, "\(statement): \(String(describing: error))")
        }
        // Every write path says so too: a batch update or delete, and an import in each format.
        let writes: [(String, () throws -> Void)] = [
            ("batch update", { try store.batchUpdate(entity: "pairs", predicate: nil, set: ["b": .constant(.int(3))]) }),
            ("batch delete", { try store.batchDelete(entity: "pairs", predicate: PredicateNode(format: "a == 1")) }),
            ("JSON", { try StoreImporter.importJSON(Data(#"{"pairs": [{"a": 5, "b": 6}]}"#.utf8), into: store) }),
            ("JSON Lines", { try StoreImporter.importJSONLines(Data("{\"@entity\": \"pairs\", \"a\": 5}\n".utf8), into: store) }),
            ("CSV", { try StoreImporter.importCSV(Data("a,b\n5,6\n".utf8), entity: "pairs", into: store) }),
        ]
        for (name, write) in writes {
            let error = #expect(throws: StoreError.self, "\(name)") { try write() }
            #expect(error?.code == .unknownEntity, "\(name)")
            #expect(error?.message.contains("pairs is a WITHOUT ROWID table, whose rows have no integer key") == true, "\(name): \(String(describing: error))")
        }
        // The line the JSON Lines reader stopped at is still named.
        let lines = #expect(throws: StoreError.self) {
            try StoreImporter.importJSONLines(Data("{\"@entity\": \"Artist\", \"name\": \"X\"}\n{\"@entity\": \"pairs\", \"a\": 5}\n".utf8), into: store)
        }
        #expect(lines?.message.hasPrefix("line 2: pairs is a WITHOUT ROWID table") == true, "\(String(describing: lines))")
        // A name that is no table at all is still an unknown entity.
        let unknown = #expect(throws: StoreError.self) { _ = try store.execute(FetchRequest(statement: "COUNT pears")) }
        #expect(unknown?.message.hasPrefix("unknown entity 'pears'") == true, "\(String(describing: unknown))")
    }

    @Test func namingClashesAndSelfReferences() throws {
        let url = try Self.makeDatabase()
        defer { Self.removeDatabase(url) }
        let database = try SQLiteDatabase(path: url.path, options: [])
        try database.execute("""
            CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, boss INTEGER REFERENCES users(id));
            CREATE TABLE messages (id INTEGER PRIMARY KEY, sender_id INTEGER REFERENCES users, recipient_id INTEGER REFERENCES users,
                                   sender TEXT, body TEXT);
            INSERT INTO users VALUES (1, 'Ann', NULL), (2, 'Bob', 1);
            INSERT INTO messages VALUES (1, 1, 2, 'x', 'hi'), (2, 2, 1, 'y', 'yo'), (3, 2, 2, 'z', 'me');
            """)
        let store = try SQLiteStore.open(at: url)
        let users = try #require(store.model.entity(named: "users"))
        let messages = try #require(store.model.entity(named: "messages"))
        // "sender" is a column, so the to-one keeps the column's name and replaces the attribute.
        #expect(messages.relationship(named: "sender_id")?.destination == "users")
        #expect(messages.attribute(named: "sender_id") == nil)
        #expect(messages.attribute(named: "sender")?.type == .string)
        #expect(messages.relationship(named: "recipient")?.inverse == "messages_recipient")
        #expect(messages.attribute(named: "recipient_id") != nil)
        #expect(users.relationship(named: "messages")?.inverse == "sender_id")
        #expect(users.relationship(named: "messages_recipient")?.isToMany == true)
        // No suffix: the relationship takes the column's name; the inverse is "users" (it ends in s).
        #expect(users.relationship(named: "boss")?.destination == "users")
        #expect(users.relationship(named: "users")?.inverse == "boss")
        #expect(try names(store, "users WHERE boss.name == 'Ann'") == ["Bob"])
        #expect(try names(store, "users WHERE messages_recipient.@count == 2") == ["Bob"])
        #expect(try names(store, "messages WHERE sender_id.name == 'Bob' AND recipient.name == 'Bob'", key: "body") == ["me"])
    }

    /// Columns declared `COLLATE NOCASE` or `RTRIM` compare as the evaluator compares: as
    /// stored. Case variants are different values, and trailing spaces count.
    @Test(arguments: [
        ("people WHERE name == 'banks'", ["2"]),
        ("people WHERE name != 'banks'", ["1", "3", "4"]),
        ("people WHERE name IN {'banks', 'ADAMS'}", ["2"]),
        ("people WHERE name BEGINSWITH 'B'", ["1", "3"]),
        ("people WHERE name < 'C'", ["1", "3", "4"]),
        ("people WHERE name ==[c] 'banks'", ["1", "2", "3"]),
        ("people WHERE email == 'a@x'", ["2"]),
        ("people SORT BY name", ["4", "3", "1", "2"]),
        ("people SORT BY name USING caseInsensitiveCompare", ["4", "1", "2", "3"]),
        ("people SORT BY email DESC", ["3", "1", "2", "4"]),
    ])
    func declaredCollationsDoNotChangeComparisons(_ statement: String, _ expected: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-collations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("people.db")
        do {
            let database = try SQLiteDatabase(path: url.path, options: [.create])
            try database.execute("""
                CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE, email TEXT COLLATE RTRIM);
                CREATE INDEX people_name ON people (name);
                INSERT INTO people (name, email) VALUES ('Banks', 'a@x '), ('banks', 'a@x'), ('BANKS', 'b'), ('Adams', '');
                """)
        }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(statement: statement)
        #expect(try store.fetch(request).map { $0.objectID.rawValue.replacingOccurrences(of: "people/", with: "") } == expected)
        #expect(try store.generatedSQL(for: request).inMemoryPredicate == nil)
    }
}
