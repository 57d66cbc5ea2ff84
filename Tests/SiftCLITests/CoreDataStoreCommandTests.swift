import CoreDataFixtures
import Foundation
import SiftSQLite
import Testing

/// Core Data's stores through the binary (issue 32): `sift query`, `sql` and `schema` open
/// them by their content, say where the model came from, warn when it was guessed, take
/// `--model`, and leave every file as it was; `sift update`, `delete` and `import` change copies
/// as Core Data would.
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

    /// `sift schema FILE`, as `sqlite3 FILE .schema`: a store, or a model folder or compiled
    /// model by its extension; with --store or --model as well, a usage error.
    @Test func schemaTakesTheFileAsItsArgument() throws {
        let byOption = try SiftBinary.run("schema", "--store", Self.path("NoteStore.sqlite"))
        let byArgument = try SiftBinary.run("schema", Self.path("NoteStore.sqlite"))
        #expect(byArgument.status == 0 && byArgument.stdout == byOption.stdout, "\(byArgument.stderr)")
        let model = try SiftBinary.run("schema", Self.path("Recipes.xcdatamodel"))
        #expect(model.status == 0, "\(model.stderr)")
        #expect(model.stdout == (try SiftBinary.run("schema", "--model", Self.path("Recipes.xcdatamodel"))).stdout)
        #expect(model.stdout.contains("Recipe\n"), "\(model.stdout)")
        let both = try SiftBinary.run("schema", Self.path("NoteStore.sqlite"), "--store", Self.path("Recipes.sqlite"))
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.status) \(both.stderr)")
        let twoModels = try SiftBinary.run("schema", Self.path("Recipes.xcdatamodel"), "--model", Self.path("Recipes.xcdatamodel"))
        #expect(twoModels.status == 64, "\(twoModels.stderr)")
        // A store file with its model, as --store with --model.
        let withModel = try SiftBinary.run("schema", Self.path("Recipes.sqlite"), "--model", Self.path("Recipes.xcdatamodel"))
        #expect(withModel.status == 0, "\(withModel.stderr)")
        #expect(withModel.stdout == (try SiftBinary.run("schema", "--store", Self.path("Recipes.sqlite"), "--model", Self.path("Recipes.xcdatamodel"))).stdout)
        #expect(withModel.stdout.contains("ingredients"), "\(withModel.stdout)")
        let neither = try SiftBinary.run("schema")
        #expect(neither.status == 64 && neither.stderr.contains("sift schema FILE"), "\(neither.stderr)")
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

    /// A copy of the fixture `name` in a directory of its own.
    static func copy(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: CoreDataFixtures.url(name), to: url)
        return url
    }

    static func rows(_ url: URL, _ sql: String) throws -> [[SQLiteValue]] {
        try SQLiteDatabase(path: url.path, options: [.readOnly]).rows(sql)
    }

    /// `sift update` and `sift delete` change a copy as Core Data would: the rows, their Z_OPT,
    /// the foreign keys and join-table rows; Z_METADATA and Z_MODELCACHE stay as they were.
    @Test func updateAndDeleteChangeACopy() throws {
        let url = try Self.copy("NoteStore.sqlite")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let bookkeeping = "SELECT (SELECT Z_PLIST FROM Z_METADATA), (SELECT Z_UUID FROM Z_METADATA), (SELECT Z_CONTENT FROM Z_MODELCACHE)"
        let metadata = try Self.rows(url, bookkeeping)
        let before = try Self.rows(url, "SELECT Z_PK, Z_OPT FROM ZICCLOUDSYNCINGOBJECT WHERE Z_ENT = 14 ORDER BY Z_PK")
        let update = try SiftBinary.run("update", "--store", url.path, "ICFolder SET title = 'Renamed'")
        // NoteStore keeps persistent history, which Sift does not write: said after the change.
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stderr == "warning: the store keeps Core Data's persistent history (ATRANSACTION, ACHANGE), which Sift does not write: "
                 + "an app that follows the history (CloudKit sync, widgets, extensions) will not see this change\n", "\(update.stderr)")
        #expect(update.stdout == "updated \(before.count) objects\n")
        let after = try Self.rows(url, "SELECT Z_PK, Z_OPT, ZTITLE2 FROM ZICCLOUDSYNCINGOBJECT WHERE Z_ENT = 14 ORDER BY Z_PK")
        #expect(after == before.map { row in
            guard case .integer(let version) = row[1] else { return row }
            return [row[0], .integer(version + 1), .text("Renamed")]
        }, "\(after)")
        let query = try SiftBinary.run("query", "--store", url.path, "COUNT ICFolder WHERE title == 'Renamed'")
        #expect(query.stdout == "{\"count\": \(before.count)}\n", "\(query.stderr)")

        let notes = try Self.rows(url, "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT WHERE Z_ENT = 11")
        let delete = try SiftBinary.run("delete", "--store", url.path, "ICNote WHERE title CONTAINS 'Note'")
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(delete.stdout.hasPrefix("deleted "), "\(delete.stdout)")
        #expect(try Self.rows(url, "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT WHERE Z_ENT = 11 AND ZTITLE1 LIKE '%Note%'") == [[.integer(0)]])
        #expect(try Self.rows(url, "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT WHERE Z_ENT = 11") != notes)
        #expect(try Self.rows(url, bookkeeping) == metadata)
        #expect(try Self.rows(url, "PRAGMA integrity_check") == [[.text("ok")]])
    }

    /// A store without a model cache refuses changes, saying to give --model, and stays as it
    /// was; with --model, the change is made.
    @Test func aStoreWithoutItsModelIsChangedOnlyWithModel() throws {
        let url = try Self.copy("Recipes.sqlite")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let before = try CoreDataFixtures.checksum(url)
        let refused = try SiftBinary.run("update", "--store", url.path, "Recipe SET name = 'x'")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Recipes.sqlite is a Core Data store without a model"), "\(refused.stderr)")
        #expect(refused.stderr.contains("give it with --model"), "\(refused.stderr)")
        let deleteRefused = try SiftBinary.run("delete", "--store", url.path, "Recipe")
        #expect(deleteRefused.status == 1)
        #expect(try CoreDataFixtures.checksum(url) == before)
        let model = CoreDataFixtures.url("Recipes.xcdatamodel").path
        let update = try SiftBinary.run("update", "--store", url.path, "--model", model, "Recipe SET name = 'Gâteau' WHERE name == 'Chocolate Cake'")
        #expect(update.status == 0 && update.stdout == "updated 1 object\n", "\(update.stdout)\(update.stderr)")
        #expect(!update.stderr.contains("persistent history"), "\(update.stderr)")
        #expect(try Self.rows(url, "SELECT count(*) FROM ZRECIPE WHERE ZNAME = 'Gâteau'") == [[.integer(1)]])
        // An import with the model: new rows after Z_MAX.
        let data = url.deletingLastPathComponent().appendingPathComponent("types.json")
        try Data(#"{"RecipeType": [{"name": "Stew"}]}"#.utf8).write(to: data)
        let zMax = try Self.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'RecipeType'")
        let imported = try SiftBinary.run("import", "--store", url.path, "--model", model, data.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        guard case .integer(let largest)? = zMax.first?.first else { return }
        #expect(try Self.rows(url, "SELECT Z_PK, Z_ENT, Z_OPT FROM ZRECIPETYPE WHERE ZNAME = 'Stew'") == [[.integer(largest + 1), .integer(4), .integer(1)]])
        #expect(try Self.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'RecipeType'") == [[.integer(largest + 1)]])
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

        // With data: the file's IDs name objects for its relationships; the store gives its own.
        let data = directory.appendingPathComponent("recipes.json")
        try Data(#"""
            {"RecipeType": [{"@id": "T1", "name": "Dessert"}],
             "Recipe": [{"@id": "R1", "name": "Pie", "type": "T1", "ingredients": ["I1", "I2"]}],
             "Ingredient": [{"@id": "I1", "name": "Sugar"}, {"@id": "I2", "name": "Flour"}]}
            """#.utf8).write(to: data)
        let filled = directory.appendingPathComponent("filled.sqlite").path
        let imported = try SiftBinary.run("import", "--store", filled, "--layout", "coredata", "--model", model, data.path)
        #expect(imported.status == 0 && imported.stdout.hasSuffix("recipes.json: imported 4 objects (RecipeType 1, Recipe 1, Ingredient 2)\n"), "\(imported.stderr)")
        let pie = try SiftBinary.run("query", "--store", filled, "Recipe WHERE ANY ingredients.name CONTAINS[c] 'sugar' AND type.name == 'Dessert'",
                                     "--properties", "name", "--output", "csv")
        #expect(pie.stdout.hasSuffix(",Pie\r\n") && pie.stdout.contains("x-coredata://") && pie.stdout.contains("/Recipe/p1"), "\(pie.stdout) \(pie.stderr)")
        let keys = try SiftBinary.run("sql", "--store", filled, "COUNT Ingredient WHERE recipe.name == 'Pie'")
        #expect(keys.stdout.contains("\"ZINGREDIENT\""), "\(keys.stdout)")
        let twice = directory.appendingPathComponent("twice.json")
        try Data(#"{"RecipeType": [{"@id": "T1", "name": "A"}, {"@id": "T1", "name": "B"}]}"#.utf8).write(to: twice)
        let refused = try SiftBinary.run("import", "--store", directory.appendingPathComponent("twice.sqlite").path, "--layout", "coredata", "--model", model, twice.path)
        #expect(refused.status == 1 && refused.stderr.contains("another object of the data has this ID"), "\(refused.stderr)")

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
