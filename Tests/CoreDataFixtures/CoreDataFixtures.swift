import Foundation

/// Real Core Data stores and model files (`Files/README.md` says where each comes from and what it
/// exercises), shared by the tests of reading Core Data's layout. Tests open them read-only and
/// check that not a byte changed (``checksum(_:)``); a test that writes works on a copy.
public enum CoreDataFixtures {
    /// The stores whose `Z_MODELCACHE` holds a compressed model.
    public static let storesWithModelCache = [
        "Accounts3.sqlite", "netusage.sqlite", "NoteStore.sqlite", "IMODb2.sqlite", "DataUsage.sqlite", "knowledgec-10.14.db",
    ]
    /// The stores without a model: `NotesV7.storedata` (a NULL cache), `Recipes.sqlite` (no cache).
    public static let storesWithoutModelCache = ["NotesV7.storedata", "Recipes.sqlite"]

    /// The directory holding the fixture files.
    public static var directory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Files", isDirectory: true)
    }

    /// The URL of the fixture file (or directory) `name`, e.g. `"Accounts3.sqlite"` or `"Recipes.xcdatamodel"`.
    public static func url(_ name: String) -> URL {
        let url = directory.appendingPathComponent(name)
        precondition(FileManager.default.fileExists(atPath: url.path), "no Core Data fixture named \(name)")
        return url
    }

    /// A checksum of the file's bytes (FNV-1a, 64 bits), to show a read left the file unchanged.
    public static func checksum(_ url: URL) throws -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // An empty file (netusage.sqlite-wal) is not read: Foundation leaks the buffer it reads
        // an empty file into, which LeakSanitizer reports (scripts/sanitize address).
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        guard size > 0 else { return hash }
        let data = try Data(contentsOf: url)
        for byte in data {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
