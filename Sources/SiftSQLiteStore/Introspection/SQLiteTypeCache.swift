import Foundation
import SiftSQL
import SiftSQLStore

/// Where the column types Sift chose for SQLite databases it did not create are kept between
/// opens, so a command does not read the tables' samples again (docs/SQLITE-DATABASES.md,
/// *Caching*). The cache is a directory of small JSON files, one per database file, outside the
/// database: a database Sift only reads is never written to, nor is anything put beside it.
///
/// An entry is used only while the database holds what it held when the types were chosen: it
/// is keyed by the file's identity (device, inode, path), size, modification time, the change
/// counter in its header and, in WAL mode, the state of its write-ahead log — any committed
/// change makes the entry stale — and by the version of the rules that chose the types. Reading
/// or writing the cache never fails an open: a missing, stale, damaged or unwritable entry is
/// as no cache.
///
///     let store = try SQLiteStore.open(at: url, typeCache: SQLiteTypeCache(directory: cacheURL))
public struct SQLiteTypeCache: Sendable, Hashable {
    /// The directory the entries are in (made when the first is written).
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The cache the command line uses: `$SIFT_CACHE_DIR`, else `$XDG_CACHE_HOME/sift`, else
    /// `~/.cache/sift`; none when `SIFT_CACHE` is `off` (or `0`, `no`, `false`).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> SQLiteTypeCache? {
        if let setting = environment["SIFT_CACHE"]?.lowercased(), ["off", "0", "no", "false"].contains(setting) { return nil }
        if let directory = environment["SIFT_CACHE_DIR"], !directory.isEmpty {
            return SQLiteTypeCache(directory: URL(fileURLWithPath: directory))
        }
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return SQLiteTypeCache(directory: URL(fileURLWithPath: base).appendingPathComponent("sift"))
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return SQLiteTypeCache(directory: URL(fileURLWithPath: home).appendingPathComponent(".cache").appendingPathComponent("sift"))
    }

    // MARK: Entries

    /// What is kept for one database.
    struct Entry: Encodable, Equatable {
        var format = "sift-column-types"
        var rules: Int
        var identity: DatabaseFileIdentity
        /// By table: its declared columns (to be sure the table is the same) and their types.
        var tables: [String: CachedTable]
    }

    /// One table's entry.
    struct CachedTable: Encodable, Equatable {
        var declared: [String]
        var types: ColumnTypeInference.TableTypes
    }

    /// The entry file for a database file (named by a hash of its path and inode).
    func file(for identity: DatabaseFileIdentity) -> URL {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in Array(identity.path.utf8) + withUnsafeBytes(of: identity.device.littleEndian, Array.init)
            + withUnsafeBytes(of: identity.inode.littleEndian, Array.init) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        let name = String(hash, radix: 16)
        return directory.appendingPathComponent(String(repeating: "0", count: 16 - name.count) + name + ".json")
    }

    /// The types kept for the database with `identity`, by table; empty when there are none
    /// (or they are stale).
    func tables(for identity: DatabaseFileIdentity) -> [String: CachedTable] {
        guard let data = try? Data(contentsOf: file(for: identity)),
              let entry = Entry(json: data),
              entry.format == "sift-column-types", entry.rules == ColumnTypeInference.rulesVersion, entry.identity == identity else { return [:] }
        return entry.tables
    }

    /// Keeps `tables` for the database with `identity` (with what is kept for it already),
    /// written whole to a temporary file and renamed into place; a failure is ignored.
    func store(_ tables: [String: CachedTable], for identity: DatabaseFileIdentity) {
        var merged = self.tables(for: identity)
        merged.merge(tables) { _, new in new }
        let entry = Entry(rules: ColumnTypeInference.rulesVersion, identity: identity, tables: merged)
        guard let data = try? JSONEncoder().encode(entry) else { return }
        let target = file(for: identity)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
            try data.write(to: temporary)
            if rename(temporary.path, target.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            return
        }
    }
}
