import CoreDataFixtures
import Foundation
import PostgreSQLTestSupport
import Testing

/// `sift import --store TARGET --from SOURCE` through the binary: a whole store moved between
/// kinds (JSON, SQLite, a Core Data store with --model, PostgreSQL), one summary line, a target
/// of another model refused naming the difference, and usage errors.
@Suite struct StoreCopyCommandTests {
    static let notes = ExamplesTests.packageRoot.appendingPathComponent("Examples/Notes")

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-copy-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The objects of `entity` as JSON Lines with their relationships' IDs, sorted.
    static func objects(_ store: String, _ entity: String) throws -> [String] {
        let result = try SiftBinary.run("query", "--store", store, entity, "--relationships", "ids", "--output", "jsonl")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test func jsonToSQLiteToJSON() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("notes.json").path
        let made = try SiftBinary.run("import", "--store", json, "--model", Self.notes.appendingPathComponent("model.json").path,
                                      Self.notes.appendingPathComponent("data.json").path)
        #expect(made.status == 0, "\(made.stderr)")
        let sqlite = directory.appendingPathComponent("notes.sqlite").path
        let copied = try SiftBinary.run("import", "--store", sqlite, "--from", json)
        #expect(copied.status == 0 && copied.stderr.isEmpty, "\(copied.stderr)")
        #expect(copied.stdout == "\(json): imported 11 objects (Note 5, Category 3, Tag 3)\n")
        let back = directory.appendingPathComponent("back.json").path
        let again = try SiftBinary.run("import", "--store", back, "--from", sqlite)
        #expect(again.status == 0, "\(again.stderr)")
        for entity in ["Note", "Category", "Tag"] {
            let expected = try Self.objects(json, entity)
            #expect(!expected.isEmpty)
            #expect(try Self.objects(sqlite, entity) == expected)
            #expect(try Self.objects(back, entity) == expected)
        }
        // Into an existing store of the same model: the same objects once more would take IDs
        // it has, and the store is left as it was.
        let twice = try SiftBinary.run("import", "--store", back, "--from", sqlite)
        #expect(twice.status == 1)
        #expect(twice.stderr.hasPrefix("error: \(sqlite): "), "\(twice.stderr)")
        #expect(twice.stderr.hasSuffix("; \(back) was left as it was\n"), "\(twice.stderr)")
        #expect(try Self.objects(back, "Note") == Self.objects(json, "Note"))
    }

    /// A Core Data store (its model from --model) into Sift's SQLite layout.
    @Test func coreDataStoreWithItsModelFile() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = CoreDataFixtures.url("Recipes.sqlite").path
        let target = directory.appendingPathComponent("recipes.sqlite").path
        let copied = try SiftBinary.run("import", "--store", target, "--from", source, "--model", CoreDataFixtures.url("Recipes.xcdatamodel").path)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.hasPrefix("\(source): imported "), "\(copied.stdout)")
        for entity in ["Recipe", "Ingredient"] {
            let expected = try SiftBinary.run("query", "--store", source, "--model", CoreDataFixtures.url("Recipes.xcdatamodel").path,
                                              "\(entity)", "--relationships", "ids", "--output", "jsonl")
            #expect(expected.status == 0, "\(expected.stderr)")
            #expect(!expected.stdout.isEmpty)
            #expect(try Self.objects(target, entity) == expected.stdout.split(separator: "\n").map(String.init).sorted())
        }
    }

    @Test func aTargetOfAnotherModelIsRefusedNamingTheDifference() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = CoreDataFixtures.url("Accounts3.sqlite").path
        let target = directory.appendingPathComponent("notes.sqlite").path
        let made = try SiftBinary.run("import", "--store", target, "--model", Self.notes.appendingPathComponent("model.json").path,
                                      Self.notes.appendingPathComponent("data.json").path)
        #expect(made.status == 0, "\(made.stderr)")
        let refused = try SiftBinary.run("import", "--store", target, "--from", source)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: \(source): the target's model does not hold the source's: the target's model has no entity "), "\(refused.stderr)")
        #expect(try Self.objects(target, "Note").count == 5)
    }

    @Test func usageErrors() throws {
        let data = Self.notes.appendingPathComponent("data.json").path
        let withData = try SiftBinary.run("import", "--store", "x.sqlite", "--from", "y.json", data)
        #expect(withData.status == 64)
        #expect(withData.stderr.contains("--from copies a whole store and takes no data files"), "\(withData.stderr)")
        let withEntity = try SiftBinary.run("import", "--store", "x.sqlite", "--from", "y.json", "--entity", "Note")
        #expect(withEntity.status == 64)
        #expect(withEntity.stderr.contains("--entity is for data files"), "\(withEntity.stderr)")
        let same = try SiftBinary.run("import", "--store", "x.sqlite", "--from", "./x.sqlite")
        #expect(same.status == 64)
        #expect(same.stderr.contains("--from and --store name the same store"), "\(same.stderr)")
        let missing = try SiftBinary.run("import", "--store", "x.sqlite", "--from", "/nonexistent/y.json")
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: no store at /nonexistent/y.json"), "\(missing.stderr)")
    }

    @Test func intoPostgreSQL() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("cli-copy")
        defer { database.drop() }
        let conninfo = database.serverConninfo + " dbname=\(database.name)"
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("notes.json").path
        _ = try SiftBinary.run("import", "--store", json, "--model", Self.notes.appendingPathComponent("model.json").path,
                               Self.notes.appendingPathComponent("data.json").path)
        let copied = try SiftBinary.run("import", "--store", conninfo, "--from", json)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout == "\(json): imported 11 objects (Note 5, Category 3, Tag 3)\n")
        for entity in ["Note", "Category", "Tag"] {
            #expect(try Self.objects(conninfo, entity) == Self.objects(json, entity))
        }
    }
}
