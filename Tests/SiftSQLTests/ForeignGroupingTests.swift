import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Grouped dictionary fetches on databases Sift did not create (issue 16): GROUP BY, the
/// aggregates and to-one paths run in SQLite as on Sift's own layout — the joined row's key for
/// a to-one, the first object's value for a Double column that holds `2` and `2.0` — with the
/// evaluator's answer on the same rows; grouping by an Undefined column stays in memory.
@Suite struct ForeignGroupingTests {
    /// People and their batting lines, Lahman-like: a foreign key (one naming no row, one as
    /// text, one NULL), dates in two ISO forms, text in NFC and not, a column holding `2` and
    /// `2.0` (and integers and reals beyond 9.0e18), one holding integers and text, NULLs.
    static let ddl = """
        CREATE TABLE people (id INTEGER PRIMARY KEY, nameLast TEXT, born DATE, bats TEXT);
        CREATE TABLE batting (
            id INTEGER PRIMARY KEY, player_id, team TEXT, HR INT, score, played DATETIME, note, flag BOOL,
            FOREIGN KEY (player_id) REFERENCES people (id));
        INSERT INTO people VALUES
            (1, 'Aaron', '1934-02-05', 'R'), (2, 'Ruth', '1895-02-06 00:00:00', 'L'), (3, 'Bonds', '1964-07-24', 'L'),
            (4, 'Jose\u{0301}', '1934-02-05 00:00:00', NULL), (5, 'Jos\u{00E9}', NULL, 'R'), (6, NULL, '1970-01-01', 'B');
        INSERT INTO batting VALUES
            (1, 1, 'ATL', 44, 2, '2011-06-01', 5, 1),
            (2, 2, 'NYA', 54, 2.0, '2011-06-01 00:00:00', 'many', 0),
            (3, 1, 'ATL', 39, 1.5, '2012-01-01', 7, NULL),
            (4, '2', 'NYA', 60, NULL, NULL, 'many', 1),
            (5, 3, 'SFN', 73, 2.0, '2011-06-01T00:00:00Z', NULL, 0),
            (6, 99, 'SFN', 12, 9100000000000000000, '2012-01-01', 5, 1),
            (7, NULL, NULL, NULL, 9.1e18, NULL, NULL, NULL),
            (8, 4, 'ATL', 8, 2, '2013-05-05', 5.5, 0),
            (9, 5, 'MON', 3, 3, '2013-05-05 00:00:00', 'few', 1),
            (10, 6, 'MON', NULL, 1.5, '2011-06-01', 5, 0),
            (11, 3, 'SFN', 45, 2, '2012-01-01', 'many', 1),
            (12, 2, NULL, 46, 2.0, NULL, 7, NULL);
        """

    static func withStore<T>(_ body: (SQLiteStore, URL) throws -> T) throws -> T {
        let url = try ForeignDatabaseTests.database(ddl)
        defer { ForeignDatabaseTests.remove(url) }
        return try body(try SQLiteStore.open(at: url), url)
    }

    @Test func theFixtureHasTheTypesItIsAbout() throws {
        try Self.withStore { store, _ in
            let batting = try #require(store.model.entity(named: "batting"))
            #expect(batting.attribute(named: "score")?.type == .double)
            #expect(batting.attribute(named: "played")?.type == .date)
            #expect(batting.attribute(named: "note")?.type == .undefined)
            #expect(batting.attribute(named: "flag")?.type == .boolean)
            #expect(batting.relationship(named: "player")?.destination == "people")
            #expect(store.model.entity(named: "people")?.attribute(named: "born")?.type == .date)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let sql: String
        var testDescription: String { statement }
    }

    /// By a column, by a to-one path, by the to-one itself; HAVING on an alias and sorting by an
    /// aggregate run on the grouped rows, as on Sift's layout.
    static let cases: [Case] = [
        Case(statement: "SELECT team, count:(id) AS n, sum:(HR) AS hr, average:(HR) AS mean, min:(played) AS earliest, max:(score) AS top FROM batting GROUP BY team HAVING hr > 50 ORDER BY hr DESC",
             sql: #"SELECT "t0"."team", count("t0"."id"), sift_group_sum("t0"."HR", "t0"."id"), sift_group_average("t0"."HR", "t0"."id"), sift_group_min(sift_date("t0"."played", 'unix'), "t0"."id"), sift_group_max("t0"."score", "t0"."id") FROM "batting" AS "t0" GROUP BY "t0"."team" ORDER BY min("t0"."id")"#),
        Case(statement: "SELECT player.nameLast AS surname, sum:(HR) AS hr, count:(player) AS n FROM batting WHERE HR > 5 GROUP BY player.nameLast HAVING hr >= 46 ORDER BY hr DESC, surname",
             sql: #"SELECT sift_nfc("t1"."nameLast"), sift_group_sum("t0"."HR", "t0"."id"), count("t1"."id") FROM "batting" AS "t0" LEFT JOIN "people" AS "t1" ON "t1"."id" = "t0"."player_id" WHERE "t0"."HR" > ?1 GROUP BY sift_nfc("t1"."nameLast") ORDER BY min("t0"."id")"#),
        Case(statement: "SELECT player, max:(HR) AS best FROM batting GROUP BY player ORDER BY best",
             sql: #"SELECT "t1"."id", sift_group_max("t0"."HR", "t0"."id") FROM "batting" AS "t0" LEFT JOIN "people" AS "t1" ON "t1"."id" = "t0"."player_id" GROUP BY "t1"."id" ORDER BY min("t0"."id")"#),
        Case(statement: "SELECT score, count:(team) AS n FROM batting GROUP BY score",
             sql: #"SELECT sift_group_first("t0"."score", "t0"."id"), count("t0"."team") FROM "batting" AS "t0" GROUP BY "t0"."score", CASE WHEN "t0"."score" >= 9.0e18 OR "t0"."score" <= -9.0e18 THEN typeof("t0"."score") END ORDER BY min("t0"."id")"#),
        // Without grouping: a to-one (one naming no row is nil) per row, and one row of aggregates.
        Case(statement: "SELECT id, player, player.nameLast AS surname FROM batting WHERE HR > 40",
             sql: #"SELECT "t0"."id", "t1"."id", sift_nfc("t1"."nameLast") FROM "batting" AS "t0" LEFT JOIN "people" AS "t1" ON "t1"."id" = "t0"."player_id" WHERE "t0"."HR" > ?1 ORDER BY "t0"."id""#),
        Case(statement: "SELECT count:(player) AS n, sum:(score) AS total, max:(played) AS latest FROM batting",
             sql: #"SELECT count("t1"."id"), sift_group_sum("t0"."score", "t0"."id"), sift_group_max(sift_date("t0"."played", 'unix'), "t0"."id") FROM "batting" AS "t0" LEFT JOIN "people" AS "t1" ON "t1"."id" = "t0"."player_id""#),
    ]

    @Test(arguments: cases)
    func compilesTo(_ c: Case) throws {
        try Self.withStore { store, _ in
            let request = try FetchRequest(statement: c.statement)
            let generated = try store.generatedSQL(for: request)
            #expect(generated.sql == c.sql)
            #expect(generated.inMemoryPredicate == nil)
            #expect(!(generated.inMemoryReason ?? "").contains("dictionaries in memory"), "\(generated)")
            #expect(try Self.text(Self.fetched(request, on: store)) == Self.text(Self.inMemory(request, on: store)))
        }
    }

    /// The examples' answers, checked by hand: `José` in two forms is one group; the foreign key
    /// naming no row and the NULL one are the nil group; `2` and `2.0` are one group, whose
    /// value is the first object's (the integer); 9.1e18 as an integer and as a real are two.
    @Test func groupsAreTheEvaluators() throws {
        try Self.withStore { store, _ in
            let surnames = try Self.fetched(FetchRequest(statement: "SELECT player.nameLast AS surname, count:(id) AS n FROM batting GROUP BY player.nameLast"), on: store)
            #expect(Self.text(surnames) == "surname=string:Aaron n=integer:2\nsurname=string:Ruth n=integer:3\nsurname=string:Bonds n=integer:2\nsurname=nil: n=integer:3\nsurname=string:Jos\u{00E9} n=integer:2")
            let scores = try Self.fetched(FetchRequest(statement: "SELECT score, count:(id) AS n FROM batting GROUP BY score"), on: store)
            #expect(Self.text(scores) == "score=integer:2 n=integer:6\nscore=double:1.5 n=integer:2\nscore=nil: n=integer:1\nscore=integer:9100000000000000000 n=integer:1\nscore=double:9.1e+18 n=integer:1\nscore=integer:3 n=integer:1")
        }
    }

    /// Grouping by an Undefined column runs in memory, and says why.
    @Test func groupingByAnUndefinedColumnStaysInMemory() throws {
        try Self.withStore { store, _ in
            let request = try FetchRequest(statement: "SELECT note, count:(id) AS n FROM batting GROUP BY note")
            let generated = try store.generatedSQL(for: request)
            #expect(generated.inMemoryReason == "dictionaries in memory: grouping by note, whose values are of several kinds")
            #expect(try Self.text(Self.fetched(request, on: store)) == Self.text(Self.inMemory(request, on: store)))
            // Sorting the groups does not hide why.
            let sorted = try store.generatedSQL(for: FetchRequest(statement: "SELECT note, count:(id) AS n FROM batting GROUP BY note SORT BY n"))
            #expect(sorted.description.hasSuffix("-- sorted in memory (groups sort by their properties; dictionaries in memory: grouping by note, whose values are of several kinds)"),
                    "\(sorted)")
        }
    }

    /// Random grouped fetches (group-by key paths through the to-one, aggregates of every
    /// column, HAVING, sorting, paging): SQLite's answer is the evaluator's on the same rows,
    /// answer or error, and every one whose groups SQL can make runs in SQL.
    @Test func randomGroupedFetchesAgree() throws {
        try Self.withStore { store, _ in
            let groups = ["team", "score", "played", "flag", "HR", "player", "player.nameLast", "player.born", "player.bats", "note", "player.id"]
            let numbers = ["id", "HR", "score", "flag", "player.id"]
            let ordered = numbers + ["played", "team", "note", "player.nameLast", "player.born"]
            let predicates = ["HR > 10", "team != nil", "played >= '2012-01-01'", "score > 1", "player.nameLast BEGINSWITH 'B'", "flag == YES"]
            var random = DifferentialRandom(seed: 16)
            func pick(_ items: [String]) -> String { items[random.below(items.count)] }
            func aggregate() -> String {
                switch random.below(5) {
                case 0: return "count:(\(pick(ordered + ["player"])))"
                case 1: return "sum:(\(pick(numbers)))"
                case 2: return "average:(\(pick(numbers)))"
                case 3: return "min:(\(pick(ordered)))"
                default: return "max:(\(pick(ordered)))"
                }
            }
            var mismatches: [String] = []
            var inSQL = 0
            for _ in 0..<250 {
                var keys = [pick(groups)]
                if random.below(3) == 0 { keys.append(pick(groups)) }
                keys = Array(Set(keys)).sorted()
                var selected = keys.enumerated().map { "\($0.element) AS g\($0.offset)" }
                for index in 0..<(1 + random.below(3)) { selected.append("\(aggregate()) AS a\(index)") }
                var statement = "SELECT \(selected.joined(separator: ", ")) FROM batting"
                if random.below(2) == 0 { statement += " WHERE \(pick(predicates))" }
                statement += " GROUP BY \(keys.joined(separator: ", "))"
                if random.below(3) == 0 { statement += " HAVING a0 != nil" }
                if random.below(2) == 0 { statement += " SORT BY a0\(random.below(2) == 0 ? " DESC" : ""), g0" }
                if random.below(4) == 0 { statement += " LIMIT 2 OFFSET 1" }
                let request = try FetchRequest(statement: statement)
                let fetched = Result { try Self.text(Self.fetched(request, on: store)) }
                let evaluated = Result { try Self.text(Self.inMemory(request, on: store)) }
                switch (fetched, evaluated) {
                case let (.success(a), .success(b)) where a == b: break
                case let (.failure(a), .failure(b)) where "\(a)" == "\(b)": break
                default: mismatches.append("\(statement):\n  SQLite \(fetched)\n  evaluator \(evaluated)")
                }
                let reason = try store.generatedSQL(for: request).inMemoryReason ?? ""
                if !reason.contains("dictionaries in memory") {
                    inSQL += 1
                } else if !keys.contains("note") {
                    mismatches.append("\(statement): grouped in memory (\(reason))")
                }
            }
            #expect(inSQL > 180)
            #expect(mismatches.isEmpty, "\(mismatches.count) disagree:\n\(mismatches.prefix(8).joined(separator: "\n"))")
        }
    }

    // MARK: Support

    static func fetched(_ request: FetchRequest, on store: SQLiteStore) throws -> [ValueDictionary] {
        guard case .dictionaries(let rows) = try store.execute(request) else { throw SQLUnsupported("not dictionaries") }
        return rows
    }

    /// The evaluator's dictionaries from the objects the store reads, as the SQLite store makes
    /// them when SQL cannot.
    static func inMemory(_ request: FetchRequest, on store: SQLiteStore) throws -> [ValueDictionary] {
        let entity = try #require(store.model.entity(named: request.entityName))
        let objects = try store.fetch(SQLFetchExecutor.objectsRequest(for: request))
        return try DictionaryResults.make(request, objects: objects.map { Value.object($0) }, entity: entity)
    }

    /// Rows as text, each value with its kind (`2` and `2.0` differ).
    static func text(_ rows: [ValueDictionary]) -> String {
        rows.map { row in row.pairs.map { "\($0.0)=\($0.1.kindName):\(ValueText.text($0.1))" }.joined(separator: " ") }.joined(separator: "\n")
    }
}
