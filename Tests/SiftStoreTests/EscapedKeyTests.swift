import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// Issue 28 §2: a key that is not a plain name (Lahman's `2B`, a reserved word such as `size`)
/// works everywhere a key does — WHERE, SORT BY, SECTION BY, SELECT, GROUP BY, HAVING — and a
/// SELECT's alias sorts without GROUP BY, with the same answers in every store.
@Suite struct EscapedKeyTests {
    static let modelJSON = #"""
    {"name": "Baseball", "entities": [{"name": "Teams", "attributes": [
      {"name": "teamID", "type": "String"}, {"name": "yearID", "type": "Integer 64"},
      {"name": "2B", "type": "Integer 64"}, {"name": "3B", "type": "Integer 64"}, {"name": "size", "type": "Integer 64"}]}]}
    """#

    /// Teams and their doubles (2B), triples (3B) and a column named like a reserved word; one
    /// team has no 2B, two share a 2B.
    static let rows: [(String, String, Int64, Int64?, Int64, Int64)] = [
        ("t1", "ATL", 2000, 274, 26, 3), ("t2", "CLE", 2000, 310, 30, 1), ("t3", "TEX", 2000, 330, 35, 2),
        ("t4", "NYA", 2000, 274, 23, 1), ("t5", "SFN", 2000, nil, 40, 3), ("t6", "ATL", 2001, 250, 20, 2),
    ]

    static func store(_ kind: StoreKind, in directory: URL) throws -> any PersistentStore {
        let model = try JSONModelFormat.read(Data(modelJSON.utf8))
        let store = try kind.make(model, name: "teams", in: directory)
        for (id, team, year, doubles, triples, size) in rows {
            var attributes: [String: Value] = ["teamID": .string(team), "yearID": .int(year), "3B": .int(triples), "size": .int(size)]
            if let doubles { attributes["2B"] = .int(doubles) }
            try store.insert("Teams", id: ObjectID(id), attributes)
        }
        try store.save()
        return try kind.reopen(store) ?? store
    }

    /// Each statement and its answer: object IDs, sections, or rows with their keys.
    static let cases: [(statement: String, answer: String)] = [
        ("Teams WHERE #2B > 270 SORT BY #2B DESC, teamID", "t3 t2 t1 t4"),
        ("Teams SORT BY #3B", "t6 t4 t1 t2 t3 t5"),
        ("Teams SORT BY size DESC, #2B", "t5 t1 t6 t3 t4 t2"),
        ("Teams SORT BY #2B SECTION BY #2B", "§ [t5] §250 [t6] §274 [t1, t4] §310 [t2] §330 [t3]"),
        ("Teams SORT BY size SECTION BY size", "§1 [t2, t4] §2 [t3, t6] §3 [t1, t5]"),
        ("SELECT teamID, #2B FROM Teams WHERE yearID == 2000 SORT BY #2B DESC", "teamID=TEX 2B=330 | teamID=CLE 2B=310 | teamID=ATL 2B=274 | teamID=NYA 2B=274 | teamID=SFN 2B=nil"),
        ("SELECT #2B, count:(teamID) AS n FROM Teams GROUP BY #2B HAVING #2B >= 274 SORT BY #2B DESC", "2B=330 n=1 | 2B=310 n=1 | 2B=274 n=2"),
        ("SELECT #size, sum:(#3B) AS triples FROM Teams GROUP BY #size SORT BY size", "size=1 triples=53 | size=2 triples=55 | size=3 triples=66"),
        // An alias sorts without GROUP BY: one holding a key path (as SQL can), one holding an
        // expression (the rows sort by its value), with a key path after it.
        ("SELECT teamID, #2B AS doubles FROM Teams WHERE yearID == 2000 SORT BY doubles DESC LIMIT 3",
         "teamID=TEX doubles=330 | teamID=CLE doubles=310 | teamID=ATL doubles=274"),
        ("SELECT teamID, #2B + #3B AS xbh FROM Teams WHERE #2B != nil SORT BY xbh DESC, teamID LIMIT 4 OFFSET 1",
         "teamID=CLE xbh=340 | teamID=ATL xbh=300 | teamID=NYA xbh=297 | teamID=ATL xbh=270"),
        ("SELECT teamID AS first, #3B AS size FROM Teams SORT BY first DESC, size", "first=TEX size=35 | first=SFN size=40 | first=NYA size=23 | first=CLE size=30 | first=ATL size=20 | first=ATL size=26"),
        // One row of aggregates has nothing to order: its alias may still be named.
        ("SELECT sum:(#3B) AS triples, max:(#2B) AS most FROM Teams SORT BY triples DESC", "triples=174 most=330"),
        // An alias takes precedence over a key of the entity spelt the same, as in SQL.
        ("SELECT teamID, #3B AS yearID FROM Teams SORT BY yearID LIMIT 2", "teamID=ATL yearID=20 | teamID=NYA yearID=23"),
    ]

    static func answer(_ store: any PersistentStore, _ request: FetchRequest) throws -> String {
        if request.sectionNameKeyPath != nil {
            return try store.fetchSections(request).sections.map { "§\($0.name) [\($0.objects.objectIDs.map(\.rawValue).joined(separator: ", "))]" }
                .joined(separator: " ")
        }
        switch try store.execute(request) {
        case .objects(let objects): return objects.objectIDs.map(\.rawValue).joined(separator: " ")
        case .dictionaries(let rows):
            return rows.map { row in row.pairs.map { "\($0.0)=\($0.1.isNull ? "nil" : ValueText.text($0.1))" }.joined(separator: " ") }
                .joined(separator: " | ")
        default: return "?"
        }
    }

    @Test(arguments: StoreKind.allCases)
    func escapedKeysWorkEverywhereAKeyDoes(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(kind, in: directory)
        for (statement, expected) in Self.cases {
            do {
                let answer = try Self.answer(store, FetchRequest(statement: statement))
                #expect(answer == expected, "\(kind): \(statement)\n  got \(answer)")
            } catch {
                Issue.record("\(kind): \(statement): \(error)")
            }
        }
    }

    /// A statement's key paths are Core Data's in the request: keys as the model names them.
    @Test func statementsNameKeyPathsAsRequestsDo() throws {
        let request = try FetchRequest(statement: "Teams SORT BY #2B DESC, size, a.#first SECTION BY #size")
        #expect(request.sortDescriptors.map(\.keyPath) == ["2B", "size", "a.first"])
        #expect(request.sectionNameKeyPath == "size")
        let select = try FetchRequest(statement: "SELECT #2B, a.#size, #3B AS t, count:(x) FROM T GROUP BY #2B, a.#size")
        #expect(select.propertiesToFetch.map(\.name) == ["2B", "a.size", "t", "count:(x)"])
        #expect(select.propertiesToGroupBy.map(\.name) == ["2B", "a.size"])
    }

    /// A JSON fetch request names key paths as Core Data does (`"key": "2B"`); its properties
    /// are expressions, escaped as in a SELECT (`"#2B AS doubles"`).
    @Test(arguments: StoreKind.allCases)
    func jsonRequestsNameKeysAsTheModelDoes(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(kind, in: directory)
        let objects = try FetchRequest(json: Data(##"{"entityName": "Teams", "predicate": "#2B != nil", "sortDescriptors": [{"key": "2B", "ascending": false}, "size"], "fetchLimit": 3}"##.utf8))
        #expect(try Self.answer(store, objects) == "t3 t2 t4")
        let sections = try FetchRequest(json: Data(##"{"entityName": "Teams", "sortDescriptors": ["size"], "sectionNameKeyPath": "size"}"##.utf8))
        #expect(try Self.answer(store, sections) == "§1 [t2, t4] §2 [t3, t6] §3 [t1, t5]")
        let rows = try FetchRequest(json: Data(##"{"entityName": "Teams", "resultType": "dictionaries", "propertiesToFetch": ["teamID", "#2B AS doubles"], "sortDescriptors": [{"key": "doubles", "ascending": false}], "fetchLimit": 2}"##.utf8))
        #expect(try Self.answer(store, rows) == "teamID=TEX doubles=330 | teamID=CLE doubles=310")
    }

    /// An unknown key after a SORT BY alias is still checked, and named.
    @Test(arguments: StoreKind.allCases)
    func sortKeysThatAreNotAliasesAreChecked(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(kind, in: directory)
        for statement in ["SELECT #2B + 1 AS x FROM Teams SORT BY x, #2b", "Teams SORT BY #2b", "SELECT teamID FROM Teams SORT BY doubles"] {
            #expect(throws: StoreError.self, "\(kind): \(statement)") { _ = try Self.answer(store, FetchRequest(statement: statement)) }
        }
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-escaped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
