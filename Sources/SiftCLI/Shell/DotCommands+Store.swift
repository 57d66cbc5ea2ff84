import Foundation
import Sift

/// The store and its model: `.open`, `.entities`, `.schema`, `.use`.
extension DotCommands {
    static let storeCommands: [DotCommand] = [
        DotCommand(
            name: "open", usage: ".open FILE", summary: "Open a store (.sqlite, .db, .json, .plist) and close the one open",
            details: "The kind follows the extension. Any SQLite database opens; one Sift did not create is read into a model from its tables and can be queried, not changed.",
            example: ".open Examples/notes.sqlite"
        ) { session, words in
            guard words.count == 1 else { throw usage("open") }
            session.open(store: try SessionStores.open(words[0]), label: words[0])
            session.output.message("opened \(words[0]): \(session.store?.model.entities.count ?? 0) entities (.entities lists them)")
        },
        DotCommand(
            name: "entities", usage: ".entities", summary: "List the entities of the open store's model, with their object counts",
            example: ".entities"
        ) { session, words in
            guard words.isEmpty else { throw usage("entities") }
            let store = try session.requireStore()
            for entity in store.model.entities {
                var line = entity.name
                if let parent = entity.parent { line += " : \(parent)" }
                if entity.isAbstract {
                    line += " (abstract)"
                } else {
                    let count = try store.count(FetchRequest(entityName: entity.name))
                    line += "  \(count) object\(count == 1 ? "" : "s")"
                }
                session.output.write(line + "\n")
            }
        },
        DotCommand(
            name: "schema", usage: ".schema [ENTITY]", summary: "Show the model: attributes, types, relationships, indexes",
            example: ".schema Note"
        ) { session, words in
            guard words.count <= 1 else { throw usage("schema") }
            let model = try session.requireStore().model
            if let name = words.first {
                let entity = try model.requireEntity(name)
                session.output.write(SchemaText.describe(model, only: entity.name))
            } else {
                session.output.write(SchemaText.describe(model))
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
            let entity = try session.requireStore().model.requireEntity(name)
            session.entity = entity.name
        },
    ]
}

/// Opening stores by file name, as `.open` and `sift STORE` do.
enum SessionStores {
    static func open(_ path: String) throws -> any PersistentStore {
        guard FileManager.default.fileExists(atPath: path) else { throw SessionError("no store at \(path)") }
        let url = URL(fileURLWithPath: path)
        switch StoreFile.Kind(path: path) {
        case .sqlite: return try SQLiteStore.open(at: url)
        case .atomic: return try AtomicStore.open(at: url)
        }
    }
}
