import Foundation
import Testing

/// `sift import` and the store files it makes (issue 28 §7): a ragged row is the only thing
/// reported, before anything is written; a failed import of a new store leaves no file; a
/// store whose model was inferred grows by the entity of the next file; no lock file is left
/// beside a JSON or binary store; a data file given where a store goes says what reads it.
@Suite struct ImportStoreFileTests {
    static let storeKinds = ["sqlite", "json", "plist"]

    static func directory() throws -> URL { try SQLiteCommandTests.directory() }

    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    static func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test(arguments: storeKinds)
    func aRaggedRowIsReportedFirstAndNothingIsWritten(_ kind: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try Self.write("a,b\n1,x\n2,\"two\nlines\"\n3,y,z\n4,w\n", "ragged.csv", in: directory)
        let store = directory.appendingPathComponent("new.\(kind)").path
        // --verbose would print the model: the ragged row comes first, and alone.
        let result = try SiftBinary.run("import", "--store", store, "--entity", "Row", "--verbose", csv)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(csv): Row CSV line 5: 3 fields, but the header has 2\n")
        #expect(result.stdout == "")
        #expect(try Self.files(in: directory) == ["ragged.csv"])
    }

    @Test(arguments: storeKinds)
    func aFailedImportOfANewStoreLeavesNoFile(_ kind: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try Self.write(#"{"entities": [{"name": "Row", "attributes": [{"name": "n", "type": "Integer 64"}]}]}"#, "model.json", in: directory)
        let good = try Self.write("n\n1\n2\n", "good.csv", in: directory)
        let bad = try Self.write("n\n3\nfour\n", "bad.csv", in: directory)
        let store = directory.appendingPathComponent("new.\(kind)").path
        // The first file imports, the second fails: the new store is not made at all.
        let result = try SiftBinary.run("import", "--store", store, "--model", model, "--entity", "Row", good, bad)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(bad): Row CSV line 3, n: 'four' is not a valid Integer 64; \(store) was not created\n")
        #expect(result.stdout == "", "nothing is said imported into a store that is not made")
        #expect(try Self.files(in: directory) == ["bad.csv", "good.csv", "model.json"])
        // Made whole when every file imports.
        let fine = try SiftBinary.run("import", "--store", store, "--model", model, "--entity", "Row", good, good)
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(fine.stdout == "\(good): imported 2 objects (Row 2)\n\(good): imported 2 objects (Row 2)\n")
        #expect(try SiftBinary.run("query", "--store", store, "COUNT Row").stdout == "{\"count\": 4}\n")
        #expect(try Self.files(in: directory) == ["bad.csv", "good.csv", "model.json", "new.\(kind)"])
        // Into the existing store, a failing file leaves it as it was.
        let again = try SiftBinary.run("import", "--store", store, "--entity", "Row", bad)
        #expect(again.status == 1)
        #expect(again.stderr == "error: \(bad): Row CSV line 3, n: 'four' is not a valid Integer 64\n")
        #expect(try SiftBinary.run("query", "--store", store, "COUNT Row").stdout == "{\"count\": 4}\n")
    }

    @Test(arguments: storeKinds)
    func aStoreOfAnInferredModelGrowsByTheNextEntity(_ kind: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let batting = try Self.write("playerID,yearID,HR\naaronha01,1954,13\naaronha01,1955,27\nruthba01,1927,60\n", "Batting.csv", in: directory)
        let people = try Self.write("playerID,nameFirst,nameLast,debut\naaronha01,Hank,Aaron,1954-04-13\nruthba01,Babe,Ruth,1914-07-11\n", "People.csv", in: directory)
        let store = directory.appendingPathComponent("lahman.\(kind)").path
        let first = try SiftBinary.run("import", "--store", store, "--entity", "Batting", batting)
        #expect(first.status == 0, "\(first.stderr)")
        let model = directory.appendingPathComponent("grown.json").path
        let second = try SiftBinary.run("import", "--store", store, "--entity", "People", "--save-model", model, people)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "\(people): imported 2 objects (People 2)\n")
        #expect(second.stderr == "")
        // The store's model (and the one saved) has both entities, each typed by its data.
        let schema = try SiftBinary.run("schema", "--store", store)
        #expect(schema.stdout.contains("Batting") && schema.stdout.contains("People"), "\(schema.stdout)")
        #expect(schema.stdout.split(separator: "\n").contains { $0.contains("debut") && $0.hasSuffix("Date") }, "\(schema.stdout)")
        let saved = try String(contentsOfFile: model, encoding: .utf8)
        #expect(saved.contains(#""inferred": true"#) && saved.contains(#""name": "Batting""#) && saved.contains(#""name": "People""#), "\(saved)")
        #expect(try SiftBinary.run("query", "--store", store, "COUNT People WHERE debut < %@", "--arg", #"{"$date": "1950-01-01T00:00:00Z"}"#).stdout
                == "{\"count\": 1}\n")
        #expect(try SiftBinary.run("query", "--store", store, "SELECT sum:(HR) AS hr FROM Batting").stdout.contains("100"))
        // An import that fails adds nothing: the entity is not there afterwards.
        let duplicates = try Self.write("@id,name\nT1,a\nT1,b\n", "Teams.csv", in: directory)
        let failed = try SiftBinary.run("import", "--store", store, "--entity", "Teams", duplicates)
        #expect(failed.status == 1)
        #expect(!(try SiftBinary.run("schema", "--store", store)).stdout.contains("Teams"))
        // A store of a model written by hand does not grow: the entity is unknown.
        let written = try Self.write(#"{"entities": [{"name": "Batting", "attributes": [{"name": "HR", "type": "Integer 64"}]}]}"#, "model.json", in: directory)
        let fixed = directory.appendingPathComponent("fixed.\(kind)").path
        #expect(try SiftBinary.run("import", "--store", fixed, "--model", written, "--entity", "Batting", try Self.write("HR\n1\n", "hr.csv", in: directory)).status == 0)
        let refused = try SiftBinary.run("import", "--store", fixed, "--entity", "Peple", people)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("unknown entity 'Peple'"), "\(refused.stderr)")
    }

    @Test func noLockFileIsLeftBesideAJSONOrBinaryStore() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try Self.write("name,n\na,1\nb,2\n", "rows.csv", in: directory)
        for kind in ["json", "plist"] {
            let store = directory.appendingPathComponent("rows.\(kind)").path
            #expect(try SiftBinary.run("import", "--store", store, "--entity", "Row", csv).status == 0)
            #expect(try SiftBinary.run("import", "--store", store, "--entity", "Row", csv).status == 0)
            #expect(try SiftBinary.run("update", "--store", store, "Row SET n = 3 WHERE n == 1").status == 0)
            #expect(try SiftBinary.run("delete", "--store", store, "Row WHERE n == 2").status == 0)
            #expect(try SiftBinary.run("query", "--store", store, "COUNT Row").stdout == "{\"count\": 2}\n")
        }
        #expect(try Self.files(in: directory) == ["rows.csv", "rows.json", "rows.plist"])
    }

    @Test func aDataFileWhereAStoreGoesSaysWhatReadsIt() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.write("{\"a\": 1}\n{\"a\": 2}\n", "data.jsonl", in: directory)
        let json = try Self.write("[{\"a\": 1}]\n", "data.json", in: directory)
        let csv = try Self.write("a\n1\n", "data.csv", in: directory)
        for (path, expected) in [
            (lines, "error: data.jsonl is JSON Lines data, not a Sift store: filter its records with 'sift filter PREDICATE \(lines)', or import them into a store with 'sift import --store data.sqlite --entity NAME \(lines)'\n"),
            (json, "error: data.json is JSON data, not a Sift store: filter its records with 'sift filter PREDICATE \(json)', or import them into a store with 'sift import --store data.sqlite --entity NAME --format jsonl \(json)'\n"),
            (csv, "error: data.csv is CSV data, not a Sift store: import its rows into a store with 'sift import --store data.sqlite --entity NAME \(csv)'\n"),
        ] {
            let repl = try SiftBinary.run(arguments: [path], stdin: "")
            #expect(repl.status == 1)
            #expect(repl.stderr == expected)
            let query = try SiftBinary.run("query", "--store", path, "COUNT Row")
            #expect(query.stderr == expected)
        }
        // What the hints say works.
        let filtered = try SiftBinary.run("filter", "a == 2", lines).stdout
        #expect(filtered.contains("{\"a\": 2}") && !filtered.contains("{\"a\": 1}"), "\(filtered)")
        let imported = try SiftBinary.run("import", "--store", directory.appendingPathComponent("data.sqlite").path, "--entity", "NAME", "--format", "jsonl", json)
        #expect(imported.status == 0, "\(imported.stderr)")
        // A damaged store is still reported as one.
        let damaged = try Self.write("{\"sift\": \"store\", \"version\": 1, \"model\": {\"entities\": [", "damaged.json", in: directory)
        #expect(try SiftBinary.run("query", "--store", damaged, "COUNT Row").stderr.contains("is not a valid Sift store"))
    }
}
