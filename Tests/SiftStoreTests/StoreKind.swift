import Foundation
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Every kind of store, for the tests every store must pass alike: the atomic stores (in
/// memory, JSON, binary property list) and the SQLite store. File stores are filled, saved and
/// opened again, so a test works on what the file kept.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory, json, binaryPropertyList, sqlite

    var testDescription: String { rawValue }

    /// A new, empty store of this kind for `model`, in `directory` (file kinds).
    func make(_ model: DataModel, name: String, in directory: URL) throws -> any PersistentStore {
        switch self {
        case .inMemory: return AtomicStore.inMemory(model: model)
        case .json: return try AtomicStore.create(at: directory.appendingPathComponent("\(name).json"), model: model)
        case .binaryPropertyList: return try AtomicStore.create(at: directory.appendingPathComponent("\(name).plist"), model: model)
        case .sqlite: return try SQLiteStore.create(at: directory.appendingPathComponent("\(name).sqlite"), model: model)
        }
    }

    /// The store opened again from its file (nil for the in-memory kind).
    func reopen(_ store: any PersistentStore) throws -> (any PersistentStore)? {
        switch self {
        case .inMemory: return nil
        case .json, .binaryPropertyList:
            guard let url = (store as? AtomicStore)?.url else { return nil }
            return try AtomicStore.open(at: url)
        case .sqlite:
            guard let url = (store as? SQLiteStore)?.url else { return nil }
            return try SQLiteStore.open(at: url)
        }
    }

    /// A seed app's store with its data.json imported, saved and (file kinds) opened again.
    func seeded(_ app: String, in directory: URL) throws -> any PersistentStore {
        let folder = ExampleModelsTests.folder(app)
        let model = try ModelFile.load(folder.appendingPathComponent("model.json"))
        let store = try make(model, name: app, in: directory)
        try StoreImporter.importJSON(try Data(contentsOf: folder.appendingPathComponent("data.json")), into: store)
        #expect(!store.hasChanges)
        return try reopen(store) ?? store
    }
}
