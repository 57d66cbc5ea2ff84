import ChinookSupport
import Foundation
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Key paths across several to-many steps on a Chinook-shaped database (Tests/ChinookSupport),
/// against the SQL a sqlite3 user writes by hand: Sift says each in SQL, and answers as
/// sqlite3 does. PlaylistTrack, a join table with a composite key, is an entity with the
/// to-ones `Playlist` and `Track` and their inverses `playlisttracks`.
@Suite struct ChinookKeyPathTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        /// A count, as a sqlite3 user writes it.
        let sql: String
        var testDescription: String { statement }
    }

    static let cases: [Case] = [
        // The issue's question (a lower total: the test data's invoices stay under 16).
        Case(statement: "COUNT Track WHERE ANY playlisttracks.Playlist.playlisttracks.Track.invoicelines.Invoice.Total > 13",
             sql: """
                SELECT count(*) FROM Track t WHERE EXISTS (SELECT 1 FROM PlaylistTrack pt JOIN Playlist p ON p.PlaylistId = pt.PlaylistId
                  JOIN PlaylistTrack pt2 ON pt2.PlaylistId = p.PlaylistId JOIN Track t2 ON t2.TrackId = pt2.TrackId
                  JOIN InvoiceLine il ON il.TrackId = t2.TrackId JOIN Invoice i ON i.InvoiceId = il.InvoiceId
                  WHERE pt.TrackId = t.TrackId AND i.Total > 13)
                """),
        Case(statement: "COUNT Artist WHERE ANY albums.tracks.invoicelines.Invoice.Customer.Country == 'Brazil'",
             sql: """
                SELECT count(*) FROM Artist ar WHERE EXISTS (SELECT 1 FROM Album al JOIN Track t ON t.AlbumId = al.AlbumId
                  JOIN InvoiceLine il ON il.TrackId = t.TrackId JOIN Invoice i ON i.InvoiceId = il.InvoiceId
                  JOIN Customer c ON c.CustomerId = i.CustomerId WHERE al.ArtistId = ar.ArtistId AND c.Country = 'Brazil')
                """),
        Case(statement: "COUNT Playlist WHERE ALL playlisttracks.Track.Genre.Name != 'Sky'",
             sql: """
                SELECT count(*) FROM Playlist p WHERE NOT EXISTS (SELECT 1 FROM PlaylistTrack pt JOIN Track t ON t.TrackId = pt.TrackId
                  LEFT JOIN Genre g ON g.GenreId = t.GenreId WHERE pt.PlaylistId = p.PlaylistId AND g.Name IS 'Sky')
                """),
        Case(statement: "COUNT Genre WHERE NONE tracks.playlisttracks.Playlist.Name == 'Rock'",
             sql: """
                SELECT count(*) FROM Genre g WHERE NOT EXISTS (SELECT 1 FROM Track t JOIN PlaylistTrack pt ON pt.TrackId = t.TrackId
                  JOIN Playlist p ON p.PlaylistId = pt.PlaylistId WHERE t.GenreId = g.GenreId AND p.Name = 'Rock')
                """),
        Case(statement: "COUNT Customer WHERE 'Heart' IN invoices.invoicelines.Track.Genre.Name",
             sql: """
                SELECT count(*) FROM Customer c WHERE EXISTS (SELECT 1 FROM Invoice i JOIN InvoiceLine il ON il.InvoiceId = i.InvoiceId
                  JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId WHERE i.CustomerId = c.CustomerId AND g.Name = 'Heart')
                """),
        // Counts are of paths: every invoice line of every invoice.
        Case(statement: "COUNT Customer WHERE invoices.invoicelines.@count > 30",
             sql: """
                SELECT count(*) FROM Customer c WHERE (SELECT count(*) FROM Invoice i JOIN InvoiceLine il ON il.InvoiceId = i.InvoiceId
                  WHERE i.CustomerId = c.CustomerId) > 30
                """),
        Case(statement: "COUNT Track WHERE playlisttracks.Playlist.playlisttracks.@count > 1500",
             sql: """
                SELECT count(*) FROM Track t WHERE (SELECT count(*) FROM PlaylistTrack pt JOIN Playlist p ON p.PlaylistId = pt.PlaylistId
                  JOIN PlaylistTrack pt2 ON pt2.PlaylistId = p.PlaylistId WHERE pt.TrackId = t.TrackId) > 1500
                """),
        Case(statement: "COUNT Employee WHERE customers.invoices.@max.Total > 15",
             sql: """
                SELECT count(*) FROM Employee e WHERE (SELECT max(i.Total) FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId
                  WHERE c.SupportRepId = e.EmployeeId) > 15
                """),
        Case(statement: "COUNT Album WHERE SUBQUERY(tracks.invoicelines, $l, $l.Invoice.BillingCountry == 'USA').@count >= 2",
             sql: """
                SELECT count(*) FROM Album al WHERE (SELECT count(*) FROM Track t JOIN InvoiceLine il ON il.TrackId = t.TrackId
                  JOIN Invoice i ON i.InvoiceId = il.InvoiceId WHERE t.AlbumId = al.AlbumId AND i.BillingCountry = 'USA') >= 2
                """),
    ]

    @Test(arguments: cases)
    func answersAsTheHandWrittenSQLDoes(_ c: Case) throws {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(statement: c.statement)
        let generated = try store.generatedSQL(for: request)
        #expect(generated.inMemoryPredicate == nil, "\(generated.inMemoryReason ?? "")")
        let database = try SQLiteDatabase(path: url.path, options: [.readOnly])
        guard case .integer(let expected) = try database.scalar(c.sql) else { Issue.record("no count"); return }
        let count = try store.count(request)
        #expect(count == Int(expected))
        // A question that tells answers apart: neither none nor every row.
        let all = try store.count(FetchRequest(entityName: request.entityName))
        #expect(count > 0 && count < all, "\(count) of \(all)")
    }

    /// Each track's count of the paths through its playlists, as a property, against the
    /// hand-written GROUP BY.
    @Test func aCountAcrossSeveralStepsAsAProperty() throws {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(statement: "SELECT TrackId, playlisttracks.Playlist.playlisttracks.@count AS n FROM Track")
        #expect(try store.generatedSQL(for: request).inMemoryReason == nil)
        guard case .dictionaries(let rows) = try store.execute(request) else { Issue.record("not rows"); return }
        let database = try SQLiteDatabase(path: url.path, options: [.readOnly])
        let statement = try database.prepare("""
            SELECT t.TrackId, (SELECT count(*) FROM PlaylistTrack pt JOIN PlaylistTrack pt2 ON pt2.PlaylistId = pt.PlaylistId
              WHERE pt.TrackId = t.TrackId) FROM Track t ORDER BY t.TrackId
            """)
        var expected: [String] = []
        while try statement.step() { expected.append("\(statement.int64(0)) \(statement.int64(1))") }
        #expect(rows.map { "\($0["TrackId"]?.int ?? -1) \($0["n"]?.int ?? -1)" } == expected)
    }
}
