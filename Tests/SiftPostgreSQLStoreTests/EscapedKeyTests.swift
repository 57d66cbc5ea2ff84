import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Issue 28 §2 on PostgreSQL: keys named `2B`, `3B` and `size` sort, section, group and select
/// as escaped keys, and a SELECT alias sorts without GROUP BY, with the in-memory store's
/// answers.
@Suite struct PostgreSQLEscapedKeyTests {
    static let model = StoreTestModels.model("""
        {"name": "Baseball", "entities": [{"name": "Teams", "attributes": [
          {"name": "teamID", "type": "string"}, {"name": "yearID", "type": "integer64"},
          {"name": "2B", "type": "integer64"}, {"name": "3B", "type": "integer64"}, {"name": "size", "type": "integer64"}]}]}
        """)

    static let rows: [(String, String, Int64, Int64?, Int64, Int64)] = [
        ("t1", "ATL", 2000, 274, 26, 3), ("t2", "CLE", 2000, 310, 30, 1), ("t3", "TEX", 2000, 330, 35, 2),
        ("t4", "NYA", 2000, 274, 23, 1), ("t5", "SFN", 2000, nil, 40, 3), ("t6", "ATL", 2001, 250, 20, 2),
    ]

    static let statements = [
        "Teams WHERE #2B > 270 SORT BY #2B DESC, teamID",
        "Teams SORT BY size DESC, #3B",
        "Teams SORT BY #2B SECTION BY #2B",
        "SELECT teamID, #2B FROM Teams WHERE yearID == 2000 SORT BY #2B DESC",
        "SELECT #2B, count:(teamID) AS n FROM Teams GROUP BY #2B HAVING #2B >= 274 SORT BY #2B DESC",
        "SELECT teamID, #2B AS doubles FROM Teams WHERE yearID == 2000 SORT BY doubles DESC LIMIT 3",
        "SELECT teamID, #2B + #3B AS xbh FROM Teams WHERE #2B != nil SORT BY xbh DESC, teamID LIMIT 4 OFFSET 1",
        "SELECT teamID AS first, #3B AS size FROM Teams SORT BY first DESC, size",
        "SELECT sum:(#3B) AS triples, max:(#2B) AS most FROM Teams SORT BY triples DESC",
    ]

    static func answer(_ store: any PersistentStore, _ statement: String) -> String {
        do {
            let request = try FetchRequest(statement: statement)
            if request.sectionNameKeyPath != nil {
                return try store.fetchSections(request).sections.map { "§\($0.name) \($0.objects.objectIDs.map(\.rawValue))" }.joined(separator: " ")
            }
            switch try store.execute(request) {
            case .objects(let objects): return objects.objectIDs.map(\.rawValue).joined(separator: " ")
            case .dictionaries(let rows):
                return rows.map { row in row.pairs.map { "\($0.0)=\($0.1.isNull ? "nil" : ValueText.text($0.1))" }.joined(separator: " ") }
                    .joined(separator: " | ")
            default: return "?"
            }
        } catch {
            return "error: \(error)"
        }
    }

    @Test func escapedKeysAndAliasesGiveTheInMemoryAnswers() async throws {
        let test = try await StoreTestDatabase.make(Self.model, label: "escaped")
        defer { test.database.drop() }
        let memory = AtomicStore.inMemory(model: Self.model)
        for store in [test.store, memory] as [any PersistentStore] {
            for (id, team, year, doubles, triples, size) in Self.rows {
                var attributes: [String: Value] = ["teamID": .string(team), "yearID": .int(year), "3B": .int(triples), "size": .int(size)]
                if let doubles { attributes["2B"] = .int(doubles) }
                try store.insert("Teams", id: ObjectID(id), attributes)
            }
            try store.save()
        }
        let store = try test.reopened()
        for statement in Self.statements {
            let expected = Self.answer(memory, statement)
            #expect(!expected.hasPrefix("error"), "\(statement): \(expected)")
            #expect(Self.answer(store, statement) == expected, "\(statement)")
        }
    }
}
