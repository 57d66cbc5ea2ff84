import Foundation
import Sift
import SiftSQLite
import Testing

/// `sift query` on a Core Data store whose binary attribute allows external storage: the JSON
/// it prints holds the values (inline, or a file's content), never the marker byte or the
/// reference; a missing file ends the query with its error (docs/COREDATA-STORES.md, "Binary
/// data in external storage").
@Suite struct CoreDataExternalDataCommandTests {
    static let fileUUID = "6F9619FF-8B86-D011-B42D-00C04FC964FF"

    /// A store in Core Data's layout with `Item.blob` flagged, its rows written by hand.
    static func makeStore(_ rows: [(name: String, column: [UInt8])]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-cd-external-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("Items.sqlite")
        let json = #"{"name": "Items", "entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "blob", "type": "Binary", "optional": true}]}]}"#
        var model = CoreDataModel(deriving: try JSONModelFormat.read(Data(json.utf8)))
        model.entities["Item"]?.attributeFlags["blob"] = 4
        _ = try SQLiteStore.createCoreData(at: url, model: model)
        let folder = directory.appendingPathComponent(".Items_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("from a file".utf8).write(to: folder.appendingPathComponent(fileUUID))
        let database = try SQLiteDatabase(path: url.path, options: [])
        for (key, row) in rows.enumerated() {
            try database.run("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZBLOB) VALUES (?1, 1, 1, ?2, ?3)",
                             [.integer(Int64(key + 1)), .text(row.name), .blob(row.column)])
        }
        return url
    }

    @Test func queryPrintsTheValuesNotTheMarkers() throws {
        let url = try Self.makeStore([("inline", [1] + Array("inline bytes".utf8)), ("file", [2] + Array(Self.fileUUID.utf8) + [0])])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let result = try SiftBinary.run("query", "--store", url.path, "Item SORT BY name", "--properties", "name,blob")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains(Data("from a file".utf8).base64EncodedString()), "\(result.stdout)")
        #expect(result.stdout.contains(Data("inline bytes".utf8).base64EncodedString()), "\(result.stdout)")
        #expect(!result.stdout.contains(Data([1] + Array("inline bytes".utf8)).base64EncodedString()), "\(result.stdout)")
        let filtered = try SiftBinary.run("query", "--store", url.path, "COUNT Item WHERE blob != nil AND name BEGINSWITH 'f'")
        #expect(filtered.stdout == "{\"count\": 1}\n", "\(filtered.stdout) \(filtered.stderr)")
    }

    @Test func aMissingFileEndsTheQueryWithItsError() throws {
        let missing = "11111111-2222-3333-4444-555555555555"
        let url = try Self.makeStore([("gone", [2] + Array(missing.utf8))])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let result = try SiftBinary.run("query", "--store", url.path, "Item")
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stderr.contains("Item.blob of x-coredata://"), "\(result.stderr)")
        #expect(result.stderr.contains("_EXTERNAL_DATA/\(missing), which does not exist"), "\(result.stderr)")
    }
}
