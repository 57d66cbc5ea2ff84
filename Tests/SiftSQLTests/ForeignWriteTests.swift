import ChinookSupport
import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// Changes to databases Sift did not create (issue 28 §5), checked with hand-written SQL reading
/// the file: values stored in the form each column holds, object IDs `<Table>/<key>`,
/// relationships as foreign key columns, and the database's constraints, foreign keys and
/// triggers honoured, all or nothing.
@Suite struct ForeignWriteTests {
    /// Rows of a hand-written query on the file, as another program reads them.
    static func rows(_ url: URL, _ sql: String, _ bindings: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let database = try SQLiteDatabase(path: url.path, options: [.readOnly])
        return try database.rows(sql, bindings)
    }

    static func value(_ url: URL, _ sql: String, _ bindings: [SQLiteValue] = []) throws -> SQLiteValue? {
        try rows(url, sql, bindings).first?.first
    }

    static func chinook() throws -> URL { try ChinookDatabase.makeTemporary() }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

    /// The file's bytes and whether a journal, WAL or shared-memory file is beside it.
    static func state(_ url: URL) throws -> (Data, [String]) {
        let beside = ["-journal", "-wal", "-shm"].filter { FileManager.default.fileExists(atPath: url.path + $0) }
        return (try Data(contentsOf: url), beside)
    }

    // MARK: Chinook

    @Test func updatesStoreEachValueInItsColumnsForm() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let changed = try store.batchUpdate(entity: "Track", predicate: PredicateNode(format: "TrackId <= 3"),
                                            set: ["UnitPrice": ExpressionNode(format: "1.29"), "Name": ExpressionNode(format: #""Straße""#)])
        try store.batchUpdate(entity: "Invoice", predicate: PredicateNode(format: "InvoiceId == 1"),
                              set: ["InvoiceDate": ExpressionNode(format: #""2024-02-03""#)])
        try store.batchUpdate(entity: "Invoice", predicate: PredicateNode(format: "InvoiceId == 2"),
                              set: ["InvoiceDate": ExpressionNode(format: #""2024-02-03T10:30:00Z""#), "Total": ExpressionNode(format: "12")])
        try store.save()
        #expect(changed == 3)
        let tracks = try Self.rows(url, "SELECT typeof(UnitPrice), UnitPrice, Name FROM Track WHERE TrackId <= 3 ORDER BY TrackId")
        #expect(tracks.count == 3)
        for track in tracks { #expect(track == [.text("real"), .real(1.29), .text("Straße")]) }
        // Chinook's dates are `YYYY-MM-DD 00:00:00` text: a new one too; a time of day is kept.
        #expect(try Self.rows(url, "SELECT InvoiceDate FROM Invoice WHERE InvoiceId <= 2 ORDER BY InvoiceId")
                == [[.text("2024-02-03 00:00:00")], [.text("2024-02-03 10:30:00")]])
        // A whole amount of money is the integer NUMERIC(10,2) makes of it.
        #expect(try Self.rows(url, "SELECT typeof(Total), Total FROM Invoice WHERE InvoiceId = 2") == [[.text("integer"), .integer(12)]])
        // Read back through Sift, in SQL and in memory alike.
        let reopened = try SQLiteStore.open(at: url)
        let onTheDay = try Self.value(url, "SELECT count(*) FROM Invoice WHERE InvoiceDate >= '2024-02-03' AND InvoiceDate < '2024-02-04'")
        #expect(onTheDay.map { $0 == .integer(2) || $0 == .integer(3) } == true)
        #expect(try onTheDay == .integer(Int64(reopened.count(FetchRequest(statement: #"Invoice WHERE InvoiceDate >= "2024-02-03" AND InvoiceDate < "2024-02-04""#)))))
        #expect(try reopened.count(FetchRequest(statement: #"Track WHERE UnitPrice == 1.29"#)) == 3)
    }

    @Test func insertsTakeTheTablesKeysAndIDs() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let artist = try store.insert("Artist", ["Name": .string("Nina Simone")])
        #expect(artist.rawValue == "Artist/276")
        let given = try store.insert("Artist", ["ArtistId": .int(500), "Name": .string("Miles")])
        #expect(given.rawValue == "Artist/500")
        let named = try store.insert("Artist", id: ObjectID("Artist/400"), ["Name": .string("Ella")])
        #expect(named.rawValue == "Artist/400")
        let album = try store.insert("Album", ["Title": .string("Pastel Blues")], relationships: ["Artist": [artist]])
        #expect(album.rawValue == "Album/348")
        // The next key follows the largest, as SQLite's would.
        #expect(try store.insert("Artist", ["Name": .string("Next")]).rawValue == "Artist/501")
        try store.save()
        #expect(try Self.rows(url, "SELECT ArtistId, Name FROM Artist WHERE ArtistId > 275 ORDER BY ArtistId")
                == [[.integer(276), .text("Nina Simone")], [.integer(400), .text("Ella")], [.integer(500), .text("Miles")], [.integer(501), .text("Next")]])
        #expect(try Self.rows(url, "SELECT AlbumId, Title, ArtistId FROM Album WHERE AlbumId = 348") == [[.integer(348), .text("Pastel Blues"), .integer(276)]])
        let object = try #require(store.object(with: album))
        #expect(object.objectID == album)
    }

    @Test func insertsRefuseIDsOfAnotherForm() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let before = try Self.state(url)
        let store = try SQLiteStore.open(at: url)
        let errors: [(ObjectID, [String: Value], StoreError.Code)] = [
            (ObjectID("o1"), [:], .invalidValue),
            (ObjectID("Album/3"), [:], .invalidValue),
            (ObjectID("Artist/x"), [:], .invalidValue),
            (ObjectID("Artist/1"), [:], .duplicateObjectID),
            (ObjectID("Artist/900"), ["ArtistId": .int(901)], .invalidValue),
        ]
        for (id, attributes, code) in errors {
            #expect(throws: StoreError.self) { try store.insert("Artist", id: id, attributes.merging(["Name": .string("X")]) { a, _ in a }) }
            do {
                try store.insert("Artist", id: id, attributes.merging(["Name": .string("X")]) { a, _ in a })
            } catch {
                #expect(error.code == code, "\(id): \(error)")
            }
        }
        // The key column is the object's ID: it does not change.
        do {
            try store.update(ObjectID("Artist/1"), ["ArtistId": .int(1000)])
            Issue.record("the key changed")
        } catch {
            #expect(error.code == .invalidValue && error.message.contains("row's key"), "\(error)")
        }
        try store.update(ObjectID("Artist/1"), ["ArtistId": .int(1)])
        store.rollback()
        #expect(try Self.state(url) == before)
    }

    @Test func relationshipsAreForeignKeyColumnsOnBothSides() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        // A to-one: the row's own column.
        try store.update(ObjectID("Album/1"), attributes: [:], relationships: ["Artist": [ObjectID("Artist/7")]])
        // A to-many: the other table's column (an artist without albums gets two).
        guard case .integer(let lonely)? = try Self.value(url, "SELECT min(ArtistId) FROM Artist WHERE ArtistId NOT IN (SELECT ArtistId FROM Album)") else {
            Issue.record("every artist has albums")
            return
        }
        try store.update(ObjectID("Artist/\(lonely)"), attributes: [:], relationships: ["albums": [ObjectID("Album/2"), ObjectID("Album/3")]])
        try store.save()
        #expect(try Self.rows(url, "SELECT AlbumId, ArtistId FROM Album WHERE AlbumId <= 3 ORDER BY AlbumId")
                == [[.integer(1), .integer(7)], [.integer(2), .integer(lonely)], [.integer(3), .integer(lonely)]])
        // Leaving an album without its artist breaks Album.ArtistId's NOT NULL.
        let before = try Self.state(url)
        do {
            try store.update(ObjectID("Artist/\(lonely)"), attributes: [:], relationships: ["albums": [ObjectID("Album/2")]])
            Issue.record("an album was left without an artist")
        } catch {
            #expect(error.code == .missingValue)
            #expect(error.message == "Album 'Album/3': ArtistId cannot be nil (Album.ArtistId is NOT NULL)", "\(error)")
        }
        store.rollback()
        #expect(try Self.state(url) == before)
    }

    /// An import may give a NOT NULL foreign key as its relationship (`"Artist": "Artist/2"`),
    /// to a row that is in before it (in the database, or earlier in the file), in JSON Lines
    /// and CSV alike; the column form works as before.
    @Test func anImportGivesANotNullForeignKeyAsItsRelationship() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let lines = #"""
            {"@entity": "Artist", "@id": "Artist/9001", "Name": "New"}
            {"@entity": "Album", "Title": "By relationship", "Artist": "Artist/2"}
            {"@entity": "Album", "Title": "To a row of the file", "Artist": "Artist/9001"}
            {"@entity": "Album", "Title": "By column", "ArtistId": 3}
            """#
        try StoreImporter.importJSONLines(Data(lines.utf8), into: store)
        try StoreImporter.importCSV(Data("Title,Artist\nFrom CSV,Artist/9001\n".utf8), entity: "Album", into: store)
        #expect(try Self.rows(url, "SELECT Title, ArtistId FROM Album WHERE AlbumId > 347 ORDER BY AlbumId")
                == [[.text("By relationship"), .integer(2)], [.text("To a row of the file"), .integer(9001)],
                    [.text("By column"), .integer(3)], [.text("From CSV"), .integer(9001)]])
    }

    @Test func deletesFollowTheDatabasesForeignKeys() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let before = try Self.state(url)
        // Albums refer to the artist (ON DELETE NO ACTION): the delete is refused at save.
        let artist = try #require(try Self.value(url, "SELECT min(ArtistId) FROM Album"))
        guard case .integer(let artistKey) = artist else { Issue.record("no artist"); return }
        do {
            try store.batchDelete(entity: "Artist", predicate: PredicateNode(format: "ArtistId == %@", arguments: [artistKey]))
            try store.save()
            Issue.record("an artist with albums was deleted")
        } catch let error as StoreError {
            #expect(error.code == .deleteDenied, "\(error)")
            #expect(error.message.hasPrefix("cannot delete the Artist row with ArtistId = \(artistKey): Album 'Album/"), "\(error)")
            #expect(error.message.contains("Album.ArtistId REFERENCES Artist(ArtistId)"), "\(error)")
        }
        store.rollback()
        #expect(try Self.state(url) == before)
        // Deleted with what refers to it, in one transaction: allowed.
        let albums = try store.fetch(FetchRequest(statement: "Album WHERE ArtistId == \(artistKey)")).checkedObjectIDs()
        let tracks = try store.fetch(FetchRequest(statement: "Track WHERE Album.ArtistId == \(artistKey)")).checkedObjectIDs()
        let lines = try store.fetch(FetchRequest(statement: "InvoiceLine WHERE Track.Album.ArtistId == \(artistKey)")).checkedObjectIDs()
        let playlistTracks = try store.fetch(FetchRequest(statement: "PlaylistTrack WHERE Track.Album.ArtistId == \(artistKey)")).checkedObjectIDs()
        try store.performChanges {
            try store.delete(lines + playlistTracks + tracks + albums + [ObjectID("Artist/\(artistKey)")])
        }
        try store.save()
        #expect(try Self.value(url, "SELECT count(*) FROM Artist WHERE ArtistId = ?1", [.integer(artistKey)]) == .integer(0))
        #expect(try Self.value(url, "SELECT count(*) FROM Album WHERE ArtistId = ?1", [.integer(artistKey)]) == .integer(0))
        #expect(try Self.value(url, "SELECT count(*) FROM pragma_foreign_key_check") == .integer(0))
    }

    @Test func aBrokenConstraintChangesNothing() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let before = try Self.state(url)
        let store = try SQLiteStore.open(at: url)
        // An album without a title (NOT NULL), after a change that went in: all or nothing.
        do {
            try store.performChanges {
                try store.insert("Artist", ["Name": .string("First")])
                try store.insert("Album", ["ArtistId": .int(1)])
            }
            Issue.record("an album without a title was inserted")
        } catch let error as StoreError {
            #expect(error.code == .missingValue)
            #expect(error.message == "Album 'Album/348': Title cannot be nil (Album.Title is NOT NULL)", "\(error)")
        }
        #expect(!store.hasChanges)
        // A dangling foreign key, given as the column's value.
        try store.insert("Album", ["Title": .string("Lost"), "ArtistId": .int(9999)])
        do {
            try store.save()
            Issue.record("a dangling artist was saved")
        } catch {
            #expect(error.code == .unknownObject)
            #expect(error.message == "Album 'Album/348': ArtistId = 9999 names no Artist (Album.ArtistId REFERENCES Artist(ArtistId))", "\(error)")
        }
        store.rollback()
        #expect(try Self.state(url) == before)
    }

    // MARK: Lahman: a TEXT primary key, DATE text, an imported table without a key

    static func lahman() throws -> URL {
        try ForeignDatabaseTests.database("""
            CREATE TABLE People (playerID TEXT PRIMARY KEY, birthYear INTEGER, nameFirst TEXT, nameLast TEXT, weight INTEGER,
                                 debut DATE, finalGame DATE);
            CREATE TABLE Batting (ID INTEGER PRIMARY KEY, playerID TEXT NOT NULL REFERENCES People(playerID), yearID INTEGER,
                                  teamID TEXT, HR INTEGER);
            CREATE INDEX Batting_player ON Batting(playerID);
            CREATE TABLE Salaries (ID INTEGER PRIMARY KEY, yearID INTEGER, playerID TEXT REFERENCES People, salary NUMERIC(12,2));
            INSERT INTO People VALUES ('aaronha01', 1934, 'Hank', 'Aaron', 180, '1954-04-13', '1976-10-03'),
                                      ('ruthba01', 1895, 'Babe', 'Ruth', 215, '1914-07-11', '1935-05-30'),
                                      ('marisro01', 1934, 'Roger', 'Maris', 197, '1957-04-16', '1968-09-29');
            INSERT INTO Batting VALUES (1, 'aaronha01', 1954, 'ML1', 13), (2, 'ruthba01', 1927, 'NYA', 60), (3, 'marisro01', 1961, 'NYA', 61);
            INSERT INTO Salaries VALUES (1, 1961, 'marisro01', 42000.5);
            CREATE TABLE PeopleImported ("playerID" TEXT, "birthYear" TEXT, "debut" TEXT, "weight" TEXT);
            INSERT INTO PeopleImported VALUES ('aaronha01', '1934', '1954-04-13', '180'), ('ruthba01', '1895', '1914-07-11', '215');
            """, name: "lahman.sqlite")
    }

    @Test func aTextPrimaryKeyAndItsForeignKeys() throws {
        let url = try Self.lahman()
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        // People is keyed by rowid (its key is TEXT); Batting.player holds People.playerID.
        let person = try store.insert("People", ["playerID": .string("judgeaa01"), "nameFirst": .string("Aaron"), "nameLast": .string("Judge"),
                                                 "birthYear": .int(1992), "debut": .string("2016-08-13")])
        #expect(person.rawValue == "People/4")
        let batting = try store.insert("Batting", ["yearID": .int(2022), "teamID": .string("NYA"), "HR": .int(62)], relationships: ["player": [person]])
        #expect(batting.rawValue == "Batting/4")
        try store.update(ObjectID("People/1"), ["debut": .string("1954-04-14"), "weight": .int(181)])
        // The to-many side: Babe Ruth's batting row moves to Maris.
        try store.update(ObjectID("People/3"), attributes: [:], relationships: ["battings": [ObjectID("Batting/2"), ObjectID("Batting/3")]])
        try store.save()
        #expect(try Self.rows(url, "SELECT rowid, playerID, typeof(birthYear), debut FROM People WHERE playerID = 'judgeaa01'")
                == [[.integer(4), .text("judgeaa01"), .text("integer"), .text("2016-08-13")]])
        #expect(try Self.rows(url, "SELECT ID, playerID, HR FROM Batting ORDER BY ID")
                == [[.integer(1), .text("aaronha01"), .integer(13)], [.integer(2), .text("marisro01"), .integer(60)],
                    [.integer(3), .text("marisro01"), .integer(61)], [.integer(4), .text("judgeaa01"), .integer(62)]])
        #expect(try Self.rows(url, "SELECT debut, weight FROM People WHERE playerID = 'aaronha01'") == [[.text("1954-04-14"), .integer(181)]])
        // `REFERENCES People` names its PRIMARY KEY: Salaries.player reads through playerID.
        let reopened = try SQLiteStore.open(at: url)
        let salary = try #require(try reopened.fetch(FetchRequest(statement: "Salaries")).first)
        #expect(try reopened.count(FetchRequest(statement: #"Salaries WHERE player.nameLast == "Maris""#)) == 1)
        guard case .object(let player) = try salary.value(forKey: "player") else {
            Issue.record("no player")
            return
        }
        #expect((player as? ManagedObject)?.objectID.rawValue == "People/3")
        #expect(try reopened.count(FetchRequest(statement: #"People WHERE debut >= "2016-01-01""#)) == 1)
    }

    @Test func aTextPrimaryKeysUniquenessAndForeignKeys() throws {
        let url = try Self.lahman()
        defer { ForeignDatabaseTests.remove(url) }
        let before = try Self.state(url)
        let store = try SQLiteStore.open(at: url)
        do {
            try store.insert("People", ["playerID": .string("ruthba01"), "nameLast": .string("Ruth")])
            Issue.record("a second ruthba01 was inserted")
        } catch {
            #expect(error.code == .constraintViolation)
            #expect(error.message == "People 'People/4' has the same playerID as 'People/2' (a UNIQUE constraint of People)", "\(error)")
        }
        // A batting row of nobody: refused when the changes are saved.
        try store.insert("Batting", ["playerID": .string("nobody01"), "yearID": .int(2000)])
        #expect(throws: StoreError.self) { try store.save() }
        store.rollback()
        // A player with batting rows cannot go (ON DELETE NO ACTION); renaming the key cannot either.
        do {
            try store.delete(ObjectID("People/2"))
            try store.save()
            Issue.record("a player with batting rows was deleted")
        } catch {
            #expect(error.code == .deleteDenied, "\(error)")
            #expect(error.message.contains("Batting 'Batting/2' still refers to it"), "\(error)")
        }
        store.rollback()
        #expect(try Self.state(url) == before)
    }

    @Test func anImportedTableWithoutKeysIsKeyedByRowid() throws {
        let url = try Self.lahman()
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let entity = try #require(store.model.entity(named: "PeopleImported"))
        #expect(entity.attribute(named: "birthYear")?.type == .string)
        let id = try store.insert("PeopleImported", ["playerID": .string("judgeaa01"), "birthYear": .string("1992"), "debut": .string("2016-08-13")])
        #expect(id.rawValue == "PeopleImported/3")
        try store.update(ObjectID("PeopleImported/1"), ["weight": .string("181")])
        try store.delete(ObjectID("PeopleImported/2"))
        try store.save()
        #expect(try Self.rows(url, "SELECT rowid, playerID, birthYear, typeof(birthYear), debut, weight FROM PeopleImported ORDER BY rowid")
                == [[.integer(1), .text("aaronha01"), .text("1934"), .text("text"), .text("1954-04-13"), .text("181")],
                    [.integer(3), .text("judgeaa01"), .text("1992"), .text("text"), .text("2016-08-13"), .null]])
    }

    // MARK: The database's rules

    static func ruled() throws -> URL {
        try ForeignDatabaseTests.database("""
            CREATE TABLE account (id INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL, balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
                                  opened DATETIME DEFAULT CURRENT_TIMESTAMP, closed BOOLEAN);
            CREATE TABLE entry (id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES account(id) ON DELETE CASCADE, amount INTEGER);
            CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT);
            CREATE TRIGGER account_audit AFTER UPDATE OF balance ON account BEGIN
                INSERT INTO audit (what) VALUES ('balance of ' || new.id || ': ' || old.balance || ' -> ' || new.balance);
            END;
            CREATE TRIGGER no_frozen BEFORE UPDATE ON account WHEN old.owner = 'frozen' BEGIN
                SELECT RAISE(ABORT, 'frozen accounts do not change');
            END;
            INSERT INTO account (owner, balance, opened, closed) VALUES ('ann', 10, '2020-01-01 09:00:00', 0), ('bob', 5, '2021-05-05 10:00:00', 0),
                                                                        ('frozen', 1, '2019-01-01 00:00:00', 1);
            INSERT INTO entry (account_id, amount) VALUES (1, 10), (1, -2), (2, 5);
            DELETE FROM account WHERE id = 3;
            INSERT INTO account (id, owner, balance, opened, closed) VALUES (3, 'frozen', 1, '2019-01-01 00:00:00', 1);
            INSERT INTO account (owner, balance) VALUES ('gone', 0);
            DELETE FROM account WHERE owner = 'gone';
            """)
    }

    @Test func checksTriggersDefaultsAndCascades() throws {
        let url = try Self.ruled()
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        // AUTOINCREMENT: the key after the largest the table ever had (4 was deleted).
        let new = try store.insert("account", ["owner": .string("cy")])
        #expect(new.rawValue == "account/5")
        try store.update(ObjectID("account/1"), ["balance": .int(7), "closed": .bool(true)])
        try store.save()
        // DEFAULTs of columns given no value; the trigger's audit row; a Boolean as 1.
        #expect(try Self.rows(url, "SELECT balance, opened IS NOT NULL, closed FROM account WHERE id = 5") == [[.integer(0), .integer(1), .null]])
        #expect(try Self.rows(url, "SELECT balance, closed FROM account WHERE id = 1") == [[.integer(7), .integer(1)]])
        #expect(try Self.rows(url, "SELECT what FROM audit") == [[.text("balance of 1: 10 -> 7")]])
        // CHECK and RAISE refuse, naming the object.
        let before = try Self.state(url)
        do {
            try store.update(ObjectID("account/2"), ["balance": .int(-1)])
            Issue.record("a negative balance was stored")
        } catch {
            #expect(error.code == .constraintViolation)
            #expect(error.message == "account 'account/2': the change breaks the CHECK constraint balance >= 0 of account", "\(error)")
        }
        do {
            try store.update(ObjectID("account/3"), ["balance": .int(2)])
            Issue.record("a frozen account changed")
        } catch {
            #expect(error.message == "account 'account/3': a trigger of the database refused the change: frozen accounts do not change", "\(error)")
        }
        #expect(!store.hasChanges)
        #expect(try Self.state(url) == before)
        // ON DELETE CASCADE: the database deletes the entries.
        try store.delete(ObjectID("account/1"))
        try store.save()
        #expect(try Self.rows(url, "SELECT account_id, amount FROM entry ORDER BY id") == [[.integer(2), .integer(5)]])
        #expect(try store.count(FetchRequest(statement: "entry")) == 1)
    }

    /// ON DELETE RESTRICT refuses a delete (when the changes are saved), naming the row that refers.
    @Test func restrictRefusesADelete() throws {
        let url = try ForeignDatabaseTests.database("""
            CREATE TABLE shelf (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, shelf_id INTEGER REFERENCES shelf(id) ON DELETE RESTRICT);
            INSERT INTO shelf VALUES (1, 'top'), (2, 'bottom');
            INSERT INTO book VALUES (1, 'Emma', 1);
            """)
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let before = try Self.state(url)
        do {
            try store.delete(ObjectID("shelf/1"))
            try store.save()
            Issue.record("a shelf with a book was deleted")
        } catch {
            #expect(error.code == .deleteDenied)
            #expect(error.message == "cannot delete the shelf row with id = 1: book 'book/1' still refers to it (book.shelf_id REFERENCES shelf(id) ON DELETE RESTRICT)", "\(error)")
        }
        store.rollback()
        #expect(try Self.state(url) == before)
        try store.delete(ObjectID("shelf/2"))
        try store.save()
        #expect(try Self.rows(url, "SELECT id FROM shelf") == [[.integer(1)]])
    }

    /// A foreign key SQLite cannot check (its parent column is not unique) is named, not
    /// passed over: Sift's changes keep the database's foreign keys.
    @Test func aForeignKeySQLiteCannotCheckIsNamed() throws {
        let url = try ForeignDatabaseTests.database("""
            CREATE TABLE p (code TEXT, name TEXT);
            CREATE TABLE c (id INTEGER PRIMARY KEY, code TEXT REFERENCES p(code), n INTEGER);
            INSERT INTO p VALUES ('a', 'A');
            INSERT INTO c VALUES (1, 'a', 1);
            """)
        defer { ForeignDatabaseTests.remove(url) }
        let before = try Self.state(url)
        let store = try SQLiteStore.open(at: url)
        do {
            try store.insert("c", ["n": .int(2)])
            Issue.record("a row went in under a foreign key SQLite cannot check")
        } catch {
            #expect(error.code == .database)
            #expect(error.message.hasPrefix(#"the database declares a foreign key SQLite cannot check (SQLite: foreign key mismatch - "c" referencing "p")"#), "\(error)")
        }
        store.rollback()
        #expect(try Self.state(url) == before)
    }

    // MARK: Column types after a write

    @Test func typesChosenFromTheRowsFollowWhatAWriteStores() throws {
        var rows: [String] = []
        for i in 1...3000 { rows.append("(\(i), 'k\(i)', NULL)") }
        let url = try ForeignDatabaseTests.database("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, code INT, seen DATE);
            INSERT INTO t VALUES \(rows.joined(separator: ", "));
            """)
        defer { ForeignDatabaseTests.remove(url) }
        let cache = SQLiteTypeCache(directory: url.deletingLastPathComponent().appendingPathComponent("cache"))
        let store = try SQLiteStore.open(at: url, typeCache: cache)
        #expect(store.model.entity(named: "t")?.attribute(named: "code")?.type == .string)
        // "1500" into an INT column is stored as the integer 1500 (SQLite's affinity), in the
        // middle of a table too large to read whole; an empty DATE column gets dates.
        try store.update(ObjectID("t/1500"), ["code": .string("1500"), "seen": .string("2024-05-06")])
        try store.save()
        #expect(try Self.rows(url, "SELECT typeof(code), code, seen FROM t WHERE id = 1500") == [[.text("integer"), .integer(1500), .text("2024-05-06")]])
        #expect(store.model.entity(named: "t")?.attribute(named: "code")?.type == .undefined)
        #expect(store.model.entity(named: "t")?.attribute(named: "seen")?.type == .date)
        #expect(try store.count(FetchRequest(statement: "t WHERE code == 1500")) == 1)
        #expect(try store.count(FetchRequest(statement: #"t WHERE seen == "2024-05-06""#)) == 1)
        // A later open takes the types the cache kept for the file as Sift left it.
        let reopened = try SQLiteStore.open(at: url, typeCache: cache)
        #expect(reopened.model.entity(named: "t")?.attribute(named: "code")?.type == .undefined)
        #expect(try reopened.count(FetchRequest(statement: "t WHERE code == 1500")) == 1)
    }

    @Test func aDateOutsideAColumnsOneTextFormStillCompares() throws {
        var rows: [String] = []
        for i in 0..<3000 { rows.append("(\(i + 1), '20\(10 + i % 10)-0\(1 + i % 9)-1\(i % 10)')") }
        let url = try ForeignDatabaseTests.database("""
            CREATE TABLE d (id INTEGER PRIMARY KEY, day DATE);
            CREATE INDEX d_day ON d(day);
            INSERT INTO d VALUES \(rows.joined(separator: ", "));
            """)
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let noon = try FetchRequest(statement: #"COUNT d WHERE day < "2015-01-10 12:00""#)
        let before = try store.count(noon)
        // A time of day in a column of days: written as `YYYY-MM-DD HH:MM:SS`, in the same style.
        try store.update(ObjectID("d/1500"), ["day": .string("2015-01-10T09:30:00Z")])
        #expect(try store.count(noon) == before + 1)
        try store.save()
        #expect(try Self.value(url, "SELECT day FROM d WHERE id = 1500") == .text("2015-01-10 09:30:00"))
        let expected = try Self.value(url, "SELECT count(*) FROM d WHERE julianday(day) < julianday('2015-01-10 12:00')")
        #expect(expected == .integer(Int64(before + 1)))
        #expect(try store.count(noon) == before + 1)
    }

    // MARK: Read-only

    @Test func aReadOnlyStoreIsQueriedAndNeverWritten() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let before = try Self.state(url)
        let store = try SQLiteStore.open(at: url, readOnly: true)
        #expect(store.isReadOnly)
        #expect(try store.count(FetchRequest(statement: "Track WHERE Album.Artist.Name BEGINSWITH 'L'")) > 0)
        let attempts: [(String, () throws -> Void)] = [
            ("insert", { try store.insert("Artist", ["Name": .string("New")]) }),
            ("update", { try store.update(ObjectID("Artist/1"), ["Name": .string("New")]) }),
            ("delete", { try store.delete(ObjectID("Artist/1")) }),
            ("batch", { try store.batchUpdate(entity: "Artist", predicate: nil, set: ["Name": ExpressionNode(format: #""x""#)]) }),
            ("unit", { try store.performChanges { _ = try store.insert("Artist", ["Name": .string("New")]) } }),
        ]
        for (name, attempt) in attempts {
            do {
                try attempt()
                Issue.record("\(name) was accepted")
            } catch let error as StoreError {
                #expect(error.code == .readOnly, "\(name): \(error)")
                #expect(error.message == "Chinook_Sqlite.sqlite was opened read-only; it can be queried but not changed", "\(name): \(error)")
            }
        }
        try store.save()
        #expect(try Self.state(url) == before)
        #expect(try !SQLiteStore.open(at: url).isReadOnly)
    }

    @Test(.enabled(if: geteuid() != 0, "root writes files without write permission"))
    func aFileWithoutWritePermissionIsQueriedAndNeverWritten() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        let before = try Self.state(url)
        let store = try SQLiteStore.open(at: url)
        #expect(try store.count(FetchRequest(statement: "Artist")) == 275)
        do {
            try store.insert("Artist", ["Name": .string("New")])
            Issue.record("the insert was accepted")
        } catch {
            #expect(error.code == .readOnly)
            #expect(error.message == "Chinook_Sqlite.sqlite cannot be written (no write permission); it can be queried but not changed", "\(error)")
        }
        #expect(try Self.state(url) == before)
    }

    @Test func readingAForeignDatabaseLeavesEveryByte() throws {
        let url = try Self.lahman()
        defer { ForeignDatabaseTests.remove(url) }
        let before = try Self.state(url)
        #expect(before.0[18] == 1 && before.0[19] == 1)
        do {
            let store = try SQLiteStore.open(at: url)
            #expect(try store.count(FetchRequest(statement: #"Batting WHERE player.debut < "1950-01-01""#)) == 1)
            _ = store.model
            #expect(!store.isReadOnly)
        }
        #expect(try Self.state(url) == before)
    }

    @Test func aCoreDataStoreIsOnlyRead() throws {
        let url = try ForeignDatabaseTests.database("""
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
            INSERT INTO ZNOTE VALUES (1, 1, 1, 'hello');
            """)
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        #expect(store.isReadOnly)
        #expect(throws: StoreError.self) { try store.update(ObjectID("ZNOTE/1"), ["ZTITLE": .string("x")]) }
    }

    // MARK: Interrupts

    @Test func anInterruptedWriteRollsBack() throws {
        let url = try ForeignDatabaseTests.database("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER);
            CREATE TABLE log (n INTEGER);
            CREATE TRIGGER slow AFTER UPDATE ON t BEGIN
                INSERT INTO log WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000000) SELECT x FROM c;
            END;
            INSERT INTO t VALUES (1, 1), (2, 2);
            """)
        defer { ForeignDatabaseTests.remove(url) }
        let before = try Self.state(url)
        let store = try SQLiteStore.open(at: url)
        try store.insert("t", ["n": .int(3)])
        let interrupted = store
        // One interrupt, once the trigger is under way (it runs for many seconds).
        let interrupter = Thread {
            usleep(500_000)
            interrupted.interrupt()
        }
        interrupter.start()
        #expect(throws: StoreError.interrupted) { try store.update(ObjectID("t/1"), ["n": .int(10)]) }
        // The change before it is still pending (made again after SQLite rolled back); a
        // rollback leaves the file as it was.
        #expect(store.hasChanges)
        #expect(try store.count(FetchRequest(statement: "t")) == 3)
        store.rollback()
        #expect(try Self.state(url) == before)
        #expect(try Self.value(url, "SELECT count(*) FROM log") == .integer(0))
    }
}
