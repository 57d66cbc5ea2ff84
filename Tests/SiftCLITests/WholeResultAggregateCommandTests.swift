import Foundation
import Testing

/// `sift query 'SELECT sum:(x) AS s FROM E'` prints one row for the whole result (as SQL's
/// `select sum(x) from E` does), on a JSON store and on a SQLite store alike; `sift sql` shows
/// the aggregate query without GROUP BY.
@Suite struct WholeResultAggregateCommandTests {
    static let model = #"""
    {"name": "Shop", "entities": [
      {"name": "Invoice", "attributes": [{"name": "total", "type": "Double"}, {"name": "qty", "type": "Integer 64"},
                                         {"name": "code", "type": "String"}]}
    ]}
    """#

    static let data = #"""
    {"Invoice": [
      {"@id": "i1", "total": 1.5, "qty": 2, "code": "b"},
      {"@id": "i2", "total": 2.25, "qty": 3, "code": "a"},
      {"@id": "i3", "qty": 5, "code": "c"},
      {"@id": "i4", "total": 4}
    ]}
    """#

    /// A statement and the JSON lines it prints.
    static let cases: [(String, String)] = [
        ("SELECT sum:(total) AS s FROM Invoice", #"{"s":7.75}"# + "\n"),
        ("SELECT max:(qty) AS mx, count:(qty) AS n FROM Invoice", #"{"mx":5,"n":3}"# + "\n"),
        ("SELECT count:(qty) AS n, sum:(qty) AS s, average:(qty) AS a, min:(code) AS c FROM Invoice WHERE qty > 100",
         #"{"n":0,"s":0,"a":null,"c":null}"# + "\n"),
        ("SELECT sum:(qty) AS s FROM Invoice HAVING s > 5", #"{"s":10}"# + "\n"),
        ("SELECT sum:(qty) AS s FROM Invoice HAVING s > 50", ""),
        ("SELECT code, count:(qty) AS n FROM Invoice WHERE qty > 2", #"{"code":"a","n":1}"# + "\n" + #"{"code":"c","n":1}"# + "\n"),
    ]

    @Test func oneRowOnEveryStore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-aggregates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("model.json"), data = directory.appendingPathComponent("data.json")
        try Data(Self.model.utf8).write(to: model)
        try Data(Self.data.utf8).write(to: data)
        for name in ["shop.json", "shop.sqlite"] {
            let store = directory.appendingPathComponent(name).path
            let imported = try SiftBinary.run("import", "--store", store, "--model", model.path, data.path)
            try #require(imported.status == 0, "\(imported.stderr)")
            for (statement, expected) in Self.cases {
                let result = try SiftBinary.run("query", "--store", store, statement, "--output", "jsonl")
                #expect(result.status == 0, "\(name): \(statement): \(result.stderr)")
                #expect(result.stdout == expected, "\(name): \(statement)")
            }
        }
        let sql = try SiftBinary.run("sql", "--store", directory.appendingPathComponent("shop.sqlite").path,
                                     "SELECT sum:(total) AS s, count:(qty) AS n FROM Invoice WHERE code != 'z'")
        #expect(sql.status == 0, "\(sql.stderr)")
        #expect(sql.stdout.hasPrefix(#"SELECT sift_group_sum("t0"."total", "t0"."_pk"), count("t0"."qty") FROM "Invoice" AS "t0" WHERE "t0"."code" IS NOT ?1"#),
                "\(sql.stdout)")
        #expect(!sql.stdout.contains("GROUP BY") && !sql.stdout.contains("ORDER BY"), "\(sql.stdout)")
    }
}
