import ChinookSupport
import Foundation
import SiftSQLite
import Testing

/// `sift update`, `sift delete`, `sift import` and the REPL's changes on databases Sift did not
/// create (issue 28 §5), through the binary, checked with SQL reading the file; and
/// `--read-only`, which leaves the file as it was.
@Suite struct ForeignDatabaseWriteCommandTests {
    static func rows(_ path: String, _ sql: String) throws -> [[SQLiteValue]] {
        try SQLiteDatabase(path: path, options: [.readOnly]).rows(sql)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func updateDeleteAndImportChangeChinooksRows() throws {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let path = url.path
        let updated = try SiftBinary.run("update", "--store", path, #"Track SET UnitPrice = 1.29, Name = uppercase:(Name) WHERE TrackId <= 3"#)
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stdout == "updated 3 objects\n")
        let tracks = try Self.rows(path, "SELECT typeof(UnitPrice), UnitPrice, Name = upper(Name) FROM Track WHERE TrackId <= 3")
        #expect(tracks == Array(repeating: [.text("real"), .real(1.29), .integer(1)], count: 3), "\(tracks)")
        let dated = try SiftBinary.run("update", "--store", path, #"Invoice SET InvoiceDate = "2026-01-02" WHERE InvoiceId == 1"#)
        #expect(dated.status == 0, "\(dated.stderr)")
        #expect(try Self.rows(path, "SELECT InvoiceDate FROM Invoice WHERE InvoiceId = 1") == [[.text("2026-01-02 00:00:00")]])

        // A delete the database's foreign keys refuse: nothing changes.
        let before = try Self.bytes(path)
        let refused = try SiftBinary.run("delete", "--store", path, "Genre WHERE GenreId == 1")
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: cannot delete the Genre row with GenreId = 1: Track 'Track/"), "\(refused.stderr)")
        #expect(refused.stderr.contains("(Track.GenreId REFERENCES Genre(GenreId))"), "\(refused.stderr)")
        #expect(try Self.bytes(path) == before)
        // One nothing refers to.
        let deleted = try SiftBinary.run("delete", "--store", path, "InvoiceLine WHERE Invoice.InvoiceId == 1")
        #expect(deleted.stdout == "deleted 1 object\n", "\(deleted.stderr)")
        #expect(try Self.rows(path, "SELECT count(*) FROM InvoiceLine WHERE InvoiceId = 1") == [[.integer(0)]])

        // Import: rows take the next keys; a to-one by the foreign key column.
        let csv = url.deletingLastPathComponent().appendingPathComponent("albums.csv")
        try Data("Title,ArtistId\nFirst,1\nSecond,2\n".utf8).write(to: csv)
        let imported = try SiftBinary.run("import", "--store", path, "--entity", "Album", csv.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasSuffix("imported 2 objects (Album 2)\n"), "\(imported.stdout)")
        #expect(try Self.rows(path, "SELECT AlbumId, Title, ArtistId FROM Album WHERE AlbumId > 347 ORDER BY AlbumId")
                == [[.integer(348), .text("First"), .integer(1)], [.integer(349), .text("Second"), .integer(2)]])
        let query = try SiftBinary.run("query", "--store", path, #"Album WHERE Title == "Second""#, "--properties", "Title,Artist")
        #expect(query.stdout.contains(#""@id":"Album/349""#) && query.stdout.contains(#""Artist":"Artist/2""#), "\(query.stdout)")

        // A broken NOT NULL: the import changes nothing, and says where.
        try Data("Title\nNo artist\n".utf8).write(to: csv)
        let beforeImport = try Self.bytes(path)
        let broken = try SiftBinary.run("import", "--store", path, "--entity", "Album", csv.path)
        #expect(broken.status == 1)
        #expect(broken.stderr == "error: \(csv.path): CSV line 2: Album 'Album/350': ArtistId cannot be nil (Album.ArtistId is NOT NULL)\n", "\(broken.stderr)")
        #expect(try Self.bytes(path) == beforeImport)
    }

    @Test func aLahmanShapedDatabaseKeepsItsForms() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lahman.sqlite").path
        let database = try SQLiteDatabase(path: path, options: [.create])
        try database.execute("""
            CREATE TABLE People (playerID TEXT PRIMARY KEY, nameFirst TEXT, nameLast TEXT, weight INTEGER, debut DATE);
            CREATE TABLE Batting (ID INTEGER PRIMARY KEY, playerID TEXT NOT NULL REFERENCES People(playerID), yearID INTEGER, HR INTEGER);
            INSERT INTO People VALUES ('marisro01', 'Roger', 'Maris', 197, '1957-04-16'), ('ruthba01', 'Babe', 'Ruth', 215, '1914-07-11');
            INSERT INTO Batting VALUES (1, 'marisro01', 1961, 61), (2, 'ruthba01', 1927, 60);
            CREATE TABLE Plain ("playerID" TEXT, "yearID" TEXT, "HR" TEXT);
            INSERT INTO Plain VALUES ('marisro01', '1961', '61');
            """)
        let people = directory.appendingPathComponent("people.csv")
        try Data("playerID,nameFirst,nameLast,weight,debut\njudgeaa01,Aaron,Judge,282,2016-08-13\n".utf8).write(to: people)
        let imported = try SiftBinary.run("import", "--store", path, "--entity", "People", people.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Self.rows(path, "SELECT rowid, weight, debut FROM People WHERE playerID = 'judgeaa01'") == [[.integer(3), .integer(282), .text("2016-08-13")]])
        let batting = directory.appendingPathComponent("batting.csv")
        try Data("playerID,yearID,HR\njudgeaa01,2022,62\n".utf8).write(to: batting)
        #expect(try SiftBinary.run("import", "--store", path, "--entity", "Batting", batting.path).status == 0)
        let plain = directory.appendingPathComponent("plain.csv")
        try Data("playerID,yearID,HR\njudgeaa01,2022,62\n".utf8).write(to: plain)
        #expect(try SiftBinary.run("import", "--store", path, "--entity", "Plain", plain.path).status == 0)
        #expect(try Self.rows(path, "SELECT rowid, yearID, typeof(yearID) FROM Plain ORDER BY rowid") == [[.integer(1), .text("1961"), .text("text")], [.integer(2), .text("2022"), .text("text")]])
        let count = try SiftBinary.run("query", "--store", path, #"COUNT Batting WHERE player.debut >= "2000-01-01""#)
        #expect(count.stdout == "{\"count\": 1}\n", "\(count.stderr)")
        // A second row with a player's key: the TEXT PRIMARY KEY's uniqueness, named.
        let twice = try SiftBinary.run("import", "--store", path, "--entity", "People", people.path)
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("People 'People/4' has the same playerID as 'People/3' (a UNIQUE constraint of People)"), "\(twice.stderr)")
        let moved = try SiftBinary.run("update", "--store", path, #"People SET debut = "2016-08-14" WHERE playerID == "judgeaa01""#)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(try Self.rows(path, "SELECT debut FROM People WHERE playerID = 'judgeaa01'") == [[.text("2016-08-14")]])
    }

    @Test func readOnlyLeavesTheFileAsItWas() throws {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let path = url.path
        let before = try Self.bytes(path)
        let refused = try SiftBinary.run(path, "--read-only", #"Artist SET Name = "X" WHERE ArtistId == 1"#)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Chinook_Sqlite.sqlite was opened read-only; it can be queried but not changed"), "\(refused.stderr)")
        let counted = try SiftBinary.run("--read-only", path, "COUNT Artist")
        #expect(counted.status == 0, "\(counted.stderr)")
        #expect(counted.stdout.contains("275"), "\(counted.stdout)")
        for command in ["query", "sql", "explain"] {
            let read = try SiftBinary.run(command, "--store", path, "--read-only", #"Album WHERE Artist.Name BEGINSWITH "L""#)
            #expect(read.status == 0, "\(command): \(read.stderr)")
        }
        #expect(try SiftBinary.run("schema", "--store", path, "--read-only").status == 0)
        // In a session, .open --read-only as sqlite3's .open --readonly; a script too.
        let session = try SiftBinary.run("repl", "--store", path, stdin: """
            .open --read-only \(path)
            Artist SET Name = "X" WHERE ArtistId == 1
            DELETE FROM Track
            """)
        #expect(session.stderr.components(separatedBy: "was opened read-only").count == 3, "\(session.stderr)")
        let script = url.deletingLastPathComponent().appendingPathComponent("change.sift")
        try Data("DELETE FROM Track\n".utf8).write(to: script)
        let ran = try SiftBinary.run("run", "--store", path, "--read-only", script.path)
        #expect(ran.status == 1 && ran.stderr.contains("was opened read-only"), "\(ran.stderr)")
        #expect(try Self.bytes(path) == before)
        for suffix in ["-journal", "-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
    }
}
