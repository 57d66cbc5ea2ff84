import Foundation
import Sift

/// The store and its model: `.open`, `.entities`, `.tables`, `.indexes`, `.schema`, `.use`.
extension DotCommands {
    static let storeCommands: [DotCommand] = [
        DotCommand(
            name: "open", usage: ".open [--read-only] FILE", summary: "Open a store (.sqlite, .db, .json, .plist, or an example) and close the one open",
            details: "The kind follows the extension. Any SQLite database opens; one Sift did not create is read into a model from its tables, to query and to change in its own layout (docs/SQLITE-DATABASES.md). --read-only (or sqlite3's --readonly) opens it to query only: every change is refused and a SQLite file is never written. The seed apps are built in (changes to them last until the session ends): example is the default one sift opens (the apps whose names do not collide), example:NAME one app; .open example: lists them: " + ExampleApp.embedded.map { "example:" + $0.name }.joined(separator: ", ") + ".",
            example: ".open example:Movies"
        ) { session, words in
            let readOnly = words.count == 2 && ["--read-only", "--readonly"].contains(words[0])
            let words = readOnly ? Array(words.dropFirst()) : words
            guard words.count == 1 else { throw usage("open") }
            if words[0] == ExampleStores.prefix + ":" {
                session.output.write(ExampleStores.listing())
                return
            }
            let label = ExampleStores.canonicalName(words[0])
            session.open(store: try SessionStores.open(words[0], readOnly: readOnly), label: label, readOnly: readOnly)
            session.commandState.engineCopy.invalidate()
            let count = session.store.map { StoreModels.outline(of: $0).entities.count } ?? 0
            let access = session.isReadOnly || StoreModels.refusesChanges(session.store) ? " read-only" : ""
            session.output.message("opened \(label)\(access): \(count) entit\(count == 1 ? "y" : "ies") (.entities lists them)")
        },
        DotCommand(
            name: "entities", usage: ".entities", summary: "List the entities of the open store's model, with their object counts",
            example: ".entities"
        ) { session, words in
            guard words.isEmpty else { throw usage("entities") }
            let store = try session.requireStore()
            var rows: [(String, String)] = []
            for entity in StoreModels.outline(of: store).entities {
                var name = entity.name
                if let parent = entity.parent { name += " : \(parent)" }
                if entity.isAbstract {
                    rows.append((name, "(abstract)"))
                } else {
                    let count = try store.count(FetchRequest(entityName: entity.name))
                    rows.append((name, "\(count) object\(count == 1 ? "" : "s")"))
                }
            }
            let width = rows.map(\.0.count).max() ?? 0
            for (name, count) in rows {
                session.output.write(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + count + "\n")
            }
        },
        DotCommand(
            name: "tables", usage: ".tables [PATTERN]", summary: "List the entities (a database's tables) in columns, as sqlite3 lists tables",
            details: "The names of the entities, sorted and laid out in columns as sqlite3's .tables prints them; with a PATTERN, only the names it matches as SQL's LIKE does ('%' any characters, '_' one, letters in either case). On a database Sift did not create, each of its tables is an entity named after it (views, virtual and WITHOUT ROWID tables are not read). .entities lists them with their object counts.",
            example: ".tables Inv%"
        ) { session, words in
            guard words.count <= 1 else { throw usage("tables") }
            let names = try session.requireStore().model.entities.map(\.name).filter { name in
                words.first.map { NameColumns.matches(name, like: $0) } ?? true
            }
            for line in NameColumns.lines(names) { session.output.write(line + "\n") }
        },
        DotCommand(
            name: "indexes", aliases: ["indices"], usage: ".indexes [TABLE]", summary: "List the database's indexes in columns, as sqlite3 lists them",
            details: "The names of the indexes of a database Sift did not create, sorted and laid out in columns as sqlite3's .indexes prints them (those SQLite made for a PRIMARY KEY or UNIQUE constraint included, as sqlite_autoindex_…); with a TABLE, only the indexes of the tables whose names it matches as SQL's LIKE does. .describe ENTITY shows an entity's indexes with their columns. A store Sift made declares its indexes in its model: .describe lists them.",
            example: ".indexes Invoice"
        ) { session, words in
            guard words.count <= 1 else { throw usage("indexes") }
            let store = try session.requireStore()
            guard let catalog = try store.databaseCatalog() else {
                session.output.message("note: \(session.storeLabel) is a store Sift made: its model declares its indexes (.describe ENTITY lists them)")
                return
            }
            let names = catalog.indexes.filter { index in words.first.map { NameColumns.matches(index.table, like: $0) } ?? true }.map(\.name)
            for line in NameColumns.lines(names) { session.output.write(line + "\n") }
        },
        DotCommand(
            name: "schema", usage: ".schema [ENTITY]", summary: "Show the model: attributes, types, relationships, indexes",
            example: ".schema Note"
        ) { session, words in
            guard words.count <= 1 else { throw usage("schema") }
            let store = try session.requireStore()
            if let name = words.first {
                // Only that entity's table is read.
                let entity = try StoreModels.outline(of: store).requireEntity(name)
                let model = StoreModels.model(of: store, reading: [entity.name])
                session.output.write(SchemaText.describe(model, only: entity.name, reasons: SchemaText.typeReasons(of: store, only: entity.name),
                                                         notes: SchemaText.samplingNotes(of: store)))
            } else {
                let model = store.model
                session.output.write(SchemaText.describe(model, reasons: SchemaText.typeReasons(of: store), notes: SchemaText.samplingNotes(of: store)))
            }
        },
        DotCommand(
            name: "use", usage: ".use [ENTITY]", summary: "Fetch ENTITY with bare predicates (.use alone: statements only)",
            details: "After .use Note, a line that is not a statement is a predicate on Note: title BEGINSWITH[cd] \"my\". The prompt shows the entity.",
            example: ".use Note"
        ) { session, words in
            guard words.count <= 1 else { throw usage("use") }
            guard let name = words.first else {
                session.entity = nil
                return
            }
            let entity = try StoreModels.outline(of: session.requireStore()).requireEntity(name)
            session.entity = entity.name
        },
    ]
}

/// Opening stores by name, as `.open` and `sift STORE` do: a file (the kind follows the
/// extension) or a bundled example store (`example`, `example:NAME`).
enum SessionStores {
    static func open(_ path: String, readOnly: Bool = false) throws -> any PersistentStore {
        if ExampleStores.isExampleName(path) { return try ExampleStores.open(path) }
        if StoreFile.Kind(path: path) == .postgres { return try PostgreSQLStore.open(conninfo: path) }
        guard FileManager.default.fileExists(atPath: path) else {
            throw SessionError("no store at \(path)" + suggestion(for: path))
        }
        let url = URL(fileURLWithPath: path)
        switch StoreFile.Kind(path: path) {
        case .sqlite:
            let store = try SQLiteStore.open(at: url, readOnly: readOnly, typeCache: StoreFile.typeCache)
            StoreFile.printOpeningWarnings(store, path)
            return store
        case .atomic: return try AtomicStore.open(at: url)
        case .postgres: return try PostgreSQLStore.open(conninfo: path)
        }
    }

    /// `; did you mean 'notes.sqlite'?` for a file name one letter off one in its directory.
    static func suggestion(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path),
              let closest = Suggestions.closest(to: url.lastPathComponent, in: names) else { return "" }
        let shown = path.contains("/") ? (path as NSString).deletingLastPathComponent + "/" + closest : closest
        return "; did you mean '\(shown)'?"
    }
}
