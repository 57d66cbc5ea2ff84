import Foundation
import SiftSQLite

/// A database shaped like Chinook (`Chinook_Sqlite.sql`, the sample database of a music store),
/// made with Chinook's own DDL — bracketed names, `NVARCHAR`, `DATETIME` text dates, money as
/// `NUMERIC(10,2)`, composite keys, declared foreign keys and their `IFK_` indexes — and filled
/// with deterministic rows of Chinook's sizes (275 artists, 347 albums, 3,503 tracks, 59
/// customers, 412 invoices, 2,228 invoice lines, 18 playlists, 8,715 playlist tracks), so the
/// tests ask the questions a user asks of the real file and compare with hand-written SQL.
///
/// Invoice dates run from 2021-01-01 to 2025-12-14 as `YYYY-MM-DD 00:00:00` text, as in the
/// current Chinook; employees' dates likewise. `scale` multiplies the tracks, invoices, lines
/// and playlist entries (for tests that need more rows).
public enum ChinookDatabase {
    /// Chinook's DDL (tables, keys, foreign keys and indexes), as `Chinook_Sqlite.sql` writes it.
    public static let schema = """
        CREATE TABLE [Album] ([AlbumId] INTEGER NOT NULL, [Title] NVARCHAR(160) NOT NULL, [ArtistId] INTEGER NOT NULL,
            CONSTRAINT [PK_Album] PRIMARY KEY ([AlbumId]),
            FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [Artist] ([ArtistId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Artist] PRIMARY KEY ([ArtistId]));
        CREATE TABLE [Customer] ([CustomerId] INTEGER NOT NULL, [FirstName] NVARCHAR(40) NOT NULL, [LastName] NVARCHAR(20) NOT NULL,
            [Company] NVARCHAR(80), [Address] NVARCHAR(70), [City] NVARCHAR(40), [State] NVARCHAR(40), [Country] NVARCHAR(40),
            [PostalCode] NVARCHAR(10), [Phone] NVARCHAR(24), [Fax] NVARCHAR(24), [Email] NVARCHAR(60) NOT NULL, [SupportRepId] INTEGER,
            CONSTRAINT [PK_Customer] PRIMARY KEY ([CustomerId]),
            FOREIGN KEY ([SupportRepId]) REFERENCES [Employee] ([EmployeeId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [Employee] ([EmployeeId] INTEGER NOT NULL, [LastName] NVARCHAR(20) NOT NULL, [FirstName] NVARCHAR(20) NOT NULL,
            [Title] NVARCHAR(30), [ReportsTo] INTEGER, [BirthDate] DATETIME, [HireDate] DATETIME, [Address] NVARCHAR(70),
            [City] NVARCHAR(40), [State] NVARCHAR(40), [Country] NVARCHAR(40), [PostalCode] NVARCHAR(10), [Phone] NVARCHAR(24),
            [Fax] NVARCHAR(24), [Email] NVARCHAR(60),
            CONSTRAINT [PK_Employee] PRIMARY KEY ([EmployeeId]),
            FOREIGN KEY ([ReportsTo]) REFERENCES [Employee] ([EmployeeId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [Genre] ([GenreId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Genre] PRIMARY KEY ([GenreId]));
        CREATE TABLE [Invoice] ([InvoiceId] INTEGER NOT NULL, [CustomerId] INTEGER NOT NULL, [InvoiceDate] DATETIME NOT NULL,
            [BillingAddress] NVARCHAR(70), [BillingCity] NVARCHAR(40), [BillingState] NVARCHAR(40), [BillingCountry] NVARCHAR(40),
            [BillingPostalCode] NVARCHAR(10), [Total] NUMERIC(10,2) NOT NULL,
            CONSTRAINT [PK_Invoice] PRIMARY KEY ([InvoiceId]),
            FOREIGN KEY ([CustomerId]) REFERENCES [Customer] ([CustomerId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [InvoiceLine] ([InvoiceLineId] INTEGER NOT NULL, [InvoiceId] INTEGER NOT NULL, [TrackId] INTEGER NOT NULL,
            [UnitPrice] NUMERIC(10,2) NOT NULL, [Quantity] INTEGER NOT NULL,
            CONSTRAINT [PK_InvoiceLine] PRIMARY KEY ([InvoiceLineId]),
            FOREIGN KEY ([InvoiceId]) REFERENCES [Invoice] ([InvoiceId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
            FOREIGN KEY ([TrackId]) REFERENCES [Track] ([TrackId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [MediaType] ([MediaTypeId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_MediaType] PRIMARY KEY ([MediaTypeId]));
        CREATE TABLE [Playlist] ([PlaylistId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Playlist] PRIMARY KEY ([PlaylistId]));
        CREATE TABLE [PlaylistTrack] ([PlaylistId] INTEGER NOT NULL, [TrackId] INTEGER NOT NULL,
            CONSTRAINT [PK_PlaylistTrack] PRIMARY KEY ([PlaylistId], [TrackId]),
            FOREIGN KEY ([PlaylistId]) REFERENCES [Playlist] ([PlaylistId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
            FOREIGN KEY ([TrackId]) REFERENCES [Track] ([TrackId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [Track] ([TrackId] INTEGER NOT NULL, [Name] NVARCHAR(200) NOT NULL, [AlbumId] INTEGER, [MediaTypeId] INTEGER NOT NULL,
            [GenreId] INTEGER, [Composer] NVARCHAR(220), [Milliseconds] INTEGER NOT NULL, [Bytes] INTEGER, [UnitPrice] NUMERIC(10,2) NOT NULL,
            CONSTRAINT [PK_Track] PRIMARY KEY ([TrackId]),
            FOREIGN KEY ([AlbumId]) REFERENCES [Album] ([AlbumId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
            FOREIGN KEY ([GenreId]) REFERENCES [Genre] ([GenreId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
            FOREIGN KEY ([MediaTypeId]) REFERENCES [MediaType] ([MediaTypeId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE INDEX [IFK_AlbumArtistId] ON [Album] ([ArtistId]);
        CREATE INDEX [IFK_CustomerSupportRepId] ON [Customer] ([SupportRepId]);
        CREATE INDEX [IFK_EmployeeReportsTo] ON [Employee] ([ReportsTo]);
        CREATE INDEX [IFK_InvoiceCustomerId] ON [Invoice] ([CustomerId]);
        CREATE INDEX [IFK_InvoiceLineInvoiceId] ON [InvoiceLine] ([InvoiceId]);
        CREATE INDEX [IFK_InvoiceLineTrackId] ON [InvoiceLine] ([TrackId]);
        CREATE INDEX [IFK_PlaylistTrackTrackId] ON [PlaylistTrack] ([TrackId]);
        CREATE INDEX [IFK_TrackAlbumId] ON [Track] ([AlbumId]);
        CREATE INDEX [IFK_TrackGenreId] ON [Track] ([GenreId]);
        CREATE INDEX [IFK_TrackMediaTypeId] ON [Track] ([MediaTypeId]);
        """

    /// Makes the database at `url` (which must not exist) and returns it.
    @discardableResult
    public static func make(at url: URL, scale: Int = 1) throws -> URL {
        precondition(scale >= 1, "scale is a positive multiple")
        let database = try SQLiteDatabase(path: url.path, options: [.create])
        try database.execute(schema)
        try database.execute("BEGIN")
        var random = Generator(seed: 0x5EED_C41E)
        let words = ["Love", "Rock", "Blue", "Night", "Çava", "Straße", "Sun", "Moon", "Fire", "Rain", "Heart", "Road", "Dream",
                     "Gold", "Sky", "Élan", "Ünder", "Hey", "Jude", "Stairway"]
        func title(_ count: Int) -> String { (0..<count).map { _ in words[random.next(words.count)] }.joined(separator: " ") }

        let artists = 275, albums = 347, genres = 25, mediaTypes = 5, employees = 8, customers = 59, playlists = 18
        let tracks = 3503 * scale, invoices = 412 * scale
        for id in 1...artists { try database.run("INSERT INTO Artist VALUES (?1, ?2)", [.integer(Int64(id)), .text(title(2))]) }
        for id in 1...albums {
            try database.run("INSERT INTO Album VALUES (?1, ?2, ?3)",
                             [.integer(Int64(id)), .text(title(3)), .integer(Int64(1 + random.next(artists)))])
        }
        for id in 1...genres { try database.run("INSERT INTO Genre VALUES (?1, ?2)", [.integer(Int64(id)), .text(title(1))]) }
        for id in 1...mediaTypes {
            try database.run("INSERT INTO MediaType VALUES (?1, ?2)", [.integer(Int64(id)), .text(title(1) + " audio file")])
        }
        let countries = ["USA", "Canada", "Brazil", "France", "Germany", "United Kingdom", "Portugal", "India", "Czech Republic", "Chile"]
        for id in 1...employees {
            try database.run("""
                INSERT INTO Employee (EmployeeId, LastName, FirstName, Title, ReportsTo, BirthDate, HireDate, City, Country, Email)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'Calgary', 'Canada', ?8)
                """, [.integer(Int64(id)), .text("Last\(id)"), .text("First\(id)"), .text(id == 1 ? "General Manager" : "Sales Support Agent"),
                      id == 1 ? .null : .integer(1), .text("19\(50 + id)-0\(id)-1\(id) 00:00:00"),
                      .text("2002-0\(id)-14 00:00:00"), .text("e\(id)@chinookcorp.com")])
        }
        for id in 1...customers {
            try database.run("""
                INSERT INTO Customer (CustomerId, FirstName, LastName, Company, City, Country, Email, SupportRepId)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """, [.integer(Int64(id)), .text("First\(id)"), .text("Last\(id)"), id % 3 == 0 ? .text("Company \(id)") : .null,
                      .text("City \(id % 20)"), .text(countries[id % countries.count]), .text("c\(id)@example.com"),
                      .integer(Int64(3 + id % 3))])
        }
        for id in 1...tracks {
            try database.run("INSERT INTO Track VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", [
                .integer(Int64(id)), .text(title(3)), .integer(Int64(1 + random.next(albums))), .integer(Int64(1 + random.next(mediaTypes))),
                .integer(Int64(1 + random.next(genres))), id % 4 == 0 ? .null : .text("Composer \(id % 50)"),
                .integer(Int64(1000 + random.next(600_000))), .integer(Int64(10_000 + random.next(10_000_000))),
                .real(id % 10 == 0 ? 1.99 : 0.99),
            ])
        }
        // Invoices every 4.4 days from 2021-01-01 (repeating the years with `scale`), each with
        // lines in Chinook's cycle (1, 2, 2, 4, 6, 9, 14); the total is the lines' sum.
        let start = Date(timeIntervalSince1970: 1_609_459_200)  // 2021-01-01T00:00:00Z
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd 00:00:00"
        var line = 1
        for id in 1...invoices {
            let day = Double(((id - 1) % 412) * 44 / 10)
            let date = formatter.string(from: start.addingTimeInterval(day * 86_400))
            let customer = (id * 7) % customers + 1
            let count = [1, 2, 2, 4, 6, 9, 14][(id - 1) % 7]
            var cents = 0
            var lines: [[SQLiteValue]] = []
            for k in 0..<count {
                let price = (id + k) % 10 == 0 ? 199 : 99
                cents += price
                lines.append([.integer(Int64(line)), .integer(Int64(id)), .integer(Int64(1 + random.next(tracks))),
                              .real(Double(price) / 100), .integer(1)])
                line += 1
            }
            try database.run("INSERT INTO Invoice VALUES (?1, ?2, ?3, 'Address', 'City', NULL, ?4, '00000', ?5)", [
                .integer(Int64(id)), .integer(Int64(customer)), .text(date), .text(countries[customer % countries.count]),
                .real(Double(cents) / 100),
            ])
            for values in lines { try database.run("INSERT INTO InvoiceLine VALUES (?1, ?2, ?3, ?4, ?5)", values) }
        }
        for id in 1...playlists { try database.run("INSERT INTO Playlist VALUES (?1, ?2)", [.integer(Int64(id)), .text(title(1))]) }
        // 8,715 entries at scale 1: playlists of 1,000, 500, 50 and 1 tracks, without repeats.
        let sizes = [1000, 1000, 1000, 1000, 1000, 500, 500, 500, 500, 500, 500, 500, 50, 50, 50, 50, 14, 1]
        for (index, size) in sizes.enumerated() {
            let step = 1 + random.next(7)
            for k in 0..<(size * scale) {
                let track = (index * 131 + k * step) % tracks + 1
                try database.run("INSERT OR IGNORE INTO PlaylistTrack VALUES (?1, ?2)", [.integer(Int64(index + 1)), .integer(Int64(track))])
            }
        }
        try database.execute("COMMIT")
        return url
    }

    /// A fresh directory holding a new Chinook-shaped database; remove the directory when done.
    public static func makeTemporary(scale: Int = 1, name: String = "Chinook_Sqlite.sqlite") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-chinook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try make(at: directory.appendingPathComponent(name), scale: scale)
    }

    /// A small deterministic generator (a 64-bit LCG), so every run makes the same rows.
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }
}
