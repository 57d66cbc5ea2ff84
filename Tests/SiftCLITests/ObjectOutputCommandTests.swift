import CoreDataFixtures
import Foundation
import Sift
@testable import SiftCLI
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import Synchronization
import Testing

/// How `sift query` prints objects: a to-many relationship as its count (the default), its IDs
/// (`--relationships ids`) or not at all (`none`), read a batch at a time; `--properties`
/// choosing what is printed.
@Suite struct ObjectOutputCommandTests {
    /// The Notes example as a SQLite store and a JSON store, in a fresh directory.
    static func stores() throws -> (directory: URL, sqlite: String, json: String) {
        let directory = try SQLiteCommandTests.directory()
        let sqlite = directory.appendingPathComponent("notes.sqlite").path
        let json = directory.appendingPathComponent("notes.json").path
        try SQLiteCommandTests.importNotes(sqlite)
        try SQLiteCommandTests.importNotes(json)
        return (directory, sqlite, json)
    }

    static func query(_ arguments: String...) throws -> String {
        let result = try SiftBinary.run(arguments: ["query"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    static let statements = ["Note SORT BY title", "Category SORT BY name", "Tag SORT BY name", "Note SORT BY category.name SECTION BY category.name"]

    @Test func countsAreTheDefaultAndAgreeOnSQLiteAndJSONStores() throws {
        let (directory, sqlite, json) = try Self.stores()
        defer { try? FileManager.default.removeItem(at: directory) }
        for statement in Self.statements {
            for output in ["json", "jsonl", "table", "csv"] {
                let a = try Self.query("--store", sqlite, statement, "--output", output)
                #expect(a == (try Self.query("--store", json, statement, "--output", output)), "\(statement) (\(output))")
                #expect(a == (try Self.query("--store", sqlite, statement, "--output", output, "--relationships", "counts")))
            }
        }
        // Each count is the length of the ID list; a to-one stays an ID.
        let counts = try JSONParser.parse(try Self.query("--store", sqlite, "Category SORT BY name"))
        let ids = try JSONParser.parse(try Self.query("--store", sqlite, "Category SORT BY name", "--relationships", "ids"))
        let countList = (counts.collectionElements ?? []).map { $0.field("notes").map { JSONWriter.string($0) } ?? "?" }
        let idList = (ids.collectionElements ?? []).map { $0.field("notes")?.collectionElements.map { String($0.count) } ?? "?" }
        #expect(countList.count == 3)
        #expect(countList == idList)
        let note = try JSONParser.parse(try Self.query("--store", sqlite, "Note WHERE category != nil LIMIT 1"))
        #expect(note.collectionElements?.first?.field("category")?.text != nil)
        #expect(note.collectionElements?.first?.field("tags").map { if case .int = $0 { true } else { false } } == true)
    }

    /// `--relationships ids` prints every relationship's IDs, as `relationshipIDs` gives them.
    @Test func idsAreTheFullLists() throws {
        let (directory, sqlite, json) = try Self.stores()
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in [sqlite, json] {
            let store = try StoreFile.open(path)
            for entity in ["Note", "Category", "Tag"] {
                var request = try FetchRequest(statement: "\(entity) SORT BY \(entity == "Note" ? "title" : "name")")
                request.fetchBatchSize = 0
                var expected: [String] = []
                for object in try store.fetch(request) {
                    var pairs: [(String, Value)] = [("@entity", .string(object.entityName)), ("@id", .string(object.objectID.rawValue))]
                    pairs.append(contentsOf: object.attributeValues.pairs)
                    for relationship in object.relationshipIDs {
                        let ids = relationship.ids.map { Value.string($0.rawValue) }
                        pairs.append((relationship.name, relationship.isToMany ? .array(ids) : (ids.first ?? .null)))
                    }
                    expected.append(JSONWriter.string(.dictionary(ValueDictionary(pairs))))
                }
                let printed = try Self.query("--store", path, "\(entity) SORT BY \(entity == "Note" ? "title" : "name")", "--relationships", "ids", "--output", "jsonl")
                #expect(printed == expected.map { $0 + "\n" }.joined(), "\(entity) in \(path)")
            }
        }
    }

    /// A to-one whose destination ID a Core Data store makes from the owner's row is not
    /// prefetched for printing (its ID costs no query); what is printed is the same as with it
    /// prefetched, and printing runs the fetch's query and the other relationships' only.
    @Test func rowMadeToOnesAreNotPrefetched() throws {
        let store = try SQLiteStore.open(at: CoreDataFixtures.url("NoteStore.sqlite"))
        let output = ObjectOutput(relationships: .ids)
        var prefetched = try FetchRequest(statement: "ICNote")
        try output.prepare(&prefetched, model: store.model)
        var request = try FetchRequest(statement: "ICNote")
        try output.prepare(&request, model: store.model, store: store)
        let toOnes = store.model.entity(named: "ICNote")?.relationships.filter { !$0.isToMany }.map(\.name) ?? []
        let rowMade = toOnes.filter { store.makesDestinationIDFromRow($0, of: "ICNote") }
        #expect(!rowMade.isEmpty)
        #expect(rowMade.allSatisfy { prefetched.relationshipKeyPathsForPrefetching.contains($0) })
        #expect(!rowMade.contains { request.relationshipKeyPathsForPrefetching.contains($0) })
        let expected = try store.fetch(prefetched).map { StoredObjectJSON.match(output.value(of: $0, model: store.model), position: 0).text }
        let printed = try store.fetch(request).map { StoredObjectJSON.match(output.value(of: $0, model: store.model), position: 0).text }
        #expect(!printed.isEmpty && printed == expected)
    }

    /// Printing objects runs the fetch's query and one query per shown relationship per batch,
    /// however many objects a batch has.
    @Test(arguments: [RelationshipDetail.counts, .ids])
    func noQueryPerObject(_ detail: RelationshipDetail) throws {
        let (directory, sqlite, _) = try Self.stores()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore.open(at: URL(fileURLWithPath: sqlite))
        let output = ObjectOutput(relationships: detail)
        var request = try FetchRequest(statement: "Note SORT BY title")
        request.fetchBatchSize = 2
        try output.prepare(&request, model: store.model)
        let log = Mutex<[String]>([])
        store.database.setTrace { sql in log.withLock { $0.append(sql) } }
        var printed = 0
        for object in try store.fetch(request) {
            _ = output.value(of: object, model: store.model)
            printed += 1
        }
        store.database.setTrace(nil)
        #expect(printed == 5)
        // 5 notes in 3 batches; category and tags each read once per batch.
        let statements = log.withLock { $0 }
        #expect(statements.count == 1 + 3 * 2, "\(statements.joined(separator: "\n"))")
        #expect(statements.filter { $0.contains("count(*)") }.count == (detail == .counts ? 3 : 0))
    }

    @Test func noneLeavesRelationshipsOut() throws {
        let (directory, sqlite, json) = try Self.stores()
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in [sqlite, json] {
            let printed = try JSONParser.parse(try Self.query("--store", path, "Note SORT BY title", "--relationships", "none"))
            for object in printed.collectionElements ?? [] {
                guard case .dictionary(let fields) = object else { Issue.record("not an object"); continue }
                #expect(fields.keys == ["@entity", "@id", "title", "contents", "createdAt", "updatedAt"])
            }
        }
    }

    @Test func propertiesChooseWhatIsPrinted() throws {
        let (directory, sqlite, json) = try Self.stores()
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in [sqlite, json] {
            let printed = try JSONParser.parse(try Self.query("--store", path, "Note SORT BY title", "--properties", "tags, title,category"))
            #expect(printed.collectionElements?.count == 5)
            for object in printed.collectionElements ?? [] {
                guard case .dictionary(let fields) = object else { Issue.record("not an object"); continue }
                #expect(fields.keys == ["@entity", "@id", "tags", "title", "category"])
            }
            let table = try Self.query("--store", path, "Category SORT BY name", "--properties", "name,notes", "--output", "table")
            #expect(table.split(separator: "\n").first.map { $0.split(separator: " ", omittingEmptySubsequences: true) } == ["@entity", "@id", "name", "notes"])
            let ids = try Self.query("--store", path, "Category SORT BY name", "--properties", "notes", "--relationships", "ids", "--output", "jsonl")
            #expect(ids.split(separator: "\n").allSatisfy { $0.contains("\"notes\":[") })
        }
        let idsOnly = try Self.query("--store", sqlite, "Tag SORT BY name", "--properties", "name", "--output", "csv")
        #expect(idsOnly.hasPrefix("@entity,@id,name\r\n"))
    }

    @Test func anUnknownPropertyIsAnErrorWithTheClosestName() throws {
        let (directory, sqlite, json) = try Self.stores()
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in [sqlite, json] {
            let result = try SiftBinary.run("query", "--store", path, "Note SORT BY title", "--properties", "title,tagz")
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty || result.stdout == "[]\n")
            #expect(result.stderr == "error: --properties: unknown key 'tagz' on Note; did you mean 'tags'?\n", "\(result.stderr)")
            let select = try SiftBinary.run("query", "--store", path, "SELECT title FROM Note", "--properties", "title")
            #expect(select.status == 1)
            #expect(select.stderr == "error: --properties chooses what an object fetch prints; a SELECT names its own properties\n", "\(select.stderr)")
            let count = try SiftBinary.run("query", "--store", path, "COUNT Note", "--properties", "title")
            #expect(count.status == 1)
            #expect(count.stderr.contains("a COUNT prints a number"), "\(count.stderr)")
        }
        let empty = try SiftBinary.run("query", "--store", sqlite, "Note", "--properties", "title,")
        #expect(empty.status != 0)
        #expect(empty.stderr.contains("--properties"))
        let detail = try SiftBinary.run("query", "--store", sqlite, "Note", "--relationships", "all")
        #expect(detail.status != 0)
        #expect(detail.stderr.contains("counts"))
    }
}

/// `sift query --output json/jsonl` writes objects straight to JSON text (``ObjectJSONWriter``):
/// byte for byte what the object's dictionary (``ObjectOutput/value(of:model:)``) writes.
@Suite struct ObjectJSONWriterTests {
    static func expectSameText(_ store: any PersistentStore, _ statement: String, _ detail: RelationshipDetail) throws {
        let output = ObjectOutput(relationships: detail)
        var request = try FetchRequest(statement: statement)
        request.fetchBatchSize = 3
        try output.prepare(&request, model: store.model)
        let writer = try #require(ObjectJSONWriter(output, model: store.model))
        var count = 0
        for object in try store.fetch(request) {
            var direct: [UInt8] = []
            writer.write(object, to: &direct)
            var expected: [UInt8] = []
            JSONWriter.write(output.value(of: object, model: store.model), to: &expected)
            #expect(String(decoding: direct, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(statement) (\(detail))")
            count += 1
        }
        #expect(count > 0, "\(statement)")
    }

    /// Every entity of the example store (to-one and to-many relationships, subentities).
    @Test(arguments: RelationshipDetail.allCases)
    func exampleStoreObjects(_ detail: RelationshipDetail) throws {
        let store = try ExampleStores.open("example")
        for entity in store.model.entities {
            try Self.expectSameText(store, entity.name, detail)
        }
    }

    /// Values whose text needs care: escapes, control characters, non-ASCII, the
    /// infinities ($double), -0.0, dates, decimals, data, UUIDs, nil; IDs that need escaping.
    @Test func awkwardValuesAndNames() throws {
        let model = try JSONModelFormat.read(Data(#"""
        {"entities": [{"name": "Odd", "attributes": [
          {"name": "text", "type": "String"}, {"name": "real", "type": "Double"},
          {"name": "when", "type": "Date"}, {"name": "amount", "type": "Decimal"},
          {"name": "blob", "type": "Binary"}, {"name": "uuid", "type": "UUID"},
          {"name": "flag", "type": "Boolean"}, {"name": "n", "type": "Integer 64"}]}]}
        """#.utf8))
        let store = try SQLiteStore.inMemory(model: model)
        let texts = ["", "a\"b\\c", "line\nbreak\ttab\u{1}\u{1F}", "é ß 𝄞 \u{7F}", "</script>"]
        let doubles = [-0.0, .infinity, -.infinity, 1e300, 0.1, .leastNonzeroMagnitude]
        for (i, text) in texts.enumerated() {
            try store.insert("Odd", id: ObjectID("o\"\(i)\n\u{2}"), [
                "text": .string(text), "real": .double(doubles[i % doubles.count]),
                "when": .date(Date(timeIntervalSinceReferenceDate: Double(i) * 1234.5678)),
                "amount": .decimal(Decimal(string: "12345678901234567890.\(i)") ?? 0),
                "blob": .data(Data([0, 1, UInt8(i)])), "uuid": .uuid(UUID()),
                "flag": .bool(i % 2 == 0), "n": .int(Int64.min + Int64(i)),
            ])
        }
        try store.insert("Odd", id: ObjectID("empty"), [:])
        try store.save()
        for detail in RelationshipDetail.allCases { try Self.expectSameText(store, "Odd", detail) }
    }

    /// With `--properties`, objects are written through their dictionaries.
    @Test func chosenPropertiesHaveNoDirectWriter() throws {
        let store = try ExampleStores.open("example")
        #expect(ObjectJSONWriter(ObjectOutput(properties: ["title"]), model: store.model) == nil)
    }
}
