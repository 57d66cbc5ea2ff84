import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Databases Sift did not write (issue 14): column types chosen from what is stored as well as
/// what is declared, Undefined columns compiled with run-time kind checks, dates stored by other
/// programs — and every fetch equal to the evaluator reading the same rows, and to hand-written
/// SQL where there is some.
@Suite struct ForeignDatabaseTests {
    /// A database made with hand-written DDL in a fresh directory; the caller removes it.
    static func database(_ sql: String, name: String = "foreign.db") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-foreign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        let database = try SQLiteDatabase(path: url.path, options: [.create])
        try database.execute(sql)
        return url
    }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

    static func scalar(_ url: URL, _ sql: String) throws -> Int {
        let database = try SQLiteDatabase(path: url.path, options: [])
        guard case .integer(let n) = try database.scalar(sql) else { return -1 }
        return Int(n)
    }

    /// The same value (kind and all): `Value` is not `Equatable`.
    static func same(_ a: Value?, _ b: Value) -> Bool {
        guard let a, a.kindName == b.kindName else { return false }
        return ValueComparison.equals(a, b)
    }

    // MARK: The issue's examples

    /// SwiftPM's build database: `key STRING` is NUMERIC affinity, but holds text.
    @Test func aStringColumnHoldingTextIsAString() throws {
        var inserts: [String] = []
        for i in 0..<300 { inserts.append("('\(["C", "N", "P", "c"][i % 4])<key-\(i)>')") }
        let url = try Self.database("""
            CREATE TABLE key_names (id INTEGER PRIMARY KEY, key STRING UNIQUE);
            INSERT INTO key_names (key) VALUES \(inserts.joined(separator: ", "));
            """)
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        #expect(store.model.entity(named: "key_names")?.attribute(named: "key")?.type == .string)
        #expect(store.columnTypeReasons["key_names"]?["key"] == "declared STRING")
        let expected = try Self.scalar(url, "SELECT count(*) FROM key_names WHERE substr(key, 1, 1) = 'C'")
        #expect(expected == 75)
        let request = try FetchRequest(statement: #"COUNT key_names WHERE key BEGINSWITH "C""#)
        #expect(try store.count(request) == expected)
        let sql = try store.generatedSQL(for: request)
        #expect(sql.inMemoryPredicate == nil)
        #expect(!sql.sql.contains("WHERE 0"))
    }

    /// Chinook's `InvoiceDate DATETIME` holds `2011-06-01 00:00:00` text.
    @Test func textDatesAreDates() throws {
        var rows: [String] = []
        for i in 0..<412 {
            let year = 2009 + i / 83, month = 1 + (i / 7) % 12, day = 1 + i % 28
            rows.append("(\(i + 1), '\(year)-\(String(format: "%02d", month))-\(String(format: "%02d", day)) 00:00:00', \(Double(i % 20) + 0.99))")
        }
        let url = try Self.database("""
            CREATE TABLE Invoice (InvoiceId INTEGER PRIMARY KEY, InvoiceDate DATETIME NOT NULL, Total NUMERIC(10,2) NOT NULL);
            INSERT INTO Invoice VALUES \(rows.joined(separator: ", "));
            """)
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let invoice = try #require(store.model.entity(named: "Invoice"))
        #expect(invoice.attribute(named: "InvoiceDate")?.type == .date)
        #expect(invoice.attribute(named: "Total")?.type == .decimal)
        #expect(store.columnTypeReasons["Invoice"]?["InvoiceDate"] == "declared DATETIME; ISO 8601 text (YYYY-MM-DD HH:MM:SS)")
        let since = try Self.scalar(url, "SELECT count(*) FROM Invoice WHERE InvoiceDate >= '2011-06-01'")
        let in2011 = try Self.scalar(url, "SELECT count(*) FROM Invoice WHERE InvoiceDate LIKE '2011%'")
        #expect(since > 0 && since < 412 && in2011 > 0)
        for statement in [#"COUNT Invoice WHERE InvoiceDate >= CAST("2011-06-01T00:00:00Z", "NSDate")"#,
                          #"COUNT Invoice WHERE InvoiceDate >= "2011-06-01T00:00:00Z""#,
                          #"COUNT Invoice WHERE InvoiceDate >= "2011-06-01""#] {
            let request = try FetchRequest(statement: statement)
            #expect(try store.count(request) == since, "\(statement)")
            #expect(try store.generatedSQL(for: request).inMemoryPredicate == nil)
        }
        let year = try FetchRequest(statement: #"COUNT Invoice WHERE InvoiceDate >= "2011-01-01" AND InvoiceDate < "2012-01-01""#)
        #expect(try store.count(year) == in2011)
        // A date is not a string: BEGINSWITH says so before running, and how to write it.
        #expect {
            try store.count(FetchRequest(statement: #"COUNT Invoice WHERE InvoiceDate BEGINSWITH "2011""#))
        } throws: { error in
            (error as? StoreError)?.message == #"BEGINSWITH needs a string, and InvoiceDate is a Date attribute of Invoice (compare it with dates: InvoiceDate >= "2011-01-01" AND InvoiceDate < "2012-01-01")"#
        }
        // Read back as dates, sorted as dates.
        let first = try store.fetch(FetchRequest(statement: "Invoice SORT BY InvoiceDate LIMIT 1"))
        #expect(Self.same(first.first?[attribute: "InvoiceDate"], .date(try #require(ISO8601.date(from: "2009-01-01T00:00:00Z")))))
    }

    // MARK: Types from stored values

    /// One column per case of the rules: declared types of every affinity, mixed storage
    /// classes, no declared type, NULL only, dates in every encoding.
    static let mixedDDL = """
        CREATE TABLE things (
            id INTEGER PRIMARY KEY, s STRING, v VARCHAR(20), n NUMERIC, i INT, misc, b BOOL, flag BOOLEAN,
            d DATETIME, u TIMESTAMP, ms TIMESTAMP, j DATE, t DATE, r REAL, x BLOB, e INT, z, js JSON);
        """

    static let mixedRows: [String] = [
        "(1, 'Cat', 'cat', 1, 5, 5, 1, 'yes', '2011-06-01 00:00:00', 1300000000, 1300000000000, 2455713.5, '2011-06-01', 1, x'00', NULL, NULL, '{}')",
        "(2, 'cot', 'Cot', 2.5, 'abc', 'abc', 0, 'no', '2011-06-01T12:30:00Z', 1600000000, 1600000000500, 2451910.5, 'soon', 2, x'01ff', NULL, NULL, '[1]')",
        "(3, 'Émile', NULL, -3, 10, 2.5, NULL, NULL, '2001-01-01', NULL, NULL, 2440587.5, NULL, 3, NULL, NULL, NULL, 'x')",
        "(4, '', '', 0, '', '', 1, 'yes', NULL, 0, NULL, NULL, '2020-02-02', -1, x'', NULL, NULL, '')",
        "(5, 'a\u{0301}', 'b', 7, 7.5, x'0102', 0, 'no', '1999-12-31 23:59:59.5', 978307200, 978307200000, 2451910.75, 'late 1999', 0, x'02', NULL, NULL, 'null')",
        "(6, 'Bob', 'bob', 10, -2, NULL, 1, NULL, '2011-06-01', 1300000000, 1300000000000, 2455713.5, '', 10, x'03', NULL, NULL, 'true')",
        "(7, 'cAT', 'CAT', 2.5, 'Abc', 'ABC', NULL, 'yes', '2030-01-01 00:00', 2000000000, 2000000000000, 2462502.5, 'x', 2, x'00', NULL, NULL, '[s]')",
        "(8, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
    ]

    static func mixedDatabase() throws -> URL {
        try database(mixedDDL + "INSERT INTO things VALUES \(mixedRows.joined(separator: ",\n"));")
    }

    @Test func typesAreChosenFromStoredValues() throws {
        let url = try Self.mixedDatabase()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let things = try #require(store.model.entity(named: "things"))
        let types = Dictionary(uniqueKeysWithValues: things.attributes.map { ($0.name, $0.type) })
        let expected: [String: AttributeType] = [
            "id": .integer64, "s": .string, "v": .string, "n": .double, "i": .undefined, "misc": .undefined,
            "b": .boolean, "flag": .string, "d": .date, "u": .date, "ms": .date, "j": .date, "t": .string, "r": .double,
            "x": .binary, "e": .integer64, "z": .undefined, "js": .string,
        ]
        #expect(types == expected)
        let reasons = try #require(store.columnTypeReasons["things"])
        #expect(reasons["s"] == "declared STRING")
        #expect(reasons["i"] == "declared INT; holds integer, real, text")
        #expect(reasons["misc"] == "no declared type; holds integer, real, text, blob")
        #expect(reasons["u"] == "declared TIMESTAMP; Unix seconds")
        #expect(reasons["ms"] == "declared TIMESTAMP; Unix milliseconds")
        #expect(reasons["j"] == "declared DATE; Julian days")
        #expect(reasons["d"] == "declared DATETIME; ISO 8601 text")
        #expect(reasons["e"] == "declared INT; no values")
        #expect(reasons["z"] == "no declared type; no values")
        // Dates in every encoding read as the same instant.
        let first = try #require(try store.fetch(FetchRequest(statement: "things WHERE id == 1")).first)
        let june2011 = try #require(ISO8601.date(from: "2011-06-01T00:00:00Z"))
        #expect(Self.same(first[attribute: "d"], .date(june2011)))
        #expect(Self.same(first[attribute: "j"], .date(june2011)))
        #expect(Self.same(first[attribute: "u"], .date(Date(timeIntervalSince1970: 1_300_000_000))))
        #expect(Self.same(first[attribute: "ms"], .date(Date(timeIntervalSince1970: 1_300_000_000))))
        #expect(Self.same(first[attribute: "i"], .int(5)))
        let second = try #require(try store.fetch(FetchRequest(statement: "things WHERE id == 2")).first)
        #expect(Self.same(second[attribute: "i"], .string("abc")))
    }

    /// Predicates on every column: the SQLite store's answer (or error) is the evaluator's on the
    /// same rows, and the comparisons of Undefined columns with constants stay in SQL.
    @Test(arguments: [
        "i == 5", "i == '5'", "i != 5", "i > 3", "i <= 7.5", "i == 'abc'", "i ==[c] 'ABC'", "i BEGINSWITH[c] 'a'", "i < 'b'",
        "i == nil", "i != nil", "i IN {5, 'abc', nil}", "i IN {10, -2}", "i BETWEEN {0, 8}", "i BETWEEN {'a', 'b'}", "NOT (i > 3)",
        "i CONTAINS ''", "'b' IN i", "i LIKE 'a*'", "i MATCHES '[a-z]+'",
        "misc == 5", "misc == 2.5", "misc > 1", "misc == 'abc'", "misc ==[cd] 'ABC'", "misc == nil", "misc != 'abc'", "misc ENDSWITH 'c'",
        "misc BETWEEN {0, 3}", "misc IN {0, 'ABC'}", "misc < 'b' OR misc > 4",
        "s BEGINSWITH 'C'", "s BEGINSWITH[c] 'c'", "s ==[d] 'emile'", "s == 'á'", "s > 'B'", "s CONTAINS ''", "v ENDSWITH[c] 'T'", "v == s",
        "n > 2", "n == 2.5", "n BETWEEN {0, 7}", "r == 2", "r < n", "b == YES", "b == 1", "b != NO", "flag == 'yes'",
        "d >= '2011-06-01'", "d > CAST('2011-06-01T00:00:00Z', 'NSDate')", "d BETWEEN {'2000-01-01', '2012-01-01'}", "d == nil",
        "u > '2020-01-01T00:00:00Z'", "u == d", "ms >= u", "j < '2001-01-01T12:00:00Z'", "j IN {'2011-06-01', '2001-01-01'}",
        "t BEGINSWITH '20'", "t == ''", "x == nil", "e == nil", "z == nil", "z != 5", "js BEGINSWITH '['",
        "i > 3 AND misc != nil", "i == 5 OR s == 'Bob'", "NOT (misc == 'abc') AND NOT (b == YES)",
    ])
    func everyFetchEqualsTheEvaluatorOnTheSameRows(_ format: String) throws {
        let url = try Self.mixedDatabase()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(entityName: "things", predicate: format)
        let evaluated = try Self.evaluated(request, on: store)
        let fetched = Result { try store.fetch(request).objectIDs.map(\.rawValue) }
        switch (fetched, evaluated) {
        case let (.success(ids), .success(expected)): #expect(ids == expected, "\(format)")
        case let (.failure(error), .failure(expectedError)): #expect("\(error)" == "\(expectedError)", "\(format)")
        default: Issue.record("\(format): SQLite \(fetched), evaluator \(evaluated)")
        }
        if case .success = fetched, ["i ", "misc "].contains(where: format.hasPrefix), !format.contains("MATCHES"), !format.contains("LIKE"),
           !format.contains("CONTAINS"), !format.contains(" IN i") {
            #expect(try store.generatedSQL(for: request).inMemoryPredicate == nil, "\(format) runs in memory")
        }
    }

    /// Random predicates over every column (mixed storage classes, every declared affinity,
    /// dates in every encoding, NULL-only columns) with constants of every kind: SQLite and the
    /// evaluator on the same rows agree on each, answer or error.
    @Test func randomPredicatesAgree() throws {
        let url = try Self.mixedDatabase()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let columns = ["i", "misc", "s", "v", "n", "r", "b", "flag", "d", "u", "ms", "j", "t", "x", "e", "z", "js"]
        let constants = ["5", "2.5", "-2", "0", "1", "'abc'", "'ABC'", "''", "'a'", "'b'", "'C'", "'20'", "'5'", "nil", "YES", "NO",
                         "'2011-06-01'", "CAST(0, 'NSDate')", "CAST('2011-06-01T00:00:00Z', 'NSDate')", "'é'", "'a\u{301}'"]
        let operators = ["==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "==[c]", "BEGINSWITH[cd]", "<[c]"]
        var random = DifferentialRandom(seed: 14)
        func pick(_ items: [String]) -> String { items[random.below(items.count)] }
        func comparison() -> String {
            let column = pick(columns)
            switch random.below(8) {
            case 0: return "\(column) IN {\(pick(constants)), \(pick(constants))}"
            case 1: return "\(column) BETWEEN {\(pick(constants)), \(pick(constants))}"
            case 2: return "\(column) \(pick(["==", "!=", "<", ">"])) \(pick(columns))"
            case 3: return "\(pick(constants)) \(pick(operators)) \(column)"
            default: return "\(column) \(pick(operators)) \(pick(constants))"
            }
        }
        var mismatches: [String] = []
        var checked = 0
        for _ in 0..<400 {
            var format = comparison()
            switch random.below(4) {
            case 0: format = "\(format) AND \(comparison())"
            case 1: format = "\(format) OR NOT (\(comparison()))"
            case 2: format = "NOT (\(format))"
            default: break
            }
            guard let request = try? FetchRequest(entityName: "things", predicate: format) else { continue }
            checked += 1
            let evaluated = try Self.evaluated(request, on: store)
            let fetched = Result { try store.fetch(request).objectIDs.map(\.rawValue) }
            switch (fetched, evaluated) {
            case let (.success(ids), .success(expected)) where ids == expected: break
            case let (.failure(a), .failure(b)) where "\(a)" == "\(b)": break
            default: mismatches.append("\(format): SQLite \(fetched), evaluator \(evaluated)")
            }
        }
        #expect(checked > 300)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(checked) disagree:\n\(mismatches.prefix(10).joined(separator: "\n"))")
    }

    /// A to-one is read on the joined row in predicates too: a foreign key naming no row is nil,
    /// one holding the key as text (`'2'`) names its row, as the objects read them.
    @Test(arguments: ["player == nil", "player != nil", "NOT (player == nil) AND HR > 10", "player.nameLast == nil", "player.id == 2"])
    func toOnePredicatesReadTheJoinedRow(_ format: String) throws {
        try ForeignGroupingTests.withStore { store, _ in
            let request = try FetchRequest(entityName: "batting", predicate: format)
            let evaluated = try Self.evaluated(request, on: store).get()
            #expect(try store.fetch(request).objectIDs.map(\.rawValue) == evaluated, "\(format)")
            #expect(try store.generatedSQL(for: request).inMemoryPredicate == nil)
        }
    }

    /// The evaluator's answer on the rows as the store reads them: every object, then the
    /// predicate with the model's typed rules, in memory.
    static func evaluated(_ request: FetchRequest, on store: SQLiteStore) throws -> Result<[String], any Error> {
        let all = try store.fetch(FetchRequest(entityName: request.entityName))
        let entity = try #require(store.model.entity(named: request.entityName))
        return Result {
            guard let predicate = request.predicate else { return all.objectIDs.map(\.rawValue) }
            let typed = try ModelKeyPaths.typedPredicate(predicate, entity: entity, model: store.model)
            let compiled = try CompiledPredicate(typed)
            return try all.filter { try compiled.evaluate(.object($0)) }.map(\.objectID.rawValue)
        }
    }

    /// A table wider than one scan's result columns is read in groups.
    @Test func wideTablesAreReadInGroups() throws {
        let names = (0..<450).map { "c\($0)" }
        let url = try Self.database("""
            CREATE TABLE wide (id INTEGER PRIMARY KEY, \(names.map { "\($0) DATE" }.joined(separator: ", ")));
            INSERT INTO wide (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "'2011-06-01'" }.joined(separator: ", ")));
            """)
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let wide = try #require(store.model.entity(named: "wide"))
        #expect(wide.attributes.filter { $0.type == .date }.count == 450)
        #expect(try store.count(FetchRequest(entityName: "wide", predicate: "c449 == '2011-06-01' AND c0 > '2011-01-01'")) == 1)
    }

    /// Sorting and sectioning an Undefined column run in the evaluator, in its order.
    @Test func sortingAnUndefinedColumnFollowsTheEvaluator() throws {
        let url = try Self.mixedDatabase()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(statement: "things SORT BY misc")
        let fetched = try store.fetch(request).map { $0 }
        let expected = try Sorting.sortedIndices(fetched.map { Value.object($0) }, by: request.sortDescriptors)
        #expect(expected == Array(fetched.indices))
    }

    /// Beyond the rows read to choose a type (the first and last of the table), a column's kind
    /// is confirmed by its index, or it is read only where its values are of that kind.
    @Test func largeTablesAreConfirmedByAnIndexOrReadByKind() throws {
        let sample = ColumnTypeInference.sampleRows
        let middle = sample + 5
        let url = try Self.database("""
            CREATE TABLE big (id INTEGER PRIMARY KEY, a INT, b INT, c VARCHAR(9), flag BOOLEAN);
            CREATE INDEX big_a ON big (a);
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(3 * sample))
            INSERT INTO big SELECT k, k, k, 'c' || k, k % 2 FROM n;
            UPDATE big SET a = 'late', b = 'late', c = 7, flag = 2 WHERE id = \(middle);
            """)
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let big = try #require(store.model.entity(named: "big"))
        let reasons = try #require(store.columnTypeReasons["big"])
        // The index shows text beyond the rows read: a holds integers and text.
        #expect(big.attribute(named: "a")?.type == .undefined)
        #expect(reasons["a"] == "declared INT; holds integer, text")
        // No index: b is read as integers only.
        #expect(big.attribute(named: "b")?.type == .integer64)
        #expect(reasons["b"] == "declared INT; the first and last \(sample) rows read, values of other kinds read as nil")
        // TEXT affinity: SQLite stored the 7 as text.
        #expect(big.attribute(named: "c")?.type == .string)
        // A Boolean read from its first and last rows: 0 and 1 only.
        #expect(big.attribute(named: "flag")?.type == .boolean)
        #expect(reasons["flag"] == "declared BOOLEAN; the first and last \(sample) rows read, values other than 0 and 1 read as nil")
        for format in ["a == 'late'", "b == nil", "b == 'late'", "c == '7'", "flag == nil"] {
            let request = try FetchRequest(entityName: "big", predicate: format)
            #expect(try store.fetch(request).objectIDs.map(\.rawValue) == (format == "b == 'late'" ? [] : ["big/\(middle)"]), "\(format)")
        }
        // The row beyond the sample reads the same in memory: nil where SQL reads nil.
        let object = try #require(store.object(with: ObjectID("big/\(middle)")))
        #expect(object[attribute: "b"]?.isNull == true)
        #expect(object[attribute: "flag"]?.isNull == true)
        #expect(try store.count(FetchRequest(entityName: "big", predicate: "flag == YES")) == Int(3 * sample / 2) - 1)
    }
}
