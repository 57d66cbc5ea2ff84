import Foundation
import Sift
import Testing

/// `sift import` without a model: a one-entity model inferred from a CSV table or JSON Lines
/// records (`--entity NAME`), written to `--save-model FILE` or printed on standard error with
/// `--verbose` (and otherwise not shown);
/// data from standard input (`-`) of any format; dates in a `--date-format`.
@Suite struct ImportInferenceTests {
    static let people = "@id,name,age,height,member,joined,note\n"
        + "P1,Ann,30,1.62,true,2021-03-04,\n"
        + "P2,Bob,41,1.8,false,2020-12-31T08:00:00Z,\"likes \"\"tea\"\"\"\n"
        + "P3,Cem,,1.75,,,\"\"\n"

    static let peopleModel = """
        {
          "name": "Person",
          "inferred": true,
          "entities": [
            {
              "name": "Person",
              "attributes": [
                {
                  "name": "name",
                  "type": "String",
                  "optional": true
                },
                {
                  "name": "age",
                  "type": "Integer 64",
                  "optional": true
                },
                {
                  "name": "height",
                  "type": "Double",
                  "optional": true
                },
                {
                  "name": "member",
                  "type": "Boolean",
                  "optional": true
                },
                {
                  "name": "joined",
                  "type": "Date",
                  "optional": true
                },
                {
                  "name": "note",
                  "type": "String",
                  "optional": true
                }
              ],
              "relationships": []
            }
          ]
        }

        """

    static let notice = "sift: the model inferred from the data (--save-model FILE writes it to a file to edit and give as --model):\n"

    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test func aCSVTableMakesAStoreOfItsOwnModel() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try Self.write(Self.people, "people.csv", in: directory)
        let store = directory.appendingPathComponent("people.sqlite").path
        let result = try SiftBinary.run("import", "--store", store, "--entity", "Person", csv)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(csv): imported 3 objects (Person 3)\n")
        #expect(result.stderr == "", "the model is shown only when asked for")
        let verbose = try SiftBinary.run("import", "--store", directory.appendingPathComponent("verbose.sqlite").path, "--entity", "Person", "--verbose", csv)
        #expect(verbose.status == 0, "\(verbose.stderr)")
        #expect(verbose.stderr == Self.notice + Self.peopleModel)
        let query = try SiftBinary.run("query", "--store", store, "Person SORT BY age", "--output", "csv")
        #expect(query.status == 0, "\(query.stderr)")
        // CSV output ends its records with CRLF (RFC 4180).
        #expect(query.stdout == "@entity,@id,name,age,height,member,joined,note\r\n"
                + "Person,P3,Cem,,1.75,,,\r\n"
                + "Person,P1,Ann,30,1.62,true,2021-03-04T00:00:00Z,\r\n"
                + "Person,P2,Bob,41,1.8,false,2020-12-31T08:00:00Z,\"likes \"\"tea\"\"\"\r\n")
        #expect(try SiftBinary.run("query", "--store", store, "COUNT Person WHERE member == true AND joined < %@", "--arg", #"{"$date": "2021-03-05T00:00:00Z"}"#).stdout
                == "{\"count\": 1}\n")
        // The model again, for a second import: the store's, no notice.
        let again = try SiftBinary.run("import", "--store", store, "--entity", "Person", try Self.write("name\nDee\n", "more.csv", in: directory))
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
    }

    @Test func theInferredModelIsSavedAndWorksAsAModel() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try Self.write(Self.people, "people.csv", in: directory)
        let model = directory.appendingPathComponent("person.json").path
        let result = try SiftBinary.run("import", "--store", directory.appendingPathComponent("people.json").path,
                                        "--entity", "Person", "--save-model", model, csv)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(try String(contentsOfFile: model, encoding: .utf8) == Self.peopleModel)
        let reuse = try SiftBinary.run("import", "--store", directory.appendingPathComponent("again.plist").path,
                                       "--model", model, "--entity", "Person", csv)
        #expect(reuse.status == 0, "\(reuse.stderr)")
    }

    @Test func jsonLinesRecordsWithoutAnEntityMakeAModel() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = """
            {"@id": "A", "title": "Dune", "year": 1965, "rating": 4, "seen": true, "at": "2020-01-02T03:04:05Z"}
            {"title": "Solaris", "year": 1961, "rating": 4.5, "seen": null, "extra": null}

            """
        let file = try Self.write(lines, "books.jsonl", in: directory)
        let store = directory.appendingPathComponent("books.json").path
        let result = try SiftBinary.run("import", "--store", store, "--entity", "Book", "--save-model", directory.appendingPathComponent("m.json").path, file)
        #expect(result.status == 0, "\(result.stderr)")
        let schema = try SiftBinary.run("schema", "--store", store)
        for line in ["title", "year", "rating", "seen", "at", "extra"] { #expect(schema.stdout.contains(line), "\(schema.stdout)") }
        let model = try String(contentsOfFile: directory.appendingPathComponent("m.json").path, encoding: .utf8)
        let types = model.split(separator: "\n").filter { $0.contains("\"type\"") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(types == [#""type": "String","#, #""type": "Integer 64","#, #""type": "Double","#, #""type": "Boolean","#,
                          #""type": "Date","#, #""type": "String","#])
        let query = try SiftBinary.run("query", "--store", store, "COUNT Book WHERE rating > 4.2 AND year < 1965")
        #expect(query.stdout == "{\"count\": 1}\n")
    }

    @Test func jsonLinesOfMixedTypesAskForAModel() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.write("{\"n\": 1}\n{\"n\": \"one\"}\n", "mixed.jsonl", in: directory)
        let store = directory.appendingPathComponent("mixed.sqlite").path
        let result = try SiftBinary.run("import", "--store", store, "--entity", "Thing", file)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(file): 'n' holds values of more than one type (an integer on line 1, a string on line 2); write a model for the data and give --model\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func withoutAModelOrAnEntityANewStoreIsRefused() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("new.sqlite").path
        let result = try SiftBinary.run("import", "--store", store, try Self.write(Self.people, "people.csv", in: directory))
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(store) does not exist; give --model MODEL to create it (or --entity ENTITY to infer a model from CSV or JSON Lines data)\n")
    }

    // MARK: Standard input

    @Test func standardInputIsToldByItsContent() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("people.sqlite").path
        let csv = try SiftBinary.run("import", "--store", store, "--entity", "Person", "-", stdin: Self.people)
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout == "<stdin>: imported 3 objects (Person 3)\n")
        #expect(csv.stderr == "")
        // JSON Lines naming no entity: of --entity.
        let lines = try SiftBinary.run("import", "--store", store, "--entity", "Person", "-",
                                       stdin: "{\"name\": \"Eve\", \"age\": 22}\n{\"name\": \"Fay\", \"joined\": \"2022-02-02\"}\n")
        #expect(lines.status == 0, "\(lines.stderr)")
        #expect(lines.stdout == "<stdin>: imported 2 objects (Person 2)\n")
        // The JSON format, pretty-printed.
        let json = try SiftBinary.run("import", "--store", store, "-", stdin: "{\n  \"Person\": [\n    {\"name\": \"Gil\"}, {\"name\": \"Hal\"}\n  ]\n}\n")
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout == "<stdin>: imported 2 objects (Person 2)\n")
        // --format says, whatever the content looks like.
        let forced = try SiftBinary.run("import", "--store", store, "--entity", "Person", "--format", "csv", "-", stdin: "name\n{Ivy}\n")
        #expect(forced.status == 0, "\(forced.stderr)")
        let named = try SiftBinary.run("import", "--store", store, "--format", "jsonl", "-", stdin: "{\"@entity\": \"Person\", \"name\": \"Jo\"}\n")
        #expect(named.stdout == "<stdin>: imported 1 object (Person 1)\n", "\(named.stderr)")
        let count = try SiftBinary.run("query", "--store", store, "COUNT Person")
        #expect(count.stdout == "{\"count\": 9}\n")
    }

    @Test func standardInputOfManyChunksStreamsWhole() throws {
        // Past the 1 MB chunks standard input is read in: told by its first line, then
        // streamed (the line read to tell is not lost), or read whole to infer a model.
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = 60_000
        let lines = (1...rows).map { "{\"name\": \"person number \($0)\", \"n\": \($0)}" }.joined(separator: "\n") + "\n"
        let store = directory.appendingPathComponent("many.sqlite").path
        let inferred = try SiftBinary.run("import", "--store", store, "--entity", "Person", "--save-model", directory.appendingPathComponent("m.json").path, "-", stdin: lines)
        #expect(inferred.status == 0, "\(inferred.stderr)")
        #expect(inferred.stdout == "<stdin>: imported \(rows) objects (Person \(rows))\n")
        let streamed = try SiftBinary.run("import", "--store", store, "--entity", "Person", "-", stdin: lines)
        #expect(streamed.stdout == "<stdin>: imported \(rows) objects (Person \(rows))\n", "\(streamed.stderr)")
        let sum = try SiftBinary.run("query", "--store", store, "SELECT count:(n) AS rows, sum:(n) AS total FROM Person")
        #expect(sum.stdout.contains("\(2 * rows)") && sum.stdout.contains("\(rows * (rows + 1))"), "\(sum.stdout)")
    }

    @Test func theFormatOfData() {
        #expect(ImportFormat(content: Array("name,age\nAnn,3\n".utf8)) == .csv)
        #expect(ImportFormat(content: Array("\u{FEFF}  {\"@entity\": \"Note\"}\n{".utf8)) == .jsonLines)
        #expect(ImportFormat(content: Array("{\"title\": \"x\"}".utf8)) == .jsonLines)
        #expect(ImportFormat(content: Array("{\"Note\": [{\"title\": \"x\"}]}\n".utf8)) == .json)
        #expect(ImportFormat(content: Array("{\n  \"Note\": []\n}".utf8)) == .json)
        #expect(ImportFormat(content: [UInt8]()) == .csv)
        #expect(ImportFormat(fileExtension: "NDJSON") == .jsonLines)
    }

    // MARK: Dates

    @Test func datesInAGivenFormatAreReadInUTC() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try Self.write("name,born\nAnn,04/03/2021\nBob,31/12/1999\n", "people.csv", in: directory)
        let store = directory.appendingPathComponent("people.json").path
        let result = try SiftBinary.run("import", "--store", store, "--entity", "Person", "--date-format", "dd/MM/yyyy",
                                        "--save-model", directory.appendingPathComponent("m.json").path, csv)
        #expect(result.status == 0, "\(result.stderr)")
        let query = try SiftBinary.run("query", "--store", store, "SELECT name, born FROM Person SORT BY born", "--output", "csv")
        #expect(query.stdout == "name,born\r\nBob,1999-12-31T00:00:00Z\r\nAnn,2021-03-04T00:00:00Z\r\n")
        // A date not in the format is an error naming the line and the format.
        let bad = try SiftBinary.run("import", "--store", store, "--entity", "Person", "--date-format", "dd/MM/yyyy", "-",
                                     stdin: "name,born\nCem,2021-03-04\n")
        #expect(bad.status == 1)
        #expect(bad.stderr == "error: <stdin>: CSV line 2: Person, born: '2021-03-04' is not a date in the format dd/MM/yyyy\n")
        let impossible = try SiftBinary.run("import", "--store", store, "--entity", "Person", "--date-format", "dd/MM/yyyy", "-",
                                            stdin: "name,born\nCem,31/02/2021\n")
        #expect(impossible.status == 1, "\(impossible.stdout)")
    }

    @Test func aPatternWithoutDateFieldsIsRefused() throws {
        let result = try SiftBinary.run("import", "--store", "/nonexistent/x.json", "--date-format", "hello", "-", stdin: "")
        #expect(result.status == 1)
        #expect(result.stderr == "error: 'hello' is not a date format: write one with DateFormatter's fields, such as dd/MM/yyyy or MM-dd-yyyy HH:mm\n")
    }
}
