import Foundation
import Sift

/// A seed app of the Core Data books (Examples/<App>/): its model and data as JSON text, embedded
/// in the binary by scripts/embed-examples (ExampleApps+Embedded.swift).
struct ExampleApp: Sendable {
    let name: String
    /// Examples/<App>/model.json: the model in Sift's JSON model format.
    let model: String
    /// Examples/<App>/data.json: the objects, as `sift import` reads them.
    let data: String
}

/// The bundled example stores, which open from any directory and from an installed binary:
/// the seed apps built into an in-memory SQLite store when opened (a few milliseconds).
/// Changes to one last as long as the session.
///
/// - `example` is the default, which `sift` alone opens: the seed apps whose entity names and
///   object IDs do not collide, together (``defaultApps``).
/// - `example:NAME` is one app (`example:MustC`, `example:Movies`); `.open example:` lists them.
///
/// Movie is an entity of Movies, MustC and VideoItems; HouseholdTasks' tasks are T1…T5 and a
/// NestedItems item is C1, as are Notes' tags and a category; so those apps open on their own.
enum ExampleStores {
    static let prefix = "example"

    /// The apps the default example store combines, in this order.
    static let defaultApps = ["Notes", "Movies", "Albums", "PointsOfInterest", "TaterRater", "ToDoItem"]

    /// Whether a store name names an example store (`example`, `example:NAME`), not a file.
    static func isExampleName(_ name: String) -> Bool {
        name == prefix || name.hasPrefix(prefix + ":")
    }

    /// The example store a name names, built in memory.
    static func open(_ name: String) throws -> SQLiteStore {
        guard name != prefix else { return try build(defaultApps.compactMap(exactApp(named:)), name: prefix) }
        let appName = String(name.dropFirst(prefix.count + 1))
        guard !appName.isEmpty else {
            throw SessionError("name an example app: \(ExampleApp.embedded.map { "\(prefix):\($0.name)" }.joined(separator: ", ")), or \(prefix) for the default")
        }
        guard let app = app(named: appName) else {
            var message = "no example app '\(appName)'"
            if let suggestion = Suggestions.closest(to: appName, in: ExampleApp.embedded.map(\.name)) {
                message += "; did you mean '\(prefix):\(suggestion)'?"
            } else {
                message += " (\(ExampleApp.embedded.map(\.name).joined(separator: ", ")))"
            }
            throw SessionError(message)
        }
        return try build([app], name: app.name)
    }

    /// An example store's name as the listing spells it (`example:movies` is `example:Movies`).
    static func canonicalName(_ name: String) -> String {
        guard name.hasPrefix(prefix + ":"), let app = app(named: String(name.dropFirst(prefix.count + 1))) else { return name }
        return "\(prefix):\(app.name)"
    }

    /// The app of that name, or of that name in other letter case.
    static func app(named name: String) -> ExampleApp? {
        ExampleApp.embedded.first { $0.name == name } ?? ExampleApp.embedded.first { $0.name.lowercased() == name.lowercased() }
    }

    private static func exactApp(named name: String) -> ExampleApp? {
        ExampleApp.embedded.first { $0.name == name }
    }

    /// One SQLite store in memory holding the apps' entities and objects, imported in order.
    static func build(_ apps: [ExampleApp], name: String) throws -> SQLiteStore {
        let models = try apps.map { try JSONModelFormat.read(Data($0.model.utf8), name: $0.name) }
        let model = models.count == 1 ? models[0] : try DataModel(name: name, entities: models.flatMap(\.entities))
        let store = try SQLiteStore.inMemory(model: model)
        for app in apps {
            do throws(StoreError) {
                try StoreImporter.importJSON(Data(app.data.utf8), into: store)
            } catch {
                throw error.prefixed("example app \(app.name): ")
            }
        }
        return store
    }

    /// The example stores, one a line, with the entities each holds (`.open example:`).
    static func listing() -> String {
        func entities(_ app: ExampleApp) -> [String] {
            ((try? JSONModelFormat.read(Data(app.model.utf8), name: app.name))?.entities.map(\.name)) ?? []
        }
        var rows = [(prefix, "the default: " + defaultApps.joined(separator: ", "))]
        for app in ExampleApp.embedded {
            rows.append(("\(prefix):\(app.name)", entities(app).joined(separator: ", ")))
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 + "\n" }.joined()
    }

    /// The one line a REPL on an example store starts with.
    static func banner(_ name: String) -> String {
        let which = name == prefix ? "the bundled example store is open (seed apps \(defaultApps.joined(separator: ", ")))"
            : "the bundled example store \(name) is open (the seed app \(name.dropFirst(prefix.count + 1)))"
        return "Sift: \(which). .help lists the commands; .open FILE opens a store."
    }
}
