import ChinookSupport
import Foundation
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// The Chinook-shaped test database (Tests/ChinookSupport) has Chinook's sizes and shape, and
/// Sift reads it as it reads the real file: its tables as entities, declared foreign keys as
/// relationships, `DATETIME` text as dates.
@Suite struct ChinookDatabaseTests {
    @Test func itHasChinooksSizesAndOpensAsAForeignDatabase() throws {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let database = try SQLiteDatabase(path: url.path, options: [.readOnly])
        let sizes: [(String, Int64)] = [("Artist", 275), ("Album", 347), ("Track", 3503), ("Customer", 59), ("Employee", 8),
                                        ("Invoice", 412), ("InvoiceLine", 2228), ("Playlist", 18), ("PlaylistTrack", 8715)]
        for (table, count) in sizes {
            #expect(try database.scalar("SELECT count(*) FROM \(table)") == .integer(count), "\(table)")
        }
        #expect(try database.scalar("SELECT min(InvoiceDate) || ' ' || max(InvoiceDate) FROM Invoice")
                == .text("2021-01-01 00:00:00 2025-12-14 00:00:00"))
        #expect(try database.scalar("SELECT round(sum(Total), 2) = (SELECT round(sum(UnitPrice * Quantity), 2) FROM InvoiceLine) FROM Invoice") == .integer(1))

        let store = try SQLiteStore.open(at: url)
        let invoice = try #require(store.model.entity(named: "Invoice"))
        #expect(invoice.attribute(named: "InvoiceDate")?.type == .date)
        #expect(invoice.relationship(named: "Customer")?.isToMany == false)
        #expect(store.model.entity(named: "Customer")?.relationship(named: "invoices")?.isToMany == true)
        #expect(try store.count(FetchRequest(statement: "COUNT InvoiceLine")) == 2228)
    }
}
