import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Synchronization
import Testing

/// A database Sift did not create has its column types chosen as fetches need them (issue 28
/// §4): a statement reads the samples of the tables it reaches and no other; a sample is the
/// first and last rows of a table, and a value of another kind beyond it reads as the evaluator
/// reads it; what was chosen is kept in a cache outside the database, used again only while the
/// file is unchanged.
@Suite struct ForeignTypeReadingTests {
    /// Four tables: alpha ← beta (beta.alpha_id), gamma and delta on their own, each of `rows`
    /// rows.
    static func fourTables(rows: Int = 50) throws -> URL {
        try ForeignDatabaseTests.database("""
            CREATE TABLE alpha (id INTEGER PRIMARY KEY, name TEXT, born DATE);
            CREATE TABLE beta (id INTEGER PRIMARY KEY, alpha_id INTEGER REFERENCES alpha(id), x INT);
            CREATE TABLE gamma (id INTEGER PRIMARY KEY, y REAL);
            CREATE TABLE delta (id INTEGER PRIMARY KEY, z TEXT);
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(rows))
            INSERT INTO alpha SELECT k, 'a' || k, date('2000-01-01', '+' || k || ' days') FROM n;
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(rows))
            INSERT INTO beta SELECT k, 1 + k % 7, k FROM n;
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(rows))
            INSERT INTO gamma SELECT k, k * 0.5 FROM n;
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(rows))
            INSERT INTO delta SELECT k, 'z' || k FROM n;
            """)
    }

    /// The statements `body` runs on the store's connection.
    static func traced(_ store: SQLiteStore, _ body: () throws -> Void) throws -> [String] {
        let log = Mutex<[String]>([])
        store.database.setTrace { sql in log.withLock { $0.append(sql) } }
        defer { store.database.setTrace(nil) }
        try body()
        return log.withLock { $0 }
    }

    /// The tables the statements read rows of (`FROM "x"`, `JOIN "x"`).
    static func tablesRead(_ statements: [String], among tables: [String]) -> Set<String> {
        Set(tables.filter { table in statements.contains { $0.contains("FROM \"\(table)\"") || $0.contains("JOIN \"\(table)\"") } })
    }

    /// The statements that read a sample to choose types.
    static func samples(_ statements: [String]) -> [String] {
        statements.filter { $0.contains(ColumnTypeInference.scanComment) }
    }

    static let tables = ["alpha", "beta", "gamma", "delta"]

    // MARK: Laziness

    @Test func openingReadsNoTableAndAStatementReadsOnlyTheTablesItReaches() throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        // Opened: the catalogue only, no table's types.
        let foreign = try #require(store.foreign)
        #expect(Self.tables.allSatisfy { foreign.schema.table(for: $0)?.typesAreRead == false })
        #expect(store.catalogModel.entity(named: "gamma")?.attribute(named: "y")?.type == .undefined)
        #expect(store.catalogModel.entity(named: "beta")?.relationship(named: "alpha")?.destination == "alpha")

        var count = 0
        var statements = try Self.traced(store) { count = try store.count(FetchRequest(statement: "COUNT gamma WHERE y > 3")) }
        #expect(count == 44)
        #expect(Self.tablesRead(statements, among: Self.tables) == ["gamma"])
        #expect(Self.samples(statements).count == 1)
        // A key path reaches the table it names.
        statements = try Self.traced(store) { count = try store.count(FetchRequest(statement: #"COUNT beta WHERE alpha.born < "2000-01-05""#)) }
        #expect(count == 22)
        #expect(Self.tablesRead(statements, among: Self.tables) == ["alpha", "beta"])
        #expect(Self.samples(statements).count == 2)
        // gamma is read already: its types are not chosen again; delta still is not read.
        statements = try Self.traced(store) { _ = try store.fetch(FetchRequest(statement: "gamma WHERE y < 1")).map { $0 } }
        #expect(Self.samples(statements).isEmpty)
        #expect(foreign.schema.table(for: "delta")?.typesAreRead == false)
        // The whole model reads the rest.
        #expect(store.model.entity(named: "delta")?.attribute(named: "z")?.type == .string)
        #expect(Self.tables.allSatisfy { foreign.schema.table(for: $0)?.typesAreRead == true })
    }

    /// A batch update or delete reads the types of the tables its predicate and expressions
    /// reach, as a fetch does: on a database of many tables, a write opens as fast as a read.
    @Test func batchChangesReadOnlyTheTablesTheyReach() throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let foreign = try #require(store.foreign)
        var changed = 0
        var statements = try Self.traced(store) {
            changed = try store.batchUpdate(entity: "gamma", predicate: PredicateNode(format: "y > 20"),
                                            set: ["y": ExpressionNode(format: "y * 2")])
        }
        #expect(changed == 10)
        #expect(Self.tablesRead(Self.samples(statements), among: Self.tables) == ["gamma"])
        #expect(foreign.schema.table(for: "alpha")?.typesAreRead == false)
        // A key path in the predicate reaches its table; the others stay unread.
        statements = try Self.traced(store) {
            changed = try store.batchDelete(entity: "beta", predicate: PredicateNode(format: #"alpha.born < "2000-01-03""#))
        }
        #expect(changed == 7)
        #expect(Set(Self.samples(statements).compactMap { sql in Self.tables.first { sql.contains("FROM \"\($0)\"") } }) == ["alpha", "beta"])
        #expect(foreign.schema.table(for: "delta")?.typesAreRead == false)
        #expect(try store.count(FetchRequest(statement: "COUNT gamma WHERE y > 40")) == 10)
    }

    /// A SUBQUERY's variable, a sort key, a section, a property, GROUP BY and a prefetch each
    /// reach their table.
    @Test(arguments: [
        ("COUNT alpha WHERE SUBQUERY(betas, $b, $b.x > 3).@count > 0", ["alpha", "beta"]),
        ("beta SORT BY alpha.name", ["alpha", "beta"]),
        ("SELECT alpha.name, count:(x) AS n FROM beta GROUP BY alpha.name", ["alpha", "beta"]),
        ("COUNT alpha WHERE ANY betas.x == 3", ["alpha", "beta"]),
        ("COUNT beta WHERE x > 3", ["beta"]),
    ])
    func everyKeyPathReachesItsTable(_ statement: String, _ expected: [String]) throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(statement: statement)
        let statements = try Self.traced(store) { _ = try store.execute(request) }
        #expect(Set(Self.samples(statements).compactMap { sql in Self.tables.first { sql.contains("FROM \"\($0)\"") } }) == Set(expected))
        let sections = try Self.traced(store) {
            var sectioned = try FetchRequest(statement: "beta SORT BY alpha.name")
            sectioned.sectionNameKeyPath = "alpha.name"
            _ = try store.fetchSections(sectioned)
        }
        #expect(Self.tablesRead(sections, among: Self.tables).isSubset(of: ["alpha", "beta"]))
    }

    /// The warnings of a request (what `sift` prints before the results) are typed by the tables
    /// the request reaches, as its fetch is: asking reads no other table's sample.
    @Test(arguments: [
        (#"COUNT beta WHERE x == "3""#, ["beta"], [FetchWarning.Code.kindMismatch]),
        (#"COUNT beta WHERE alpha.born < "2000-01-05" AND x > 2"#, ["alpha", "beta"], []),
        (#"COUNT alpha WHERE SUBQUERY(betas, $b, $b.x == "3").@count > 0"#, ["alpha", "beta"], [.kindMismatch]),
        (#"COUNT delta WHERE z LIKE "%5%""#, ["delta"], [.sqlWildcard]),
    ])
    func warningsReadOnlyTheTablesTheRequestReaches(_ statement: String, _ expected: [String], _ codes: [FetchWarning.Code]) throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        var warnings: [FetchWarning] = []
        let statements = try Self.traced(store) { warnings = try store.warnings(for: FetchRequest(statement: statement)) }
        #expect(warnings.map(\.code) == codes)
        #expect(Set(Self.samples(statements).compactMap { sql in Self.tables.first { sql.contains("FROM \"\($0)\"") } }) == Set(expected))
        // Through the protocol, as the command line asks.
        let asked: any PersistentStore = try SQLiteStore.open(at: url)
        #expect(try asked.warnings(for: FetchRequest(statement: statement)).map(\.code) == codes)
    }

    /// A relationship read from an object (not named by the request) reads its destination's
    /// table then, and `object(with:)` only the table the ID names.
    @Test func objectsReadTheirDestinationsTablesWhenAsked() throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let beta = try #require(try store.fetch(FetchRequest(statement: "beta WHERE id == 8")).first)
        #expect(store.foreign?.schema.table(for: "alpha")?.typesAreRead == false)
        guard case .object(let destination) = try beta.value(forKey: "alpha"), let alpha = destination as? ManagedObject else {
            Issue.record("beta 8 has no alpha")
            return
        }
        let born = try #require(ISO8601.date(from: "2000-01-03"))
        #expect(ForeignDatabaseTests.same(alpha[attribute: "born"], .date(born)))
        let statements = try Self.traced(store) { _ = store.object(with: ObjectID("delta/3")) }
        #expect(Self.tablesRead(statements, among: Self.tables) == ["delta"])
        #expect(store.foreign?.schema.table(for: "gamma")?.typesAreRead == false)
    }

    /// Stores used from several threads at once read each table's types once, and answer alike.
    @Test func concurrentFetchesReadTablesOnce() async throws {
        let url = try Self.fourTables(rows: 3000)
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let log = Mutex<[String]>([])
        store.database.setTrace { sql in log.withLock { $0.append(sql) } }
        defer { store.database.setTrace(nil) }
        let statements = ["COUNT gamma WHERE y > 3", #"COUNT beta WHERE alpha.born < "2000-01-05""#, "COUNT delta WHERE z BEGINSWITH 'z1'", "COUNT alpha"]
        let counts = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask { try statements.map { try store.count(FetchRequest(statement: $0)) } }
            }
            var all: [[Int]] = []
            for try await counts in group { all.append(counts) }
            return all
        }
        #expect(Set(counts).count == 1)
        #expect(counts.first == [2994, 1286, 1111, 3000])
        // Each table sampled once: the first rows, then the last.
        #expect(Self.samples(log.withLock { $0 }).count == 2 * Self.tables.count)
    }

    // MARK: The bound

    /// Values of another kind beyond the sample (a text in an INT column, a number and a text that
    /// is no date in a DATE column, a 2 in a BOOLEAN one) read as the evaluator reads them, in
    /// every test SQL makes of them.
    @Test(arguments: ["n > 5", "n == nil", "n != nil", "NOT (n > 5)", "n BETWEEN {1, 10}", "n IN {1, 2, 3}",
                      #"d >= "2001-01-01""#, "d == nil", #"NOT (d < "2001-01-01")"#, "flag == YES", "flag == nil", "flag != NO",
                      #"d BETWEEN {"2000-06-01", "2001-06-01"}"#])
    func valuesBeyondTheSampleReadAsTheEvaluatorReadsThem(_ format: String) throws {
        let sample = ColumnTypeInference.sampleRows
        let url = try ForeignDatabaseTests.database("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, n INT, d DATE, flag BOOL);
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < \(3 * sample))
            INSERT INTO t SELECT i, i % 20, date('2000-01-01', '+' || (i % 700) || ' days'), i % 2 FROM k;
            UPDATE t SET n = 'seven', d = 86400 * 365, flag = 2 WHERE id = \(sample + 10);
            UPDATE t SET n = 7.5, d = 'someday' WHERE id = \(sample + 20);
            """)
        defer { ForeignDatabaseTests.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(entityName: "t", predicate: format)
        let expected = try ForeignDatabaseTests.evaluated(request, on: store).get()
        #expect(try store.fetch(request).objectIDs.map(\.rawValue) == expected, "\(format)")
        #expect(try store.generatedSQL(for: request).inMemoryPredicate == nil)
    }

    // MARK: The cache

    static func cacheDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sift-type-cache-\(UUID().uuidString)")
    }

    /// Opens the store with the cache and counts `statement`, returning the sample statements run.
    static func samplesRead(_ url: URL, cache: SQLiteTypeCache?, _ statement: String = "COUNT gamma WHERE y > 3") throws -> Int {
        let store = try SQLiteStore.open(at: url, typeCache: cache)
        return Self.samples(try Self.traced(store) { _ = try store.count(FetchRequest(statement: statement)) }).count
    }

    @Test func aSecondOpenOfTheSameFileTakesTheTypesFromTheCache() throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        let directory = Self.cacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = SQLiteTypeCache(directory: directory)
        let before = try Data(contentsOf: url)
        let beside = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(try Self.samplesRead(url, cache: cache) == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.count == 1)
        #expect(try Self.samplesRead(url, cache: cache) == 0)
        // Another table is read, and kept beside the first.
        #expect(try Self.samplesRead(url, cache: cache, "COUNT delta") == 1)
        #expect(try Self.samplesRead(url, cache: cache, "COUNT delta") == 0)
        #expect(try Self.samplesRead(url, cache: cache) == 0)
        // The types are the same as read.
        let cached = try SQLiteStore.open(at: url, typeCache: cache), fresh = try SQLiteStore.open(at: url)
        #expect(cached.model.entities.map { $0.attributes.map(\.type) } == fresh.model.entities.map { $0.attributes.map(\.type) })
        #expect(cached.columnTypeReasons == fresh.columnTypeReasons)
        // Nothing was written into the database or beside it.
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted() == beside.sorted())
        // Without a cache, every open reads again.
        #expect(try Self.samplesRead(url, cache: nil) == 1)
    }

    @Test func aChangeToTheFileMakesTheCacheStale() throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        let directory = Self.cacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = SQLiteTypeCache(directory: directory)
        #expect(try Self.samplesRead(url, cache: cache) == 1)
        // The column now holds text first: the stale types must not be used.
        let writer = try SQLiteDatabase(path: url.path, options: [])
        try writer.execute("UPDATE gamma SET y = 'text' WHERE id = 1")
        #expect(try Self.samplesRead(url, cache: cache) == 1)
        let store = try SQLiteStore.open(at: url, typeCache: cache)
        #expect(store.model.entity(named: "gamma")?.attribute(named: "y")?.type == .undefined)
        #expect(try Self.samplesRead(url, cache: cache) == 0)
    }

    /// In WAL mode a commit leaves the database file and its change counter alone until a
    /// checkpoint: the log's state tells the change.
    @Test func aCommitInWALModeMakesTheCacheStale() throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        let directory = Self.cacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = SQLiteTypeCache(directory: directory)
        // A writer that stays open, so the log is not checkpointed away.
        let writer = try SQLiteDatabase(path: url.path, options: [])
        try writer.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0")
        try writer.execute("INSERT INTO delta (z) VALUES ('first')")
        #expect(try Self.samplesRead(url, cache: cache) == 1)
        #expect(try Self.samplesRead(url, cache: cache) == 0)
        let before = try #require(DatabaseFileIdentity(path: url.path))
        try writer.execute("UPDATE gamma SET y = 'text' WHERE id = 1")
        let after = try #require(DatabaseFileIdentity(path: url.path))
        #expect(after.changeCounter == before.changeCounter)
        #expect(after.log != before.log)
        #expect(try Self.samplesRead(url, cache: cache) == 1)
        #expect(try SQLiteStore.open(at: url, typeCache: cache).model.entity(named: "gamma")?.attribute(named: "y")?.type == .undefined)
        // A later commit, and a checkpoint, are new states too.
        #expect(try Self.samplesRead(url, cache: cache) == 0)
        try writer.execute("UPDATE gamma SET y = 1.5 WHERE id = 1")
        #expect(try Self.samplesRead(url, cache: cache) == 1)
        try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try Self.samplesRead(url, cache: cache) == 1)
        #expect(try Self.samplesRead(url, cache: cache) == 0)
    }

    /// A damaged or foreign entry is no cache; an entry of other rules is not used.
    @Test func anUnreadableEntryIsNoCache() throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        let directory = Self.cacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = SQLiteTypeCache(directory: directory)
        let identity = try #require(DatabaseFileIdentity(path: url.path))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: cache.file(for: identity))
        #expect(try Self.samplesRead(url, cache: cache) == 1)
        #expect(try Self.samplesRead(url, cache: cache) == 0)
        var entry = try #require(SQLiteTypeCache.Entry(json: Data(contentsOf: cache.file(for: identity))))
        entry.rules += 1
        try JSONEncoder().encode(entry).write(to: cache.file(for: identity))
        #expect(try Self.samplesRead(url, cache: cache) == 1)
    }

    /// Entries are written with `JSONEncoder` and read by hand (`Entry(json:)`): every field
    /// written reads back the same, and an entry missing one, or holding another type, reads
    /// as none.
    @Test func anEntryReadsBackAsItWasWritten() throws {
        let url = try Self.fourTables()
        defer { ForeignDatabaseTests.remove(url) }
        var identity = try #require(DatabaseFileIdentity(path: url.path))
        identity.log = "00ff"
        var dated = ForeignColumn(type: .date, reason: "declared DATETIME")
        dated.dateEncoding = .unixSeconds
        dated.textDates = .init(form: .secondsT, isVerified: true)
        var sampled = ForeignColumn(type: .integer64, readsOnlyZeroOrOne: true, normalizesText: true, stripsAffinity: true, reason: "declared INT")
        sampled.storageClasses = ["integer", "real"]
        let entry = SQLiteTypeCache.Entry(rules: ColumnTypeInference.rulesVersion, identity: identity, tables: [
            "t": .init(declared: ["id INTEGER", "at DATETIME", "key id"],
                       types: .init(columns: ["at": dated, "n": sampled, "s": ForeignColumn(type: .string, reason: "declared TEXT")], isWhole: false)),
            "u": .init(declared: [], types: .init(columns: [:], isWhole: true)),
        ])
        let written = try JSONEncoder().encode(entry)
        #expect(SQLiteTypeCache.Entry(json: written) == entry)
        let text = try #require(String(data: written, encoding: .utf8))
        for damaged in [text.replacingOccurrences(of: #""isWhole":true"#, with: #""isWhole":1"#),
                        text.replacingOccurrences(of: #""reason":"declared TEXT""#, with: #""why":"declared TEXT""#),
                        text.replacingOccurrences(of: #""form":4"#, with: #""form":99"#),
                        text.replacingOccurrences(of: #""changeCounter":"#, with: #""counter":"#)] {
            #expect(damaged != text)
            #expect(SQLiteTypeCache.Entry(json: Data(damaged.utf8)) == nil, "\(damaged)")
        }
    }

    @Test func theCommandLinesCacheFollowsTheEnvironment() {
        #expect(SQLiteTypeCache.fromEnvironment(["HOME": "/home/ann"])?.directory.path == "/home/ann/.cache/sift")
        #expect(SQLiteTypeCache.fromEnvironment(["HOME": "/home/ann", "XDG_CACHE_HOME": "/var/cache/ann"])?.directory.path == "/var/cache/ann/sift")
        #expect(SQLiteTypeCache.fromEnvironment(["HOME": "/home/ann", "XDG_CACHE_HOME": "relative"])?.directory.path == "/home/ann/.cache/sift")
        #expect(SQLiteTypeCache.fromEnvironment(["HOME": "/home/ann", "SIFT_CACHE_DIR": "/tmp/c"])?.directory.path == "/tmp/c")
        for off in ["off", "0", "no", "false", "OFF"] {
            #expect(SQLiteTypeCache.fromEnvironment(["HOME": "/home/ann", "SIFT_CACHE_DIR": "/tmp/c", "SIFT_CACHE": off]) == nil)
        }
        #expect(SQLiteTypeCache.fromEnvironment([:]) == nil)
    }
}
