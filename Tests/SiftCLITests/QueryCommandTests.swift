import Foundation
import Sift
import Testing

/// `sift import` and `sift query` on every seed app (Examples/<App>): each example fetch of
/// SEED-APPS.md gives its expected result through the binary, on a JSON store made from
/// model.json and on a binary store made from the Xcode model.
@Suite struct QueryCommandTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples")
    static let apps = ["Notes", "NestedItems", "TaterRater", "MustC", "Movies", "VideoItems", "ToDoItem",
                       "PointsOfInterest", "HouseholdTasks", "Albums"]

    struct StoreCase: CustomTestStringConvertible, Sendable {
        let app: String
        let storeExtension: String
        var testDescription: String { "\(app) (.\(storeExtension))" }
    }

    static let cases: [StoreCase] = apps.flatMap { [StoreCase(app: $0, storeExtension: "json"), StoreCase(app: $0, storeExtension: "plist")] }

    @Test(arguments: cases)
    func seedFetchesGiveTheirExpectedResults(_ c: StoreCase) throws {
        let folder = Self.examples.appendingPathComponent(c.app)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("\(c.app).\(c.storeExtension)").path
        let model = c.storeExtension == "json"
            ? folder.appendingPathComponent("model.json").path
            : folder.appendingPathComponent("\(c.app).xcdatamodeld").path
        let imported = try SiftBinary.run("import", "--store", store, "--model", model, folder.appendingPathComponent("data.json").path)
        try #require(imported.status == 0, "\(imported.stderr)")

        let document = try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent("fetches.json")))
        guard case .array(let fetches)? = document.field("fetches") else { Issue.record("no fetches"); return }
        for fetch in fetches {
            let name = fetch.field("name")?.text ?? "?"
            var arguments = ["query", "--store", store, "--output", "json"]
            if let statement = fetch.field("statement")?.text {
                arguments.append(statement)
                for argument in fetch.field("arguments")?.collectionElements ?? [] {
                    arguments += ["--arg", JSONWriter.string(argument)]
                }
                if case .dictionary(let variables)? = fetch.field("variables") {
                    for (key, value) in variables.pairs { arguments += ["--var", "\(key)=\(JSONWriter.string(value))"] }
                }
            } else if let request = fetch.field("request") {
                let file = directory.appendingPathComponent("\(name).json")
                try Data(JSONWriter.string(request).utf8).write(to: file)
                arguments += ["--request", file.path]
            }
            let result = try SiftBinary.run(arguments: arguments)
            let property = fetch.field("property")?.text ?? "@id"
            guard case .dictionary(let expect)? = fetch.field("expect"), let (form, expected) = expect.pairs.first else {
                Issue.record("\(name): no expect"); continue
            }
            if form == "error" {
                #expect(result.status == 1, "\(name): expected an error")
                #expect(result.stderr.contains(expected.text ?? "\u{0}"), "\(name): \(result.stderr)")
                continue
            }
            guard result.status == 0 else { Issue.record("\(name) failed: \(result.stderr)"); continue }
            let output = try JSONParser.parse(result.stdout)
            func identify(_ objects: Value?) -> [String] {
                (objects?.collectionElements ?? []).map { JSONWriter.string($0.field(property) ?? .null) }
            }
            let texts = (expected.collectionElements ?? []).map { JSONWriter.string($0) }
            switch form {
            case "ordered": #expect(identify(output) == texts, "\(name)")
            case "unordered": #expect(identify(output).sorted() == texts.sorted(), "\(name)")
            case "count": #expect(output.field("count").map { JSONWriter.string($0) } == JSONWriter.string(expected), "\(name)")
            case "sections":
                let got = (output.field("sections")?.collectionElements ?? []).map { section in
                    [section.field("name")?.text ?? "?", section.field("indexTitle")?.text ?? "?"] + identify(section.field("objects"))
                }
                let want = texts.indices.map { i in
                    let section = (expected.collectionElements ?? [])[i]
                    return [section.field("name")?.text ?? "?", section.field("indexTitle")?.text ?? "?"] + identify(section.field("objects")).map { _ in "" }
                }
                let wantObjects = (expected.collectionElements ?? []).map { ($0.field("objects")?.collectionElements ?? []).map { JSONWriter.string($0) } }
                #expect(got.map { Array($0.prefix(2)) } == want.map { Array($0.prefix(2)) }, "\(name)")
                #expect(got.map { Array($0.dropFirst(2)) } == wantObjects, "\(name)")
            default: Issue.record("\(name): unknown expect form \(form)")
            }
        }
    }

    @Test func rejectedImportLeavesTheStoreAsItWas() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.json").path
        let folder = Self.examples.appendingPathComponent("Notes")
        let first = try SiftBinary.run("import", "--store", store, "--model", folder.appendingPathComponent("model.json").path,
                                       folder.appendingPathComponent("data.json").path)
        #expect(first.status == 0)
        #expect(first.stdout.hasSuffix("imported 11 objects (Category 3, Tag 3, Note 5)\n"))
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let bad = directory.appendingPathComponent("bad.json")
        try Data(#"{"Tag": [{"@id": "T9", "name": "ok"}], "Note": [{"@id": "N9", "title": "x", "createdAt": "yesterday", "updatedAt": "2017-07-07T09:15:08Z"}]}"#.utf8).write(to: bad)
        let result = try SiftBinary.run("import", "--store", store, bad.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Note 'N9', createdAt: 'yesterday' is not an ISO 8601 date"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let dangling = directory.appendingPathComponent("dangling.json")
        try Data(#"{"Note": [{"@id": "N9", "title": "x", "createdAt": "2017-07-07T09:15:08Z", "updatedAt": "2017-07-07T09:15:08Z", "category": "C9"}]}"#.utf8).write(to: dangling)
        let second = try SiftBinary.run("import", "--store", store, dangling.path)
        #expect(second.stderr.contains("Note 'N9', category: no object with ID 'C9'"), "\(second.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    /// A JSON object bound with --arg or --var is a dictionary, on a JSON store and on SQLite alike.
    @Test(arguments: ["json", "sqlite"])
    func dictionaryArguments(_ storeExtension: String) throws {
        let folder = Self.examples.appendingPathComponent("Notes")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("Notes.\(storeExtension)").path
        let imported = try SiftBinary.run("import", "--store", store, "--model", folder.appendingPathComponent("model.json").path,
                                          folder.appendingPathComponent("data.json").path)
        try #require(imported.status == 0, "\(imported.stderr)")
        let queries: [([String], String)] = [
            (["COUNT Note WHERE title IN %@", "--arg", #"{"a": "Groceries", "b": "meeting notes"}"#], #"{"count": 2}"#),
            (["COUNT Note WHERE category IN $c", "--var", #"c={"work": {"$ref": "C1"}}"#], #"{"count": 2}"#),
            (["COUNT Note WHERE title == %@['t']", "--arg", #"{"t": "Groceries"}"#], #"{"count": 1}"#),
            (["COUNT Note WHERE title IN %@", "--arg", "{}"], #"{"count": 0}"#),
        ]
        for (arguments, expected) in queries {
            let r = try SiftBinary.run(arguments: ["query", "--store", store] + arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(r.stdout == expected + "\n", "\(arguments)")
        }
    }

    @Test func schemaAndErrors() throws {
        let model = Self.examples.appendingPathComponent("VideoItems/model.json").path
        let schema = try SiftBinary.run("schema", "--model", model)
        #expect(schema.status == 0)
        #expect(schema.stdout.contains("VideoItem (abstract)\n"))
        #expect(schema.stdout.contains("Movie : VideoItem\n"))
        let missing = try SiftBinary.run("query", "--store", "/nonexistent/x.json", "Note")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no store at /nonexistent/x.json"))
    }
}

extension Value {
    func field(_ key: String) -> Value? {
        if case .dictionary(let d) = self { return d[key] }
        return nil
    }

    var text: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
