import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// A SELECT without GROUP BY whose properties are all aggregates (or constants) is one row for
/// the whole result, as in SQL and Core Data — on every kind of store, with the same answers:
/// over no object the row is still there (`count:` 0, `sum:` 0, the others nil, as LANGUAGE.md
/// §5 says of an empty collection); HAVING tests that row; offset and limit page it; sorting
/// changes nothing. Aggregates mixed with per-object properties, and constants alone, stay one
/// row per object; grouping is unchanged.
@Suite struct WholeResultAggregateTests {
    static let model = #"""
    {"name": "Shop", "entities": [
      {"name": "Customer", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "invoices", "destination": "Invoice", "toMany": true, "inverse": "customer"}]},
      {"name": "Invoice",
       "attributes": [{"name": "total", "type": "Double"}, {"name": "qty", "type": "Integer 64"},
                      {"name": "code", "type": "String"}],
       "relationships": [{"name": "customer", "destination": "Customer", "inverse": "invoices"}]}
    ]}
    """#

    /// Four invoices: a nil total, a nil quantity, one without a customer.
    static func fill(_ store: any PersistentStore) throws {
        try store.insert("Customer", id: "ann", ["name": .string("Ann")])
        try store.insert("Customer", id: "bob", ["name": .string("Bob")])
        try store.insert("Invoice", id: "i1", ["total": .double(1.5), "qty": .int(2), "code": .string("b")], relationships: ["customer": ["ann"]])
        try store.insert("Invoice", id: "i2", ["total": .double(2.25), "qty": .int(3), "code": .string("a")], relationships: ["customer": ["bob"]])
        try store.insert("Invoice", id: "i3", ["qty": .int(5), "code": .string("c")], relationships: ["customer": ["ann"]])
        try store.insert("Invoice", id: "i4", ["total": .double(4)])
        try store.save()
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        /// One line per row: `name=value` for each property in order (nil is empty).
        let rows: [String]
        var testDescription: String { statement }
        init(_ statement: String, _ rows: [String]) {
            self.statement = statement
            self.rows = rows
        }
    }

    static let cases: [Case] = [
        // One row for the whole result.
        Case("SELECT sum:(total) AS revenue FROM Invoice", ["revenue=7.75"]),
        Case("SELECT max:(qty) AS mx, count:(qty) AS n FROM Invoice", ["mx=5 n=3"]),
        Case("SELECT count:(code) AS n, min:(code) AS lo, max:(code) AS hi, average:(qty) AS mean FROM Invoice WHERE qty != 3",
             ["n=2 lo=b hi=c mean=3.5"]),
        Case("SELECT count:(customer) AS n, max:(customer.name) AS top FROM Invoice", ["n=3 top=Bob"]),
        Case("SELECT sum:(qty) AS s, sum:(total) AS t FROM Invoice WHERE customer.name == 'Ann'", ["s=7 t=1.5"]),
        // Over nothing: count 0, sum 0, the others nil.
        Case("SELECT count:(qty) AS n, sum:(qty) AS s, sum:(total) AS t, average:(qty) AS a, min:(qty) AS lo, max:(code) AS hi FROM Invoice WHERE qty > 100",
             ["n=0 s=0 t=0 a= lo= hi="]),
        // With constants, and arithmetic on aggregates (computed by the evaluator on SQLite).
        Case("SELECT 'all' AS label, sum:(qty) AS s FROM Invoice", ["label=all s=10"]),
        Case("SELECT sum:(qty) * 2 AS twice, count:(qty) + 1 AS more FROM Invoice", ["twice=20 more=4"]),
        // HAVING tests the one row; offset and limit page it; distinct and sorting leave it.
        Case("SELECT sum:(qty) AS s FROM Invoice HAVING s > 5", ["s=10"]),
        Case("SELECT sum:(qty) AS s FROM Invoice HAVING s > 50", []),
        Case("SELECT count:(qty) AS n FROM Invoice LIMIT 1", ["n=3"]),
        Case("SELECT count:(qty) AS n FROM Invoice LIMIT 1 OFFSET 1", []),
        Case("SELECT DISTINCT count:(qty) AS n FROM Invoice", ["n=3"]),
        Case("SELECT sum:(total) AS t, min:(code) AS c FROM Invoice SORT BY code DESC", ["t=7.75 c=a"]),
        // Unchanged: per-object properties with aggregates (each on its own object), constants
        // alone, grouping.
        Case("SELECT code, count:(qty) AS n FROM Invoice", ["code=b n=1", "code=a n=1", "code=c n=1", "code= n=0"]),
        Case("SELECT 1 AS one FROM Invoice WHERE qty > 2", ["one=1", "one=1"]),
        Case("SELECT customer.name AS who, sum:(qty) AS s FROM Invoice GROUP BY customer.name", ["who=Ann s=7", "who=Bob s=3", "who= s=0"]),
    ]

    @Test(arguments: cases, StoreKind.allCases)
    func oneRowForTheWholeResult(_ c: Case, _ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let created = try kind.make(try JSONModelFormat.read(Data(Self.model.utf8)), name: "shop", in: directory)
        try Self.fill(created)
        let store = try kind.reopen(created) ?? created
        let request = try FetchRequest(statement: c.statement)
        guard case .dictionaries(let rows) = try store.execute(request) else {
            Issue.record("not dictionaries")
            return
        }
        let names = request.propertiesToFetch.map(\.name)
        let lines = rows.map { row in names.map { "\($0)=\(ValueText.text(row[$0] ?? .null))" }.joined(separator: " ") }
        #expect(lines == c.rows)
    }

    /// Which requests aggregate their whole result.
    @Test(arguments: [
        ("SELECT sum:(total) AS t FROM Invoice", true),
        ("SELECT sum:(total) / count:(total) AS mean, 'x' AS label FROM Invoice", true),
        ("SELECT max:(customer.name) AS m FROM Invoice", true),
        ("SELECT count:(qty) AS n, code FROM Invoice", false),                  // a per-object property
        ("SELECT 1 AS one, 'x' AS label FROM Invoice", false),                  // constants only
        ("SELECT code FROM Invoice", false),
        ("SELECT code, count:(qty) AS n FROM Invoice GROUP BY code", false),    // grouped
        ("SELECT TERNARY(qty > 1, 1, 0) AS big, count:(qty) AS n FROM Invoice", false),
        ("Invoice", false),                                                     // no properties: every attribute
    ])
    func whichRequestsAggregateWhole(_ statement: String, _ expected: Bool) throws {
        #expect(DictionaryResults.aggregatesWholeResult(try FetchRequest(statement: statement)) == expected)
    }
}
