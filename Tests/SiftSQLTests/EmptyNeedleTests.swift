import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// LANGUAGE.md §4: an empty needle never matches — `s BEGINSWITH ""`, `s ENDSWITH ""`,
/// `s CONTAINS ""` and `"" IN s` are false for every string, `""` included, under every option;
/// so is a needle that `[d]` folds away (a lone combining mark). The same answers from the
/// evaluator (the in-memory store) and from SQLite (where the SQL runs whole), for constant
/// needles and for needles read from each row.
@Suite struct EmptyNeedleTests {
    static let modelJSON = #"""
    {"name": "Needles", "entities": [
      {"name": "Text", "attributes": [{"name": "s", "type": "String"}, {"name": "needle", "type": "String"}]}
    ]}
    """#

    /// The rows: id, s, needle (nil where absent). `x\u{301}` stays two scalars in NFC.
    static let rows: [(String, String?, String?)] = [
        ("e", "", ""),
        ("a", "abc", ""),
        ("b", "abc", "ab"),
        ("c", "abc", "C"),
        ("m", "x\u{301}", "\u{301}"),
        ("n", nil, ""),
    ]

    enum Kind: String, CaseIterable, Sendable { case memory, sqlite }

    static func store(_ kind: Kind) throws -> any PersistentStore {
        let model = try JSONModelFormat.read(Data(modelJSON.utf8))
        let store: any PersistentStore = kind == .memory ? AtomicStore.inMemory(model: model) : try SQLiteStore.inMemory(model: model)
        for (id, s, needle) in rows {
            var values: [String: Value] = [:]
            if let s { values["s"] = .string(s) }
            if let needle { values["needle"] = .string(needle) }
            try store.insert("Text", id: ObjectID(id), values)
        }
        try store.save()
        return store
    }

    /// A predicate with `{o}` where the options go, and the IDs it matches under [], [c], [d],
    /// [cd], [n] (worked out by hand; "" is none).
    struct Row: Sendable, CustomTestStringConvertible {
        let template: String
        let expected: [String]
        var testDescription: String { template }
        init(_ template: String, _ expected: [String]) {
            precondition(expected.count == 5, template)
            self.template = template
            self.expected = expected
        }
    }

    static let none = ["", "", "", "", ""]

    //                                                   []      [c]      [d]     [cd]     [n]
    static let table: [Row] = [
        // Constant empty needles: nothing, "" included; IN a string is the same search.
        Row("s BEGINSWITH{o} ''", none),
        Row("s ENDSWITH{o} ''", none),
        Row("s CONTAINS{o} ''", none),
        Row("'' IN{o} s", none),
        Row("'' BEGINSWITH{o} ''", none),
        Row("'' CONTAINS{o} s", none),
        Row("NOT s CONTAINS{o} ''", Array(repeating: "abcemn", count: 5)),
        Row("NOT s BEGINSWITH{o} ''", Array(repeating: "abcemn", count: 5)),
        // A constant lone mark: empty once [d] folds it.
        Row("s CONTAINS{o} '\\u0301'",                      ["m",    "m",     "",     "",      "m"]),
        Row("s ENDSWITH{o} '\\u0301'",                      ["m",    "m",     "",     "",      "m"]),
        Row("'\\u0301' IN{o} s",                            ["m",    "m",     "",     "",      "m"]),
        Row("s BEGINSWITH{o} '\\u0301'", none),
        // Needles read from each row ("" on e, a, n; a lone mark on m).
        Row("s BEGINSWITH{o} needle",                       ["b",    "b",     "b",    "b",     "b"]),
        Row("s ENDSWITH{o} needle",                         ["m",    "cm",    "",     "c",     "m"]),
        Row("s CONTAINS{o} needle",                         ["bm",   "bcm",   "b",    "bc",    "bm"]),
        Row("needle IN{o} s",                               ["bm",   "bcm",   "b",    "bc",    "bm"]),
        Row("'abc' CONTAINS{o} needle",                     ["b",    "bc",    "b",    "bc",    "b"]),
        Row("NOT s CONTAINS{o} needle",                     ["acen", "aen",   "acemn", "aemn", "acen"]),
        // Not substring searches: membership and LIKE, equality.
        Row("s IN{o} {'', 'q'}", Array(repeating: "e", count: 5)),
        Row("s LIKE{o} ''", Array(repeating: "e", count: 5)),
        Row("s =={o} ''", Array(repeating: "e", count: 5)),
        Row("s =={o} needle", Array(repeating: "e", count: 5)),
    ]

    static let optionLetters = ["", "c", "d", "cd", "n"]

    struct Case: Sendable, CustomTestStringConvertible {
        let predicate: String
        let expected: String
        let kind: Kind
        var testDescription: String { "\(predicate) on \(kind.rawValue)" }
    }

    static let cases: [Case] = table.flatMap { row in
        zip(optionLetters, row.expected).flatMap { letters, expected in
            let predicate = row.template.replacingOccurrences(of: "{o}", with: letters.isEmpty ? "" : "[\(letters)]")
            return Kind.allCases.map { Case(predicate: predicate, expected: expected, kind: $0) }
        }
    }

    @Test(arguments: cases)
    func sameAnswerOnEveryStore(_ c: Case) throws {
        let store = try Self.store(c.kind)
        var request = try FetchRequest(entityName: "Text", predicate: c.predicate)
        request.resultType = .objectIDs
        guard case .objectIDs(let ids) = try store.execute(request) else {
            Issue.record("not object IDs")
            return
        }
        #expect(ids.map(\.rawValue).sorted().joined() == c.expected)
        if let sqlite = store as? SQLiteStore {
            // Computed by SQLite, not by the evaluator on the rows.
            #expect(try sqlite.generatedSQL(for: request).inMemoryPredicate == nil)
        }
    }

    /// A constant needle that prepares to empty compiles to false: no function call, no range.
    @Test(arguments: ["s BEGINSWITH ''", "s BEGINSWITH[n] ''", "s ENDSWITH[c] ''", "s CONTAINS[cd] ''", "s CONTAINS[d] '\\u0301'", "'' IN s"])
    func constantEmptyNeedleIsFalseInSQL(_ predicate: String) throws {
        let store = try Self.store(.sqlite)
        let request = try FetchRequest(entityName: "Text", predicate: predicate)
        let sql = try #require(store as? SQLiteStore).generatedSQL(for: request).sql
        #expect(sql.contains(" WHERE 0"), "\(sql)")
        #expect(!sql.contains("sift_"), "\(sql)")
    }
}
