import Foundation
import Testing

/// `sift filter`, run as a binary. Results follow LANGUAGE.md (values, nil, key paths) and
/// FETCH.md §3–4 (sorting, limit/offset, sections).
@Suite("sift filter")
struct FilterCommandTests {
    /// Four people, as JSON Lines (with a blank line), in input positions 0–3.
    static let people = """
        {"name": "Ann", "age": 30, "city": "Berlin", "tags": ["admin", "dev"]}
        {"name": "bob", "age": 41, "tags": []}

        {"name": "Cé日", "age": 25.5, "city": "Paris, \\"FR\\"", "born": {"$date": "1990-05-01T00:00:00Z"}}
        {"name": "Dan", "city": "Berlin", "note": "line1\\nline2"}

        """

    static let peopleLines = people.split(separator: "\n").map(String.init)

    /// The same people as a pretty-printed JSON array.
    static let peopleArray = """
        [
          {"name": "Ann", "age": 30, "city": "Berlin", "tags": ["admin", "dev"]},
          {
            "name": "bob",
            "age": 41,
            "tags": []
          },
          {"name": "Cé日", "age": 25.5, "city": "Paris, \\"FR\\"", "born": {"$date": "1990-05-01T00:00:00Z"}},
          {"name": "Dan", "city": "Berlin", "note": "line1\\nline2"}
        ]

        """

    static func filter(_ arguments: String..., stdin: String = people) throws -> SiftBinary.Result {
        try SiftBinary.run(arguments: ["filter"] + arguments, stdin: stdin)
    }

    /// The input positions printed by `--output indices`.
    static func indices(_ arguments: String..., stdin: String = people) throws -> [Int] {
        let r = try SiftBinary.run(arguments: ["filter"] + arguments + ["--output", "indices"], stdin: stdin)
        #expect(r.status == 0, "\(r.stderr)")
        return (try? JSONDecoder().decode([Int].self, from: Data(r.stdout.utf8))) ?? [-1]
    }

    static func temporaryFile(_ text: String, suffix: String = ".jsonl") throws -> String {
        let path = NSTemporaryDirectory() + "sift-filter-\(UUID().uuidString)\(suffix)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: Input

    @Test func jsonLinesFromStandardInput() throws {
        let r = try Self.filter("age >= 30", "--output", "jsonl")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.peopleLines[0] + "\n" + Self.peopleLines[1] + "\n")
        #expect(r.stderr == "")
    }

    @Test func aJSONArrayFromStandardInput() throws {
        let r = try Self.filter("age >= 30", "--output", "json", stdin: Self.peopleArray)
        #expect(r.status == 0, "\(r.stderr)")
        // The records as written, the pretty one too.
        #expect(r.stdout == """
            [
              {"name": "Ann", "age": 30, "city": "Berlin", "tags": ["admin", "dev"]},
              {
                "name": "bob",
                "age": 41,
                "tags": []
              }
            ]

            """)
    }

    @Test func aFileOrDashForStandardInput() throws {
        let lines = try Self.temporaryFile(Self.people)
        let array = try Self.temporaryFile(Self.peopleArray, suffix: ".json")
        defer {
            try? FileManager.default.removeItem(atPath: lines)
            try? FileManager.default.removeItem(atPath: array)
        }
        #expect(try Self.indices("city == 'Berlin'", lines, stdin: "") == [0, 3])
        #expect(try Self.indices("city == 'Berlin'", array, stdin: "") == [0, 3])
        #expect(try Self.indices("city == 'Berlin'", "-") == [0, 3])
    }

    @Test func emptyInput() throws {
        for stdin in ["", "\n\n", "[]", "  [ ]  \n"] {
            #expect(try Self.filter("a == 1", stdin: stdin).stdout == "[]\n")
            #expect(try Self.filter("a == 1", "--output", "jsonl", stdin: stdin).stdout == "")
            #expect(try Self.filter("a == 1", "--output", "table", stdin: stdin).stdout == "(0 rows)\n")
            #expect(try Self.filter("a == 1", "--output", "csv", stdin: stdin).stdout == "")
            #expect(try Self.filter("a == 1", "--output", "indices", stdin: stdin).stdout == "[]\n")
        }
    }

    // MARK: Output formats

    @Test func jsonOutput() throws {
        let r = try Self.filter("city == 'Berlin'")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "[\n  \(Self.peopleLines[0]),\n  \(Self.peopleLines[3])\n]\n")
    }

    @Test func jsonLinesOutputPutsEachRecordOnOneLine() throws {
        let r = try Self.filter("TRUEPREDICATE", "--output", "jsonl", stdin: Self.peopleArray)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            {"name": "Ann", "age": 30, "city": "Berlin", "tags": ["admin", "dev"]}
            {"name":"bob","age":41,"tags":[]}
            {"name": "Cé日", "age": 25.5, "city": "Paris, \\"FR\\"", "born": {"$date": "1990-05-01T00:00:00Z"}}
            {"name": "Dan", "city": "Berlin", "note": "line1\\nline2"}

            """)
    }

    @Test func tableOutput() throws {
        let r = try Self.filter("TRUEPREDICATE", "--output", "table")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            name  age   city         tags             born                  note
            ----  ----  -----------  ---------------  --------------------  ------------
            Ann     30  Berlin       ["admin","dev"]
            bob     41               []
            Cé日  25.5  Paris, "FR"                   1990-05-01T00:00:00Z
            Dan         Berlin                                              line1\\nline2
            (4 rows)

            """)
        let one = try Self.filter("age == 41", "--output", "table")
        #expect(one.stdout == "name  age  tags\n----  ---  ----\nbob    41  []\n(1 row)\n")
    }

    @Test func csvOutput() throws {
        let r = try Self.filter("TRUEPREDICATE", "--output", "csv")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == [
            "name,age,city,tags,born,note",
            #"Ann,30,Berlin,"[""admin"",""dev""]",,"#,
            "bob,41,,[],,",
            #"Cé日,25.5,"Paris, ""FR""",,1990-05-01T00:00:00Z,"#,
            "Dan,,Berlin,,,\"line1\nline2\"",
        ].map { $0 + "\r\n" }.joined())
    }

    @Test func indicesOutput() throws {
        let r = try Self.filter("age > 26", "--output", "indices")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "[0, 1]\n")
    }

    @Test func recordsThatAreNotObjects() throws {
        let r = try Self.filter("SELF > 2", stdin: "[1, 5, 3, \"x\"]")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "[\n  5,\n  3\n]\n")
        let table = try Self.filter("SELF > 2", "--output", "table", stdin: "[1, 5, 3, \"x\"]")
        #expect(table.stdout == "SELF\n----\n   5\n   3\n(2 rows)\n")
    }

    // MARK: The language over JSON

    @Test func missingKeysReadAsNil() throws {
        #expect(try Self.indices("note == nil") == [0, 1, 2])
        #expect(try Self.indices("city != 'Berlin'") == [1, 2])
        #expect(try Self.indices("NOT (age > 28)") == [2, 3])
        #expect(try Self.indices("age < 100") == [0, 1, 2])
        #expect(try Self.indices("nosuchkey.deeper == nil") == [0, 1, 2, 3])
    }

    @Test func nestedObjectsAndArrays() throws {
        let stdin = """
            {"id": 1, "address": {"city": "Oslo", "zip": "0150"}, "items": [{"n": 1, "price": 2.5}, {"n": 2, "price": 4}]}
            {"id": 2, "address": {"city": "Lima"}, "items": []}
            {"id": 3, "items": [{"n": 7, "price": 1}]}
            """
        #expect(try Self.indices("address.city == 'Oslo'", stdin: stdin) == [0])
        #expect(try Self.indices("address.zip == nil", stdin: stdin) == [1, 2])
        #expect(try Self.indices("ANY items.n == 7", stdin: stdin) == [2])
        #expect(try Self.indices("items.@count == 0", stdin: stdin) == [1])
        #expect(try Self.indices("items.@sum.price > 5", stdin: stdin) == [0])
        #expect(try Self.indices("items[FIRST].n == 1", stdin: stdin) == [0])
        #expect(try Self.indices("SUBQUERY(items, $i, $i.price < 3).@count == 1", stdin: stdin) == [0, 2])
    }

    @Test func stringOperatorsAndDates() throws {
        #expect(try Self.indices("name BEGINSWITH[c] 'b' OR name ==[cd] 'ce日'") == [1, 2])
        #expect(try Self.indices("ANY tags == 'admin'") == [0])
        #expect(try Self.indices("born < CAST('2000-01-01T00:00:00Z', 'NSDate')") == [2])
        #expect(try Self.indices("name MATCHES '[A-Z].*'") == [0, 2, 3])
    }

    // MARK: Arguments and variables

    @Test func argumentsAndVariables() throws {
        #expect(try Self.indices("age >= %@ AND name IN $names", "--arg", "30", "--var", #"names=["Ann", "bob", "Dan"]"#) == [0, 1])
        #expect(try Self.indices("%K == %@", "--arg", #""city""#, "--arg", #""Berlin""#) == [0, 3])
        #expect(try Self.indices("born > $since", "--var", #"since={"$date": "1980-01-01"}"#) == [2])
        #expect(try Self.indices("age > %d", "--arg", "29") == [0, 1])
        let bad = try Self.filter("a == %@", "--arg", "{nope")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("error: --arg 1 ('{nope'): line 1, column 2: expected a string key"))
    }

    // MARK: Sorting, limit and offset

    @Test func sortAscendingAndDescending() throws {
        // nil sorts first ascending and last descending; ties keep input order.
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "age") == [3, 2, 0, 1])
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "age ASC") == [3, 2, 0, 1])
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "age DESC") == [1, 0, 2, 3])
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "age desc") == [1, 0, 2, 3])
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "city, age DESC") == [1, 0, 3, 2])
        let r = try Self.filter("age > 26", "--sort", "age DESC", "--output", "jsonl")
        #expect(r.stdout == Self.peopleLines[1] + "\n" + Self.peopleLines[0] + "\n")
    }

    @Test func sortUsingComparators() throws {
        // Code-point order puts "bob" after the capitals; caseInsensitiveCompare does not.
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "name") == [0, 2, 3, 1])
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "name USING caseInsensitiveCompare") == [0, 1, 2, 3])
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "name DESC USING caseInsensitiveCompare") == [3, 2, 1, 0])
        let files = #"[{"f": "file10"}, {"f": "file2"}, {"f": "File1"}]"#
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "f USING localizedStandardCompare", stdin: files) == [2, 1, 0])
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "f", stdin: files) == [2, 0, 1])
    }

    @Test func sortErrorsShowTheColumn() throws {
        let r = try Self.filter("TRUEPREDICATE", "--sort", "age USING nonsense")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("age USING nonsense\n"))
        #expect(r.stderr.contains("^\nerror: --sort: column "))
    }

    @Test func limitAndOffset() throws {
        #expect(try Self.indices("TRUEPREDICATE", "--limit", "2") == [0, 1])
        #expect(try Self.indices("TRUEPREDICATE", "--offset", "1", "--limit", "2") == [1, 2])
        #expect(try Self.indices("TRUEPREDICATE", "--offset", "3") == [3])
        #expect(try Self.indices("TRUEPREDICATE", "--offset", "9") == [])
        #expect(try Self.indices("TRUEPREDICATE", "--limit", "0") == [0, 1, 2, 3])  // 0: no limit
        // After sorting.
        #expect(try Self.indices("TRUEPREDICATE", "--sort", "age DESC", "--offset", "1", "--limit", "2") == [0, 2])
        let r = try Self.filter("TRUEPREDICATE", "--limit", "1", "--output", "table")
        #expect(r.stdout.hasSuffix("(1 row)\n"))
    }

    @Test func negativeLimitOrOffsetIsAnError() throws {
        for option in ["--limit=-1", "--offset=-2"] {
            let r = try Self.filter("TRUEPREDICATE", option)
            #expect(r.status != 0)
            #expect(r.stdout == "")
            #expect(r.stderr.contains("must be 0 or more"))
        }
    }

    // MARK: Sections

    @Test func sectionsAsJSON() throws {
        let r = try Self.filter("TRUEPREDICATE", "--sort", "city", "--section-by", "city")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            {
              "sections": [
                {
                  "name": "",
                  "indexTitle": "",
                  "numberOfObjects": 1,
                  "objects": [
                    \(Self.peopleLines[1])
                  ]
                },
                {
                  "name": "Berlin",
                  "indexTitle": "B",
                  "numberOfObjects": 2,
                  "objects": [
                    \(Self.peopleLines[0]),
                    \(Self.peopleLines[3])
                  ]
                },
                {
                  "name": "Paris, \\"FR\\"",
                  "indexTitle": "P",
                  "numberOfObjects": 1,
                  "objects": [
                    \(Self.peopleLines[2])
                  ]
                }
              ]
            }

            """)
        let decoded = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let sections = decoded?["sections"] as? [[String: Any]]
        #expect(sections?.map { $0["numberOfObjects"] as? Int } == [1, 2, 1])
    }

    @Test func sectionsAreFormedAfterLimitAndOffset() throws {
        let r = try Self.filter("TRUEPREDICATE", "--sort", "city", "--section-by", "city", "--limit", "2", "--output", "indices")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            {
              "sections": [
                {"name": "", "indexTitle": "", "numberOfObjects": 1, "objects": [1]},
                {"name": "Berlin", "indexTitle": "B", "numberOfObjects": 1, "objects": [0]}
              ]
            }

            """)
    }

    @Test func sectionsInLineFormats() throws {
        let jsonl = try Self.filter("age > 0", "--sort", "age", "--section-by", "age", "--output", "jsonl")
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        #expect(jsonl.stdout == """
            # section "25.5": 1 object
            \(Self.peopleLines[2])
            # section "30": 1 object
            \(Self.peopleLines[0])
            # section "41": 1 object
            \(Self.peopleLines[1])

            """)
        let table = try Self.filter("city == 'Berlin'", "--section-by", "city", "--output", "table")
        #expect(table.stdout == """
            # section "Berlin": 2 objects
            name  age  city    tags             note
            ----  ---  ------  ---------------  ------------
            Ann    30  Berlin  ["admin","dev"]
            Dan        Berlin                   line1\\nline2
            (2 rows)

            """)
        let csv = try Self.filter("city == 'Berlin'", "--section-by", "city", "--output", "csv")
        #expect(csv.stdout.hasPrefix("# section \"Berlin\": 2 objects\r\nname,age,city,tags,note\r\nAnn,30,Berlin,"))
    }

    @Test func sectionsWithoutSortingKeepInputOrder() throws {
        let r = try Self.filter("TRUEPREDICATE", "--section-by", "city", "--output", "indices")
        #expect(r.status == 0, "\(r.stderr)")
        // Berlin's objects are not contiguous in input order: the sections say so on stderr.
        #expect(r.stdout.contains(#"{"name": "Berlin", "indexTitle": "B", "numberOfObjects": 2, "objects": [0, 3]}"#))
        #expect(r.stderr.hasPrefix("warning: "))
    }

    /// `-0`, `-0.0` and `0.0` are equal under `==`: one section, named as the first is written
    /// (they made three sections, "0", "-0.0" and "0.0"); `1` and `1.0` likewise.
    @Test func equalNumbersShareASection() throws {
        let input = "{\"a\": -0.0}\n{\"a\": 0.0}\n{\"a\": -0}\n{\"a\": 1}\n{\"a\": 1.0}\n{\"a\": 0}\n"
        let r = try Self.filter("TRUEPREDICATE", "--section-by", "a", "--output", "indices", stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            {
              "sections": [
                {"name": "-0.0", "indexTitle": "-", "numberOfObjects": 4, "objects": [0, 1, 2, 5]},
                {"name": "1", "indexTitle": "1", "numberOfObjects": 2, "objects": [3, 4]}
              ]
            }

            """)
        let sorted = try Self.filter("TRUEPREDICATE", "--section-by", "a", "--sort", "a", "--output", "jsonl", stdin: input)
        #expect(sorted.stdout.components(separatedBy: "# section").count == 3, "\(sorted.stdout)")
    }

    // MARK: Errors

    @Test func parseErrorsShowTheColumnWithACaret() throws {
        let r = try Self.filter("name BEGINSWTH 'a'")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == """
            name BEGINSWTH 'a'
                 ^
            error: column 6: expected a comparison operator, found 'BEGINSWTH'; did you mean 'BEGINSWITH'?

            """)
    }

    @Test func malformedInputNamesTheLineAndColumn() throws {
        let r = try Self.filter("TRUEPREDICATE", "--output", "jsonl", stdin: "{\"a\": 1}\n\n{\"a\": 2,}\n{\"a\": 3}\n")
        #expect(r.status == 1)
        #expect(r.stdout == "{\"a\": 1}\n")  // what came before the error
        #expect(r.stderr == "error: <stdin>: line 3, column 9: expected a string key\n")

        let array = try Self.filter("TRUEPREDICATE", stdin: "[\n  {\"a\": 1},\n  {\"a\" 2}\n]")
        #expect(array.status == 1)
        #expect(array.stderr == "error: <stdin>: line 3, column 8: expected ':'\n")

        let path = try Self.temporaryFile("{\"a\": 1}\n{\"a\": \"x}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try SiftBinary.run("filter", "a == 2", path)
        #expect(file.status == 1)
        #expect(file.stderr == "error: \(path): line 2, column 10: control character in a string\n")

        let date = try Self.filter("TRUEPREDICATE", stdin: "{\"at\": {\"$date\": \"soon\"}}")
        #expect(date.stderr == "error: <stdin>: line 1, column 18: invalid ISO 8601 date 'soon'\n")
    }

    @Test func evaluationErrorsNameTheLine() throws {
        let r = try Self.filter("age > $unbound")
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: <stdin>: line 1: "))
        #expect(r.stderr.contains("unbound"))
    }

    @Test func predicateErrorsFoundBeforeReading() throws {
        let r = try Self.filter("name MATCHES '('")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("error: "))
        #expect(r.stderr.contains("("))
    }

    @Test func aMissingFileIsAnError() throws {
        let r = try SiftBinary.run("filter", "TRUEPREDICATE", "/nonexistent/people.jsonl")
        #expect(r.status == 1)
        #expect(r.stderr == "error: cannot open '/nonexistent/people.jsonl': No such file or directory\n")
    }

    @Test func helpShowsExamples() throws {
        let r = try SiftBinary.run("filter", "--help")
        #expect(r.status == 0)
        #expect(r.stdout.contains("Examples:"))
        for option in ["--arg", "--var", "--sort", "--limit", "--offset", "--section-by", "--output"] {
            #expect(r.stdout.contains(option), "\(option)")
        }
        #expect(try SiftBinary.run("--help").stdout.contains("sift filter"))
    }

    // MARK: Many records

    /// 200,000 generated records from a file, as JSON Lines and as a JSON array: the matches
    /// are exactly those computed here.
    @Test func manyRecords() throws {
        let count = 200_000
        var lines: [String] = []
        lines.reserveCapacity(count)
        for i in 0..<count {
            lines.append(#"{"id": \#(i), "group": \#(i % 7), "name": "n\#(i)", "nested": {"v": \#(i % 100), "w": [\#(i % 3), "x"]}, "on": \#(i % 2 == 0)}"#)
        }
        let expected = (0..<count).filter { $0 % 7 == 3 && $0 % 100 < 50 && $0 % 2 == 0 }
        let jsonl = try Self.temporaryFile(lines.joined(separator: "\n") + "\n")
        let array = try Self.temporaryFile("[\n" + lines.joined(separator: ",\n") + "\n]\n", suffix: ".json")
        defer {
            try? FileManager.default.removeItem(atPath: jsonl)
            try? FileManager.default.removeItem(atPath: array)
        }
        for path in [jsonl, array] {
            let r = try SiftBinary.run("filter", "group == 3 AND nested.v < 50 AND on == YES", path, "--output", "indices")
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try JSONDecoder().decode([Int].self, from: Data(r.stdout.utf8)) == expected)
        }

        let records = try SiftBinary.run("filter", "group == 3 AND nested.v < 50 AND on == YES", jsonl, "--output", "jsonl")
        #expect(records.stdout.split(separator: "\n").map(String.init) == expected.map { lines[$0] })

        let sorted = try SiftBinary.run("filter", "group == 3", array, "--sort", "nested.v DESC, id", "--limit", "3", "--output", "indices")
        let top = (0..<count).filter { $0 % 7 == 3 }.sorted { ($0 % 100, -$0) > ($1 % 100, -$1) }.prefix(3)
        #expect(sorted.status == 0, "\(sorted.stderr)")
        #expect(try JSONDecoder().decode([Int].self, from: Data(sorted.stdout.utf8)) == Array(top))

        // Reading stops at the limit.
        let limited = try SiftBinary.run("filter", "id >= 0", jsonl, "--offset", "10", "--limit", "5", "--output", "indices")
        #expect(limited.stdout == "[10, 11, 12, 13, 14]\n")
    }
}
