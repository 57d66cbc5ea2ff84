import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftSQLStore
import SiftStore
import Testing

/// Sections and dictionaries the server computes (issue 17) give the in-memory store's answers
/// exactly — value kinds included — over the values where SQL and the evaluator part ways:
/// infinities and the NaN of their sum, nil, sums that overflow (refused by the server, run again
/// in memory), a sum of no values (the integer 0), and paged sections. (A store holds no NaN and
/// no -0.0: the model refuses the one and stores the other as 0.0.)
@Suite struct ServerGroupingTests {
    static let rows: [(String, [String: Value])] = [
        ("i1", ["s": .string("a"), "d": .double(1.25), "i64": .int(1), "dec": .decimal(Decimal(string: "1.5") ?? 0), "b": .bool(true),
                "date": .date(Date(timeIntervalSinceReferenceDate: 0))]),
        ("i2", ["s": .string("a"), "d": .double(0.0), "i64": .int(2), "dec": .decimal(-3), "b": .bool(false)]),
        ("i3", ["s": .string("b"), "d": .double(0.0), "date": .date(Date(timeIntervalSinceReferenceDate: 86_400.5))]),
        ("i4", ["s": .string("b"), "d": .double(2.5), "i64": .int(-7), "dec": .decimal(2), "b": .bool(true)]),
        ("i5", ["d": .double(.infinity), "i64": .int(3), "dec": .decimal(Decimal(string: "1.5") ?? 0)]),
        ("i6", ["s": .string("c"), "d": .double(-.infinity), "i64": .int(.max)]),
        ("i7", ["s": .string("d"), "i64": .int(.max), "d": .double(.infinity)]),
        ("i8", ["s": .string("d"), "d": .double(1e308), "i64": .int(.max)]),
        ("i9", ["s": .string("e"), "d": .double(1e308), "i64": .int(4)]),
        ("i10", ["s": .string("e"), "d": .double(1e308), "i64": .int(5), "b": .bool(false)]),
        ("i11", ["s": .string("a"), "d": .double(1.25), "i64": .int(6)]),
        ("i12", ["s": .string("c"), "d": .double(.infinity)]),
    ]

    static let dictionaryFetches: [(statement: String, inServer: Bool)] = [
        ("SELECT s, sum:(i64) AS total, average:(i64) AS mean, count:(d) AS n, min:(s) AS low, max:(date) AS latest FROM Item WHERE s != 'd' GROUP BY s", true),
        ("SELECT s, sum:(d) AS total, average:(d) AS mean FROM Item WHERE s != 'e' GROUP BY s SORT BY s DESC", true),
        ("SELECT sum:(d) AS total, average:(d) AS mean, sum:(i64) AS n FROM Item WHERE i16 == 5", true),
        ("SELECT s, d, dec, date, b FROM Item SORT BY i64 DESC LIMIT 6 OFFSET 1", true),
        ("SELECT min:(b) AS low, max:(b) AS high, count:(dec) AS n FROM Item", true),
        ("SELECT s, count:(i64) AS n FROM Item GROUP BY s HAVING n > 1 SORT BY n, s", true),
        // The server refuses the overflowing sums: in memory, where they are doubles.
        ("SELECT s, sum:(i64) AS total FROM Item GROUP BY s", false),
        ("SELECT s, sum:(d) AS total FROM Item GROUP BY s", false),
        // Grouping by a double: in memory (a NaN written by other means would be one group in the server).
        ("SELECT d, count:(s) AS n FROM Item GROUP BY d", false),
    ]

    static let sectionFetches = [
        "Item SORT BY d SECTION BY d", "Item SORT BY s, d SECTION BY d", "Item SORT BY dec DESC SECTION BY dec",
        "Item SORT BY s SECTION BY s LIMIT 4 OFFSET 1", "Item SORT BY s SECTION BY s LIMIT 1001", "Item SORT BY i64 SECTION BY b", "Item WHERE d > 0 SORT BY date SECTION BY date",
    ]

    /// A value with its kind: `int 1` and `double 1.0` differ, NaN equals NaN.
    static func text(_ value: Value) -> String {
        switch value {
        case .null: "nil"
        case .bool(let b): "bool \(b)"
        case .int(let i): "int \(i)"
        case .double(let d): "double \(d)"
        case .decimal(let d): "decimal \(d)"
        case .string(let s): "string \(s)"
        case .date(let d): "date \(d.timeIntervalSinceReferenceDate)"
        default: "\(value)"
        }
    }

    static func answer(_ store: any PersistentStore, _ statement: String) -> String {
        do {
            let request = try FetchRequest(statement: statement)
            if request.sectionNameKeyPath != nil {
                let sections = try store.fetchSections(request)
                return sections.sections.map { "§\($0.name) (\($0.indexTitle)) \($0.objects.objectIDs.map(\.rawValue))" }.joined(separator: "\n")
                    + "\n" + (sections.warning ?? "")
            }
            guard case .dictionaries(let rows) = try store.execute(request) else { return "not dictionaries" }
            return rows.map { row in row.pairs.map { "\($0.0)=\(text($0.1))" }.joined(separator: ", ") }.joined(separator: "\n")
        } catch {
            return "error: \(error)"
        }
    }

    @Test func theServersGroupsAreTheEvaluators() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.everyType, label: "grouping")
        defer { test.database.drop() }
        let memory = AtomicStore.inMemory(model: StoreTestModels.everyType)
        for store in [test.store, memory] as [any PersistentStore] {
            for (id, attributes) in Self.rows { try store.insert("Item", id: ObjectID(id), attributes) }
            try store.save()
        }
        let store = try test.reopened()
        for (statement, inServer) in Self.dictionaryFetches {
            let before = store.fetchStatistics
            let expected = Self.answer(memory, statement)
            #expect(!expected.hasPrefix("error"), "\(statement): \(expected)")
            #expect(Self.answer(store, statement) == expected, "\(statement)")
            let after = store.fetchStatistics
            #expect((after.dictionariesInServer > before.dictionariesInServer) == inServer, "\(statement)")
        }
        for statement in Self.sectionFetches {
            let before = store.fetchStatistics
            let expected = Self.answer(memory, statement)
            #expect(!expected.hasPrefix("error"), "\(statement): \(expected)")
            #expect(Self.answer(store, statement) == expected, "\(statement)")
            // A page's sections are grouped from its rows: the page's query is the only one.
            let grouped = PageSections.areGroupedFromRows(try FetchRequest(statement: statement))
            #expect(store.fetchStatistics.sectionsInServer == before.sectionsInServer + (grouped ? 0 : 1), "\(statement)")
            // `sift sql` says which: the GROUP BY query, or why there is none.
            let generated = try store.generatedSQL(for: try FetchRequest(statement: statement))
            #expect((generated.sectionsSQL == nil) == grouped, "\(statement)")
            #expect((generated.inMemoryReason?.contains(PageSections.reason) ?? false) == grouped, "\(statement)")
        }
        // Inside the write transaction, the server's groups see the pending changes.
        try store.insert("Item", id: "i13", ["s": .string("a"), "d": .double(0), "i64": .int(10)])
        try memory.insert("Item", id: "i13", ["s": .string("a"), "d": .double(0), "i64": .int(10)])
        for statement in [Self.dictionaryFetches[0].statement, Self.sectionFetches[1]] {
            #expect(Self.answer(store, statement) == Self.answer(memory, statement), "\(statement)")
        }
    }
}
