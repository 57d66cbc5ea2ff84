import Foundation
import Sift

/// The seed apps of `Examples/` (their model.json and data.json), loaded once per process.
///
/// The folder is found beside this package (`Fuzz/../Examples`, from this file's path when it
/// was compiled), or where `SIFT_FUZZ_EXAMPLES` says.
public enum SeedApps {
    /// One app: its name, model and import data.
    public struct App: Sendable {
        public let name: String
        public let model: DataModel
        /// data.json's bytes (an array: LeakSanitizer does not see a `Data` held in a global
        /// as reachable, and reports it as leaked at exit).
        public let data: [UInt8]
    }

    /// Apps whose entities a statement may name, Notes first (an entity name two apps share
    /// means the first app's).
    public static let names = ["Notes", "Movies", "Albums", "PointsOfInterest", "TaterRater", "ToDoItem",
                               "MustC", "HouseholdTasks", "NestedItems", "VideoItems"]

    public static var folder: URL {
        if let path = ProcessInfo.processInfo.environment["SIFT_FUZZ_EXAMPLES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // Fuzz/Sources/FuzzSupport/SeedApps.swift → Examples/
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples", isDirectory: true)
    }

    /// Every app, loaded (the process stops with a message when one cannot be read: the harness
    /// would test nothing).
    public static let all: [App] = names.map { name in
        let directory = folder.appendingPathComponent(name, isDirectory: true)
        do {
            let model = try ModelFile.load(directory.appendingPathComponent("model.json"))
            let data = try Data(contentsOf: directory.appendingPathComponent("data.json"))
            return App(name: name, model: model, data: Array(data))
        } catch {
            fatalError("cannot load the seed app \(name) from \(directory.path) (set SIFT_FUZZ_EXAMPLES to the Examples folder): \(error)")
        }
    }

    /// The app an entity belongs to (the first that has it), or nil.
    public static func app(forEntity name: String) -> Int? {
        all.firstIndex { $0.model.entity(named: name) != nil }
    }

    /// An in-memory atomic store holding the app's data.
    public static func atomicStore(_ app: App) -> AtomicStore {
        let store = AtomicStore.inMemory(model: app.model)
        do {
            try StoreImporter.importJSON(Data(app.data), into: store)
        } catch {
            fatalError("cannot import \(app.name)'s data into an atomic store: \(error)")
        }
        return store
    }

    /// An in-memory SQLite store holding the app's data.
    public static func sqliteStore(_ app: App) -> SQLiteStore {
        do {
            let store = try SQLiteStore.inMemory(model: app.model)
            try StoreImporter.importJSON(Data(app.data), into: store)
            return store
        } catch {
            fatalError("cannot import \(app.name)'s data into a SQLite store: \(error)")
        }
    }
}
