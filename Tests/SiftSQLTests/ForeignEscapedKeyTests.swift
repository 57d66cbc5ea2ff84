import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Issue 28 §2 on a database Sift did not create, Lahman's way: columns named `2B` and `3B`
/// (and one named like a reserved word) sort, section, group and select as escaped keys, in
/// SQL where SQL can, with the evaluator's answers on the same rows; a SELECT alias sorts
/// without GROUP BY.
@Suite struct ForeignEscapedKeyTests {
    static let ddl = """
        CREATE TABLE Teams (ID INTEGER PRIMARY KEY, teamID TEXT, yearID INTEGER, "2B" INTEGER, "3B" INTEGER, size INTEGER);
        INSERT INTO Teams VALUES
            (1, 'ATL', 2000, 274, 26, 3), (2, 'CLE', 2000, 310, 30, 1), (3, 'TEX', 2000, 330, 35, 2),
            (4, 'NYA', 2000, 274, 23, 1), (5, 'SFN', 2000, NULL, 40, 3), (6, 'ATL', 2001, 250, 20, 2);
        """

    static func withStore<T>(_ body: (SQLiteStore) throws -> T) throws -> T {
        let url = try ForeignDatabaseTests.database(ddl)
        defer { ForeignDatabaseTests.remove(url) }
        return try body(try SQLiteStore.open(at: url))
    }

    /// Each statement, and where its sort runs: the SQL's ORDER BY, or nil when it sorts in memory.
    static let cases: [(statement: String, orderBy: String?)] = [
        ("Teams WHERE #2B > 270 SORT BY #2B DESC, teamID", #"ORDER BY "t0"."2B" DESC, "t0"."teamID", "t0"."ID""#),
        ("Teams SORT BY size DESC, #3B", #"ORDER BY "t0"."size" DESC, "t0"."3B", "t0"."ID""#),
        ("SELECT teamID, #2B FROM Teams WHERE yearID == 2000 SORT BY #2B DESC", #"ORDER BY "t0"."2B" DESC, "t0"."ID""#),
        ("SELECT teamID, #2B AS doubles FROM Teams WHERE yearID == 2000 SORT BY doubles DESC LIMIT 3", #"ORDER BY "t0"."2B" DESC, "t0"."ID" LIMIT ?2"#),
        ("SELECT teamID, #2B + #3B AS xbh FROM Teams WHERE #2B != nil SORT BY xbh DESC, teamID LIMIT 4 OFFSET 1", nil),
        ("SELECT teamID AS first, #3B AS size FROM Teams SORT BY first DESC, size", #"ORDER BY "t0"."teamID" DESC, "t0"."3B", "t0"."ID""#),
    ]

    @Test func escapedKeysRunInSQLWithTheEvaluatorsAnswers() throws {
        try Self.withStore { store in
            for (statement, orderBy) in Self.cases {
                let request = try FetchRequest(statement: statement)
                let generated = try store.generatedSQL(for: request)
                if let orderBy {
                    #expect(generated.sql.hasSuffix(orderBy), "\(statement)\n\(generated)")
                    #expect(!generated.sortsInMemory, "\(statement)\n\(generated)")
                } else {
                    #expect(generated.description.contains("sorting by the result property xbh"), "\(statement)\n\(generated)")
                }
                #expect(try Self.answer(request, store) == Self.inMemory(request, store), "\(statement)")
            }
        }
    }

    @Test func sectionsAndGroupsByAnEscapedKey() throws {
        try Self.withStore { store in
            let sections = try store.fetchSections(FetchRequest(statement: "Teams SORT BY #2B SECTION BY #2B"))
            #expect(sections.sections.map { "\($0.name):\($0.objects.count)" } == [":1", "250:1", "274:2", "310:1", "330:1"])
            let request = try FetchRequest(statement: "SELECT #2B, count:(teamID) AS n FROM Teams GROUP BY #2B HAVING #2B >= 274 SORT BY #2B DESC")
            let generated = try store.generatedSQL(for: request)
            #expect(generated.sql.contains(#"GROUP BY "t0"."2B""#), "\(generated)")
            #expect(try Self.answer(request, store) == "2B=330 n=1 | 2B=310 n=1 | 2B=274 n=2")
            let aliased = try FetchRequest(statement: Self.cases[4].statement)
            #expect(try Self.answer(aliased, store) == "teamID=CLE xbh=340 | teamID=ATL xbh=300 | teamID=NYA xbh=297 | teamID=ATL xbh=270")
        }
    }

    static func answer(_ request: FetchRequest, _ store: SQLiteStore) throws -> String {
        switch try store.execute(request) {
        case .objects(let objects): return objects.objectIDs.map(\.rawValue).joined(separator: " ")
        case .dictionaries(let rows): return text(rows)
        default: return "?"
        }
    }

    /// The evaluator's answer on the objects the store reads.
    static func inMemory(_ request: FetchRequest, _ store: SQLiteStore) throws -> String {
        let entity = try #require(store.model.entity(named: request.entityName))
        if request.resultType == .dictionaries {
            let objects = try store.fetch(SQLFetchExecutor.objectsRequest(for: request))
            return text(try DictionaryResults.make(request, objects: objects.map { Value.object($0) }, entity: entity))
        }
        var unsorted = request
        unsorted.sortDescriptors = []
        unsorted.fetchLimit = 0
        unsorted.fetchOffset = 0
        let objects = try store.fetch(unsorted)
        let order = try Sorting.sortedIndices(objects.map { Value.object($0) }, by: request.sortDescriptors)
        return order.map { objects[$0].objectID.rawValue }[request.page(of: order.count)].joined(separator: " ")
    }

    static func text(_ rows: [ValueDictionary]) -> String {
        rows.map { row in row.pairs.map { "\($0.0)=\($0.1.isNull ? "nil" : ValueText.text($0.1))" }.joined(separator: " ") }.joined(separator: " | ")
    }
}
