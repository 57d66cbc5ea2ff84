import Foundation
import Testing

/// `sift filter` reads its input as jq does — any sequence of JSON values — and takes --path,
/// --select and --count; keys no record has are warned about.
@Suite("sift filter input")
struct FilterInputTests {
    static let lines = """
        {"name": "Ann", "age": 30, "tag": "admin", "address": {"city": "Berlin"}}
        {"name": "Bob", "age": 41, "tag": null}
        {"name": "Cy", "age": 25}

        """

    /// What `jq '.[]'` prints for the same records: pretty-printed, one after another.
    static let jqOutput = """
        {
          "name": "Ann",
          "age": 30,
          "tag": "admin",
          "address": {
            "city": "Berlin"
          }
        }
        {
          "name": "Bob",
          "age": 41,
          "tag": null
        }
        {
          "name": "Cy",
          "age": 25
        }

        """

    static func filter(_ arguments: String..., stdin: String = lines) throws -> SiftBinary.Result {
        try SiftBinary.run(arguments: ["filter"] + arguments, stdin: stdin)
    }

    // MARK: Layouts

    @Test func jqOutputGivesTheSameRecordsAsJSONLines() throws {
        let reference = try Self.filter("age >= 30", "--output", "jsonl")
        #expect(reference.status == 0, "\(reference.stderr)")
        #expect(reference.stdout == """
            {"name": "Ann", "age": 30, "tag": "admin", "address": {"city": "Berlin"}}
            {"name": "Bob", "age": 41, "tag": null}

            """)
        let concatenated = #"{"name": "Ann", "age": 30, "tag": "admin", "address": {"city": "Berlin"}}{"name":"Bob","age":41,"tag":null} {"name": "Cy", "age": 25}"#
        for input in [Self.jqOutput, concatenated, "[" + Self.lines.split(separator: "\n").joined(separator: ",\n") + "]"] {
            let r = try Self.filter("age >= 30", "--output", "indices", stdin: input)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == "[0, 1]\n", "\(input)")
            let jsonl = try Self.filter("age >= 30", "--output", "jsonl", "--select", "name,age,tag", stdin: input)
            #expect(jsonl.stdout == "{\"name\":\"Ann\",\"age\":30,\"tag\":\"admin\"}\n{\"name\":\"Bob\",\"age\":41,\"tag\":null}\n", "\(input)")
        }
        // The records of pretty-printed input print as written (jsonl on one line).
        let pretty = try Self.filter("name == 'Bob'", stdin: Self.jqOutput)
        #expect(pretty.stdout == "[\n  {\n  \"name\": \"Bob\",\n  \"age\": 41,\n  \"tag\": null\n}\n]\n")
    }

    /// `jq '.[]'` and `jq -c '.[]'` of the same array give the same results (jq comes from
    /// scripts/ensure-packages).
    @Test func theOutputOfJqItself() throws {
        let jq = try #require(["/usr/bin/jq", "/usr/local/bin/jq"].first(where: FileManager.default.isExecutableFile(atPath:)),
                              "jq is not installed: bash scripts/ensure-packages installs it")
        let array = "[" + Self.lines.split(separator: "\n").joined(separator: ",") + "]"
        func run(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: jq)
            process.arguments = arguments
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: Data(array.utf8))
            try input.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let pretty = try run([".[]"])
        let compact = try run(["-c", ".[]"])
        #expect(pretty.contains("\n  \"age\""))
        let a = try Self.filter("age < 40", "--output", "jsonl", stdin: pretty)
        let b = try Self.filter("age < 40", "--output", "jsonl", stdin: compact)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(a.stdout == b.stdout)
        #expect(a.stdout == "{\"name\":\"Ann\",\"age\":30,\"tag\":\"admin\",\"address\":{\"city\":\"Berlin\"}}\n{\"name\":\"Cy\",\"age\":25}\n")
    }

    // MARK: Options

    @Test func pathPicksTheNestedArray() throws {
        let input = """
            {"page": 1, "data": {"items": [{"id": 1, "price": 5}, {"id": 2, "price": 15}]}}
            {
              "page": 2,
              "data": {
                "items": [
                  {"id": 3, "price": 25}
                ]
              }
            }

            """
        let r = try Self.filter("price > 10", "--path", "data.items", "--output", "jsonl", stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "{\"id\": 2, \"price\": 15}\n{\"id\": 3, \"price\": 25}\n")
        let missing = try Self.filter("price > 10", "--path", "data.rows", stdin: input)
        #expect(missing.status == 1)
        #expect(missing.stdout == "")
        #expect(missing.stderr == "error: <stdin>: line 1, column 78: --path data.rows: no key 'rows' in this object\n")
        let bad = try Self.filter("TRUEPREDICATE", "--path", "data..items", stdin: input)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--path takes a key path of keys separated by '.'"))
    }

    @Test func selectProjectsKeyPaths() throws {
        let r = try Self.filter("TRUEPREDICATE", "--select", "name, address.city", "--output", "jsonl")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            {"name":"Ann","address.city":"Berlin"}
            {"name":"Bob","address.city":null}
            {"name":"Cy","address.city":null}

            """)
        let json = try Self.filter("age > 40", "--select", "name")
        #expect(json.stdout == "[\n  {\"name\":\"Bob\"}\n]\n")
        let csv = try Self.filter("age < 40", "--select", "age,name", "--output", "csv", "--sort", "age")
        #expect(csv.stdout == "age,name\r\n25,Cy\r\n30,Ann\r\n")
        let notAKeyPath = try Self.filter("TRUEPREDICATE", "--select", "name,age + 1")
        #expect(notAKeyPath.status == 1)
        #expect(notAKeyPath.stderr == "error: --select: 'age + 1' is not a key path (write keys and dotted key paths: --select title,author.name)\n")
    }

    @Test func countPrintsTheNumberOfResults() throws {
        #expect(try Self.filter("age >= 30", "--count").stdout == "2\n")
        #expect(try Self.filter("age >= 30", "--count", stdin: Self.jqOutput).stdout == "2\n")
        #expect(try Self.filter("age > 100", "--count").stdout == "0\n")
        #expect(try Self.filter("TRUEPREDICATE", "--count", "--offset", "1").stdout == "2\n")
        #expect(try Self.filter("TRUEPREDICATE", "--count", "--limit", "2").stdout == "2\n")
        #expect(try Self.filter("TRUEPREDICATE", "--count", "--offset", "5").stdout == "0\n")
        let sectioned = try Self.filter("TRUEPREDICATE", "--count", "--section-by", "tag")
        #expect(sectioned.status != 0)
    }

    // MARK: Warnings

    @Test func aKeyNoRecordHasIsAWarning() throws {
        let r = try Self.filter("ANY tags == 'admin'")
        #expect(r.status == 0)
        #expect(r.stdout == "[]\n")
        #expect(r.stderr == "warning: no record has 'tags'; did you mean 'tag'?\n")
        let sorted = try Self.filter("age > 1", "--sort", "nmae", "--count")
        #expect(sorted.stdout == "3\n")
        #expect(sorted.stderr == "warning: no record has 'nmae'; did you mean 'name'?\n")
        let noSuggestion = try Self.filter("zzzzzz == 1 OR zzzzzz == 2", "--count")
        #expect(noSuggestion.stderr == "warning: no record has 'zzzzzz'\n")
        // A key one record has, even as null, is no warning; nor are keys of SUBQUERY elements,
        // variables, or records that are not objects.
        #expect(try Self.filter("tag == nil", "--count").stderr == "")
        #expect(try Self.filter("address.city == 'Berlin'").stderr == "")
        // Key paths: the first key no record has is named.
        #expect(try Self.filter("address.cty == 'Berlin'", "--count").stderr == "warning: no record has 'address.cty'; did you mean 'address.city'?\n")
        #expect(try Self.filter("adress.city == 'Berlin'", "--count").stderr == "warning: no record has 'adress'; did you mean 'address'?\n")
        #expect(try Self.filter("ANY items.nme == 'x'", "--count", stdin: "{\"items\": [{\"name\": 1}, 2]}").stderr
                == "warning: no record has 'items.nme'; did you mean 'items.name'?\n")
        #expect(try Self.filter("name.first == 'x'", "--count").stderr == "")  // names are strings, not objects
        #expect(try Self.filter("SUBQUERY(address, $a, $a.zip == 1).@count > 0 OR $x == 1", "--var", "x=1", "--count").stderr == "")
        #expect(try Self.filter("tags == 1", stdin: "1\n2\n").stderr == "")
    }

    // MARK: Errors and size

    @Test func brokenPrettyPrintedInputNamesTheLineAndColumn() throws {
        let input = """
            {
              "name": "Ann",
              "age": 30
            }
            {
              "name": "Bob",
              "age" 41
            }

            """
        let r = try Self.filter("age > 1", "--output", "jsonl", stdin: input)
        #expect(r.status == 1)
        #expect(r.stdout == "{\"name\":\"Ann\",\"age\":30}\n")
        #expect(r.stderr == "error: <stdin>: line 7, column 9: expected ':'\n")
        let truncated = try Self.filter("age > 1", "--count", stdin: "{\"a\": [1,\n  2")
        #expect(truncated.status == 1)
        #expect(truncated.stderr == "error: <stdin>: line 2, column 4: unexpected end of JSON in an array\n")
    }

    /// 200,000 pretty-printed records through a pipe: counted and filtered, streaming.
    @Test func aLargeStreamedInput() throws {
        var input = ""
        input.reserveCapacity(12_000_000)
        for i in 0..<200_000 {
            input += "{\n  \"id\": \(i),\n  \"even\": \(i % 2 == 0)\n}\n"
        }
        let r = try Self.filter("even == YES AND id >= 199990", "--select", "id", "--output", "jsonl", stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == (199990..<200_000).filter { $0 % 2 == 0 }.map { "{\"id\":\($0)}\n" }.joined())
        let count = try Self.filter("even == NO", "--count", stdin: input)
        #expect(count.stdout == "100000\n")
    }
}

extension FilterInputTests {
    /// The shell examples of the README's `sift filter` section, run from the package root on
    /// the files it ships: each succeeds and prints something, and prints what the README shows
    /// where it shows output (standard output, then standard error).
    @Test func theReadmesFilterExamplesRun() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "`sift filter PREDICATE [FILE]`"))
        let block = try #require(readme[section.upperBound...].range(of: "```sh\n"))
        let blockEnd = try #require(readme[block.upperBound...].range(of: "```"))
        var examples: [(command: String, shown: [String])] = []
        for line in readme[block.upperBound..<blockEnd.lowerBound].split(separator: "\n") {
            if line.hasPrefix("$ ") {
                examples.append((String(line.dropFirst(2)), []))
            } else if !examples.isEmpty {
                examples[examples.count - 1].shown.append(String(line))
            }
        }
        #expect(examples.count >= 5)
        let hasJq = ["/usr/bin/jq", "/usr/local/bin/jq"].contains(where: FileManager.default.isExecutableFile(atPath:))
        for (command, shown) in examples where hasJq || !command.contains("jq ") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.currentDirectoryURL = root
            var environment = SiftBinary.environment
            environment["PATH"] = SiftBinary.url.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(command): \(stderr)")
            #expect(!stdout.isEmpty, "\(command)")
            if !shown.isEmpty {
                #expect((stdout + stderr).split(separator: "\n").map(String.init) == shown, "\(command)")
            } else {
                #expect(stderr.isEmpty, "\(command): \(stderr)")
            }
        }
    }
}
