import Foundation
import SiftSQLite
import SiftSQLiteStore
import SiftStore
import Testing

/// A Sift store whose metadata lost its model, or holds one that cannot be read, is refused
/// when opened, the file named (`StoredModel`, which the PostgreSQL store shares).
@Suite struct StoredModelTests {
    @Test(arguments: [
        ("DELETE FROM \"sift.metadata\" WHERE \"key\" = 'model'", "the Sift metadata has no model"),
        ("UPDATE \"sift.metadata\" SET \"value\" = 42 WHERE \"key\" = 'model'", "the Sift metadata has no model"),
        ("UPDATE \"sift.metadata\" SET \"value\" = '{not json' WHERE \"key\" = 'model'", "the stored model cannot be read: "),
    ])
    func aLostOrDamagedModelIsRefused(_ change: String, _ message: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-stored-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("library.sqlite")
        do {
            let store = try SQLiteStore.create(at: url, model: try SQLTestModel.model())
            try store.save()
            _ = try store.rawRows(change)
        }
        let error = #expect(throws: StoreError.self) { try SQLiteStore.open(at: url) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.hasPrefix("\(url.path): \(message)") == true, "\(error?.message ?? "")")
    }
}
