import ChinookSupport
import Foundation
import Sift
import SiftSQLite
import Synchronization
import Testing
@testable import SiftCLI

/// What the REPL shows of a database Sift did not create (issue 28 §6), on the Chinook-shaped
/// database and a Lahman-shaped one (a TEXT key that a foreign key refers to): to-one
/// relationships as the keys they refer to in the modes people read, object IDs in those
/// programs read.
@Suite struct ForeignDatabaseREPLTests {
    /// A folder holding a new Chinook-shaped database and a Lahman-shaped `baseball.sqlite`;
    /// remove it when done.
    static func databases() throws -> (chinook: String, baseball: String, folder: URL) {
        let chinook = try ChinookDatabase.makeTemporary()
        let folder = chinook.deletingLastPathComponent()
        let baseball = folder.appendingPathComponent("baseball.sqlite")
        let database = try SQLiteDatabase(path: baseball.path, options: [.create])
        try database.execute("""
            CREATE TABLE People (playerID TEXT NOT NULL PRIMARY KEY, nameLast TEXT NOT NULL, debut DATE);
            CREATE TABLE Batting (ID INTEGER PRIMARY KEY, playerID TEXT NOT NULL REFERENCES People(playerID), yearID INTEGER, HR INTEGER);
            CREATE INDEX Batting_player ON Batting(playerID);
            INSERT INTO People VALUES ('ruthba01', 'Ruth', '1914-07-11'), ('marisro01', 'Maris', '1957-04-16');
            INSERT INTO Batting VALUES (41676, 'marisro01', 1961, 61), (2, 'ruthba01', 1927, 60), (3, 'ruthba01', 1928, 54);
            """)
        return (chinook.path, baseball.path, folder)
    }

    static func run(_ lines: [String], on path: String, width: Int? = nil) throws -> String {
        try SessionRenderingTests.run(lines, on: path, width: width)
    }

    // MARK: To-one relationships

    @Test(arguments: [SessionSettings.Mode.table, .box, .markdown])
    func aToOneShowsTheKeyItRefersToInTables(_ mode: SessionSettings.Mode) throws {
        let (_, baseball, folder) = try Self.databases()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try Self.run([".mode \(mode)", "Batting WHERE yearID == 1961"], on: baseball)
        #expect(text.contains("marisro01"))
        #expect(!text.contains("People/"), "\(text)")
        let row = try #require(text.split(separator: "\n").first { $0.contains("Batting/41676") })
        #expect(row.components(separatedBy: "marisro01").count == 3, "playerID and player: \(row)")
    }

    @Test func lineModeAndVerticalRecordsShowTheKey() throws {
        let (_, baseball, folder) = try Self.databases()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.run([".mode line", "Batting WHERE yearID == 1961"], on: baseball).contains("  player = marisro01\n"))
        #expect(try Self.run([".x on", "Batting WHERE yearID == 1961"], on: baseball).contains("player   | marisro01\n"))
    }

    @Test(arguments: [("json", #""player":"People/2""#), ("jsonl", #""player":"People/2""#), ("csv", ",People/2\r\n")])
    func programsKeepObjectIDs(_ mode: String, _ expected: String) throws {
        let (_, baseball, folder) = try Self.databases()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try Self.run([".mode \(mode)", "Batting WHERE yearID == 1961"], on: baseball)
        #expect(text.contains(expected), "\(text)")
        #expect(!text.contains(",marisro01\r\n") && !text.contains(#""player":"marisro01""#))
        // The same bytes as sift query prints.
        let query = try SiftBinary.run("query", "--store", baseball, "--output", mode, "Batting WHERE yearID == 1961")
        #expect(query.status == 0)
        #expect(text == query.stdout, "\(mode)")
    }

    @Test func selectedAndGroupedToOnesShowTheirKeys() throws {
        let (_, baseball, folder) = try Self.databases()
        defer { try? FileManager.default.removeItem(at: folder) }
        let select = "SELECT player, sum:(HR) AS hr FROM Batting GROUP BY player SORT BY hr DESC"
        #expect(try Self.run([select], on: baseball) == """
            player      hr
            ---------  ---
            ruthba01   114
            marisro01   61
            (2 rows)

            """)
        #expect(try Self.run(["SELECT yearID, player AS who FROM Batting WHERE HR > 55 SORT BY yearID"], on: baseball).contains("  1961  marisro01\n"))
        let json = try Self.run([".mode json", select], on: baseball)
        #expect(json.contains(#"{"player":"People/2","hr":61}"#), "json keeps object IDs: \(json)")
        #expect(try Self.run([".engine both", select], on: baseball).contains("engines agree: 2 rows"))
    }

    @Test func chinooksToOnesShowTheirIntegerKeys() throws {
        let (chinook, _, folder) = try Self.databases()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase(path: chinook, options: [.readOnly])
        let artist = try database.scalar("SELECT ArtistId FROM Album WHERE AlbumId = 1")
        let text = try Self.run(["SELECT AlbumId, Artist FROM Album WHERE AlbumId == 1", "Employee WHERE EmployeeId == 2"], on: chinook)
        let key = "\(artist)"
        #expect(text.contains("AlbumId  Artist\n-------  ------\n      1  " + String(repeating: " ", count: 6 - key.count) + key + "\n"), "\(text)")
        #expect(!text.contains("Artist/") && !text.contains("Employee/1 "), "ReportsTo shows 1: \(text)")
    }

    @Test func siftsOwnStoresShowObjectIDs() throws {
        let directory = try TranscriptTests.fixtureDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try Self.run(["SELECT title, category FROM Note WHERE title == 'Groceries'"], on: directory.appendingPathComponent("notes.sqlite").path)
        #expect(text.contains("Groceries  C2\n"), "\(text)")
    }

    // MARK: .describe, .tables, .indexes

    @Test func describeListsTheDatabasesIndexesAndNotNullColumns() throws {
        let (chinook, _, folder) = try Self.databases()
        defer { try? FileManager.default.removeItem(at: folder) }
        let invoice = try Self.run([".describe Invoice"], on: chinook)
        #expect(invoice.contains("  InvoiceDate        Date        yes\n"), "\(invoice)")
        #expect(invoice.contains("  BillingCity        String      no\n"))
        #expect(invoice.contains("  Total              Double      yes\n") || invoice.contains("  Total              Decimal     yes\n"), "\(invoice)")
        #expect(invoice.contains("  Customer      Customer     to-one   yes"), "its NOT NULL foreign key: \(invoice)")
        #expect(invoice.contains("  indexes:                 IFK_InvoiceCustomerId (CustomerId)\n"))
        let playlistTrack = try Self.run([".describe PlaylistTrack"], on: chinook)
        #expect(playlistTrack.contains("  indexes:                 IFK_PlaylistTrackTrackId (TrackId), sqlite_autoindex_PlaylistTrack_1 (PlaylistId, TrackId) unique\n"))
        #expect(playlistTrack.contains("  uniqueness constraints:  (PlaylistId, TrackId)\n"), "\(playlistTrack)")
        let employee = try Self.run([".describe Employee"], on: chinook)
        #expect(employee.contains("  ReportsTo     Employee     to-one   no"), "\(employee)")
        #expect(employee.contains("  indexes:                 IFK_EmployeeReportsTo (ReportsTo)\n"))
    }

    @Test func tablesAndIndexesAreListedAsSQLite3ListsThem() throws {
        let (chinook, baseball, folder) = try Self.databases()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.run([".tables"], on: chinook) == """
            Album          Employee       InvoiceLine    PlaylistTrack
            Artist         Genre          MediaType      Track
            Customer       Invoice        Playlist

            """)
        #expect(try Self.run([".tables inv%", ".tables %a_", ".tables %l_st"], on: chinook) == "Invoice      InvoiceLine\nPlaylist\n")
        #expect(try Self.run([".indexes"], on: chinook) == """
            IFK_AlbumArtistId                 IFK_PlaylistTrackTrackId
            IFK_CustomerSupportRepId          IFK_TrackAlbumId
            IFK_EmployeeReportsTo             IFK_TrackGenreId
            IFK_InvoiceCustomerId             IFK_TrackMediaTypeId
            IFK_InvoiceLineInvoiceId          sqlite_autoindex_PlaylistTrack_1
            IFK_InvoiceLineTrackId

            """)
        #expect(try Self.run([".indexes invoice", ".indices Track"], on: chinook)
                == "IFK_InvoiceCustomerId\nIFK_TrackAlbumId      IFK_TrackGenreId      IFK_TrackMediaTypeId\n")
        #expect(try Self.run([".indexes"], on: baseball) == "Batting_player             sqlite_autoindex_People_1\n")
        // sqlite3 itself agrees, but for the spaces it leaves at the ends of lines.
        if let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first(where: FileManager.default.isExecutableFile(atPath:)) {
            for command in [".tables", ".indexes", ".indexes Track"] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: sqlite3)
                process.arguments = [chinook, command]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let listed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                let trimmed = listed.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
                #expect(try Self.run([command], on: chinook) == trimmed, "\(command)")
            }
        }
    }

    @Test func aStoreSiftMadeHasTablesButNoDatabaseIndexes() throws {
        let directory = try TranscriptTests.fixtureDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = directory.appendingPathComponent("notes.sqlite").path
        #expect(try Self.run([".tables"], on: notes) == "Category  Note      Tag\n")
        #expect(try Self.run([".indexes"], on: notes) == "note: notes.sqlite is a store Sift made: its model declares its indexes (.describe ENTITY lists them)\n")
    }

    @Test(arguments: [
        ("Invoice", "inv%", true), ("Invoice", "%LINE", false), ("InvoiceLine", "%line", true), ("Track", "tr_ck", true),
        ("Track", "tr_k", false), ("Track", "%", true), ("", "%", true), ("", "_", false), ("a%b", "a%b", true), ("Größe", "größe", true),
        ("Größe", "GRÖSSE", false), ("ab", "%%b%", true),
    ])
    func likePatterns(_ name: String, _ pattern: String, _ matches: Bool) {
        #expect(NameColumns.matches(name, like: pattern) == matches)
    }

    // MARK: Ctrl-C

    /// The issue's query (several to-many hops: minutes in memory, a while in SQL), stopped as
    /// Ctrl-C stops it: the session says `interrupted`, not SQLite's error with the SQL of the
    /// relationship it was reading.
    @Test func anInterruptedStatementSaysInterrupted() throws {
        let (chinook, _, folder) = try Self.databases()
        defer { try? FileManager.default.removeItem(at: folder) }
        let collected = Mutex("")
        let session = Session(output: .collecting(into: { text in collected.withLock { $0 += text } }), source: .interactive)
        session.open(store: try SessionStores.open(chinook), label: "Chinook_Sqlite.sqlite")
        let stop = try #require(StatementInterrupter.stopAction(for: session.store))
        let finished = Atomic<Bool>(false)
        let stopped = DispatchSemaphore(value: 0)
        let interrupter = Thread {
            while !finished.load(ordering: .relaxed) {
                usleep(10_000)
                stop()
            }
            stopped.signal()
        }
        interrupter.start()
        let started = ContinuousClock.now
        // Six steps with a test SQL cannot run (a needle read from the row): seconds of the
        // evaluator's work on SQL's rows, reading relationships a batch at a time.
        let path = "playlisttracks.Playlist.playlisttracks.Track.invoicelines.Invoice.BillingCountry"
        for statement in ["COUNT Track WHERE ANY \(path) BEGINSWITH[n] uppercase:(Name)",
                          "Track WHERE ANY \(path) BEGINSWITH[n] uppercase:(Name)"] {
            session.feed(statement)
        }
        finished.store(true, ordering: .relaxed)
        stopped.wait()
        #expect(ContinuousClock.now - started < .seconds(10))
        let text = collected.withLock { $0 }
        #expect(text.hasSuffix("error: interrupted\n"), "\(text)")
        #expect(!text.contains("SELECT") && !text.contains("code 9") && !text.contains("reading"), "\(text)")
    }

    // MARK: .sql on

    /// `.sql on` prints SQL that plain SQLite (sqlite3, without Sift's functions) runs as it is,
    /// and it counts what Sift counts; a statement calling Sift's functions says so.
    @Test(arguments: [
        ("COUNT Track WHERE Milliseconds > 300000 AND Name BEGINSWITH \"Love\"", nil),
        ("COUNT Invoice WHERE BillingCountry == \"Canada\" AND Total > 10", nil),
        ("COUNT Customer WHERE Company == nil OR Country IN {\"France\", \"Brazil\"}", nil),
        ("COUNT Album WHERE Artist.Name ENDSWITH \"Rock\" AND Title != \"it's\"", nil),
        ("COUNT Track WHERE Name CONTAINS[c] \"love\"", "sift_contains"),
    ] as [(String, String?)])
    func sqlOnPrintsSQLThatSQLite3Runs(_ statement: String, _ siftFunction: String?) throws {
        let (chinook, _, folder) = try Self.databases()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = try Self.run([".sql on", statement], on: chinook).split(separator: "\n").map(String.init)
        let sql = lines[0]
        #expect(sql.hasSuffix(";") && !sql.contains("?"), "\(sql)")
        #expect(!lines.contains { $0.hasPrefix("  ?") }, "no binding lines")
        let count = try #require(lines.firstIndex(of: "count").map { lines[$0 + 2].trimmingCharacters(in: .whitespaces) })
        guard let siftFunction else {
            #expect(lines[1] == "count", "\(lines)")
            // A connection without Sift's functions, as sqlite3 is.
            let database = try SQLiteDatabase(path: chinook, options: [.readOnly])
            #expect(try database.scalar(String(sql.dropLast())) == .integer(Int64(count)!), "\(sql)")
            return
        }
        #expect(lines[1] == "-- calls Sift's \(siftFunction): sqlite3 cannot run it", "\(lines)")
    }
}
