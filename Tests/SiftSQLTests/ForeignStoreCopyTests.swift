import ChinookSupport
import Foundation
import SeedAppSupport
import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftSQLiteStore
import SiftStore
import Testing

/// ``StoreCopy`` with a SQLite database Sift did not create (Chinook's shape) on either side:
/// its typed model into a new store of Sift's layout, keeping its IDs (`Album/3`); and into an
/// empty database of the same DDL, where rows take the database's own keys (the copy maps IDs,
/// and gives a row its NOT NULL foreign keys with it). Compared through fetches.
@Suite struct ForeignStoreCopyTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-foreign-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aForeignDatabaseIntoSiftsLayout() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try SQLiteStore.open(at: try ChinookDatabase.make(at: directory.appendingPathComponent("chinook.db")), readOnly: true)
        let model = StoreCopy.model(of: source)
        let url = directory.appendingPathComponent("copy.sqlite")
        let summary = try StoreCopy(from: source, into: try SQLiteStore.create(at: url, model: model)).run()
        #expect(summary.keptObjectIDs)
        #expect(summary.counts.first { $0.entity == "Track" }?.count == 3503)
        let copy = try SQLiteStore.open(at: url)
        #expect(StoreContents.firstDifference(try StoreContents.lines(of: copy, model: model), try StoreContents.lines(of: source, model: model)) == nil)
        #expect(try StoreContents.destinationCount(of: copy) > 10_000)
    }

    @Test func aForeignDatabaseIntoAnEmptyOneOfTheSameShape() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try SQLiteStore.open(at: try ChinookDatabase.make(at: directory.appendingPathComponent("chinook.db")), readOnly: true)
        let empty = directory.appendingPathComponent("empty.db")
        try SQLiteDatabase(path: empty.path, options: [.create]).execute(ChinookDatabase.schema)
        let target = try SQLiteStore.open(at: empty)
        let summary = try StoreCopy(from: source, into: target).run()
        #expect(!summary.keptObjectIDs)
        let model = StoreCopy.model(of: source)
        // Each row's key is an attribute copied with it, so the database gives it the source's
        // ID: every object and every relationship is the source's.
        let copy = try SQLiteStore.open(at: empty, readOnly: true)
        let relationships = StoreContents.firstDifference(try StoreContents.lines(of: copy, model: model, attributes: false),
                                                          try StoreContents.lines(of: source, model: model, attributes: false))
        #expect(relationships == nil, "\(relationships ?? "")")
        // Money (NUMERIC(10,2), held as REAL, read as Decimal) is written back as the REAL it
        // was read from: 5.94 as the double nearest 5.94, not 5.9399999999999995.
        let difference = StoreContents.firstDifference(try StoreContents.lines(of: copy, model: model), try StoreContents.lines(of: source, model: model))
        #expect(difference == nil, "\(difference ?? "")")
        let database = try SQLiteDatabase(path: empty.path, options: [.readOnly])
        let sourcePath = directory.appendingPathComponent("chinook.db").path.replacingOccurrences(of: "'", with: "''")
        try database.execute("ATTACH DATABASE '\(sourcePath)' AS source")
        let differentTotals = try database.rows("SELECT count(*) FROM Invoice AS copied JOIN source.Invoice AS original USING (InvoiceId) WHERE copied.Total IS NOT original.Total")
        #expect(differentTotals.first?.first == .integer(0))
        let rows = try SQLiteDatabase(path: empty.path, options: [.readOnly]).rows("SELECT count(*) FROM PlaylistTrack")
        #expect(rows.first?.first == .integer(8715))
    }
}
