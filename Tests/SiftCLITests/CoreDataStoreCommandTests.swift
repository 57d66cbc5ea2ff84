import CoreDataFixtures
import Foundation
import Testing

/// Core Data's stores through the binary (issue 32): `sift query`, `sql` and `schema` open
/// them by their content, say where the model came from, warn when it was guessed, refuse
/// changes, take `--model`, and leave every file as it was.
@Suite struct CoreDataStoreCommandTests {
    static func path(_ name: String) -> String { CoreDataFixtures.url(name).path }

    @Test func queryCountsWhatTheTablesHold() throws {
        let count = try SiftBinary.run("query", "--store", Self.path("NoteStore.sqlite"), "COUNT ICNoteContainer")
        #expect(count.status == 0 && count.stderr.isEmpty, "\(count.stderr)")
        #expect(count.stdout == "{\"count\": 4}\n")
        let notes = try SiftBinary.run("query", "--store", Self.path("NoteStore.sqlite"),
                                       "ICNote WHERE folder.title == 'Notes' AND title CONTAINS[cd] 'NOTE' SORT BY title", "--properties", "title",
                                       "--output", "csv")
        #expect(notes.status == 0, "\(notes.stderr)")
        #expect(notes.stdout.hasPrefix("@entity,@id,title\r\n"), "\(notes.stdout)")
        #expect(notes.stdout.contains("iOS 14 Note"))
        let sql = try SiftBinary.run("sql", "--store", Self.path("Accounts3.sqlite"), "Dataclass WHERE ANY enabledAccounts.username != nil")
        #expect(sql.status == 0, "\(sql.stderr)")
        #expect(sql.stdout.contains("\"Z_2ENABLEDDATACLASSES\""), "\(sql.stdout)")
    }

    @Test func schemaSaysTheLayoutAndWhereTheModelCameFrom() throws {
        let cached = try SiftBinary.run("schema", "--store", Self.path("NoteStore.sqlite"))
        #expect(cached.status == 0 && cached.stderr.isEmpty, "\(cached.stderr)")
        #expect(cached.stdout.hasPrefix("-- Core Data's layout; the model from the store's model cache (Z_MODELCACHE)\nICAccount : ICNoteContainer\n"))
        let guessed = try SiftBinary.run("schema", "--store", Self.path("Recipes.sqlite"))
        #expect(guessed.status == 0)
        #expect(guessed.stdout.hasPrefix("-- Core Data's layout; no model in the store"))
        #expect(guessed.stderr.hasPrefix("warning: Recipes.sqlite: the store holds no model"), "\(guessed.stderr)")
        // --json prints the model alone.
        let json = try SiftBinary.run("schema", "--store", Self.path("NoteStore.sqlite"), "--json")
        #expect(json.stdout.hasPrefix("{"))
    }

    /// `--model` opens a store with a model of one's own, which must fit it; it is a usage error
    /// with another kind of store.
    @Test func aModelFileMustFitTheStore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let own = directory.appendingPathComponent("netusage.json"), other = directory.appendingPathComponent("datausage.json")
        try Data(try SiftBinary.run("schema", "--store", Self.path("netusage.sqlite"), "--json").stdout.utf8).write(to: own)
        try Data(try SiftBinary.run("schema", "--store", Self.path("DataUsage.sqlite"), "--json").stdout.utf8).write(to: other)
        let fits = try SiftBinary.run("query", "--store", Self.path("netusage.sqlite"), "--model", own.path, "COUNT Process")
        #expect(fits.status == 0 && fits.stdout == "{\"count\": 260}\n", "\(fits.stderr)")
        let script = try SiftBinary.run(arguments: ["run", "-", "--store", Self.path("netusage.sqlite"), "--model", own.path, "--output", "csv"],
                                        stdin: "COUNT Process\n")
        #expect(script.status == 0 && script.stdout.contains("260"), "\(script.stdout)\(script.stderr)")
        let repl = try SiftBinary.run(arguments: ["repl", "--store", Self.path("netusage.sqlite"), "--model", other.path], stdin: "COUNT Process\n")
        #expect(repl.status == 1 && repl.stderr.contains("incompatible with the store"), "\(repl.stderr)")
        let schema = try SiftBinary.run("schema", "--store", Self.path("netusage.sqlite"), "--model", own.path)
        #expect(schema.stdout.hasPrefix("-- Core Data's layout; the model from \(own.path)\n"))
        let misfit = try SiftBinary.run("query", "--store", Self.path("netusage.sqlite"), "--model", other.path, "COUNT Process")
        #expect(misfit.status == 1)
        #expect(misfit.stderr.hasPrefix("error: the model used to open netusage.sqlite is incompatible with the store: "), "\(misfit.stderr)")
        let json = directory.appendingPathComponent("notes.json")
        try Data(#"{"sift":"store","version":1,"model":{"entities":[{"name":"Note","attributes":[{"name":"title","type":"String"}]}]},"objects":[]}"#.utf8).write(to: json)
        let notCoreData = try SiftBinary.run("query", "--store", json.path, "--model", own.path, "COUNT Note")
        #expect(notCoreData.status == 64)
        #expect(notCoreData.stderr.contains("--model is for a Core Data store"), "\(notCoreData.stderr)")
    }

    /// A change is refused, saying why, and the file stays as it was.
    @Test func changesAreRefusedAndNothingChanges() throws {
        let path = Self.path("NoteStore.sqlite")
        let before = try CoreDataFixtures.checksum(URL(fileURLWithPath: path))
        let update = try SiftBinary.run("update", "--store", path, "ICNote SET title = 'x'")
        #expect(update.status == 1)
        #expect(update.stderr.contains("NoteStore.sqlite is a Core Data store; it can be queried but not changed"), "\(update.stderr)")
        let delete = try SiftBinary.run("delete", "--store", path, "ICNote")
        #expect(delete.status == 1)
        #expect(try CoreDataFixtures.checksum(URL(fileURLWithPath: path)) == before)
    }

    /// `sift import --layout coredata` makes a store in Core Data's layout from a model file,
    /// which then opens with that model; the option is for new SQLite stores only.
    @Test func importMakesAStoreInCoreDatasLayout() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-create-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("Recipes.sqlite").path
        let model = Self.path("Recipes.xcdatamodel")
        let made = try SiftBinary.run("import", "--store", store, "--layout", "coredata", "--model", model)
        #expect(made.status == 0, "\(made.stderr)")
        let schema = try SiftBinary.run("schema", "--store", store)
        #expect(schema.status == 0 && schema.stderr.isEmpty, "\(schema.stderr)")
        #expect(schema.stdout.hasPrefix("-- Core Data's layout; the model Sift wrote into the store's metadata (Z_METADATA)\nImage\n"), "\(schema.stdout)")
        let count = try SiftBinary.run("query", "--store", store, "COUNT Recipe")
        #expect(count.stdout == "{\"count\": 0}\n", "\(count.stderr)")

        let again = try SiftBinary.run("import", "--store", store, "--layout", "coredata", "--model", model)
        #expect(again.status == 1 && again.stderr.contains("--layout chooses the layout of a new store"), "\(again.stderr)")
        let json = try SiftBinary.run("import", "--store", directory.appendingPathComponent("r.json").path, "--layout", "coredata", "--model", model)
        #expect(json.status == 64 && json.stderr.contains("--layout coredata makes a SQLite store"), "\(json.stderr)")
        let unknown = try SiftBinary.run("import", "--store", store + "2", "--layout", "core-data", "--model", model)
        #expect(unknown.status == 64 && unknown.stderr.contains("--layout takes sift or coredata"), "\(unknown.stderr)")
    }

    /// The model `sift schema --json` prints for a store with persistent history lists the
    /// history's entities too; given back with `--model`, it opens the store.
    @Test func aPrintedModelWithHistoryEntitiesOpensItsStore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("notes.json")
        try Data(try SiftBinary.run("schema", "--store", Self.path("NoteStore.sqlite"), "--json").stdout.utf8).write(to: model)
        let changes = try SiftBinary.run("query", "--store", Self.path("NoteStore.sqlite"), "--model", model.path, "COUNT CHANGE")
        #expect(changes.status == 0 && changes.stdout == "{\"count\": 298}\n", "\(changes.stderr)")
    }
}
