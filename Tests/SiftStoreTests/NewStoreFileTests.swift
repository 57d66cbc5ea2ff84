import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Store files made whole (`create(at:model:filling:)`: the file appears when its filling has
/// succeeded, and not at all when it fails), and models that grow by entities
/// (`ModelGrowingStore`): kept by a save, undone by a rollback, in every file store.
@Suite struct NewStoreFileTests {
    enum FileKind: String, CaseIterable, Sendable {
        case sqlite, json, plist
    }

    static func rowModel() throws -> DataModel {
        var model = try DataModel(name: "Rows", entities: [EntityDescription(name: "Row", attributes: [AttributeDescription(name: "n", type: .integer64)])])
        model.isInferred = true
        return model
    }

    static let people = EntityDescription(name: "Person", attributes: [AttributeDescription(name: "name", type: .string)])

    static func create(_ kind: FileKind, at url: URL, model: DataModel, filling fill: (any PersistentStore) throws -> Void) throws -> any PersistentStore {
        switch kind {
        case .sqlite: try SQLiteStore.create(at: url, model: model, filling: fill)
        case .json, .plist: try AtomicStore.create(at: url, model: model, filling: fill)
        }
    }

    static func open(_ kind: FileKind, _ url: URL) throws -> any PersistentStore {
        switch kind {
        case .sqlite: try SQLiteStore.open(at: url)
        case .json, .plist: try AtomicStore.open(at: url)
        }
    }

    struct Refused: Error {}

    @Test(arguments: FileKind.allCases)
    func aNewStoreFileAppearsWholeOrNotAtAll(_ kind: FileKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("rows.\(kind.rawValue)")
        // Filled and saved, then a failure: no file.
        #expect(throws: Refused.self) {
            _ = try Self.create(kind, at: url, model: try Self.rowModel()) { store in
                try StoreImporter.importCSV(Data("n\n1\n2\n".utf8), entity: "Row", into: store)
                #expect(!FileManager.default.fileExists(atPath: url.path), "not before the filling is done")
                throw Refused()
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
        // Filled: the file holds what was saved (not what was left unsaved).
        let store = try Self.create(kind, at: url, model: try Self.rowModel()) { store in
            try StoreImporter.importCSV(Data("n\n1\n2\n".utf8), entity: "Row", into: store)
            try store.insert("Row", ["n": .int(3)])
        }
        #expect(try store.count(FetchRequest(entityName: "Row")) == 2)
        #expect(try Self.open(kind, url).count(FetchRequest(entityName: "Row")) == 2)
        // The store file, and an open SQLite store's -wal and -shm files beside it: nothing else.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(url.lastPathComponent) } == [])
        // The store goes on as any other.
        try store.insert("Row", ["n": .int(4)])
        try store.save()
        #expect(try Self.open(kind, url).count(FetchRequest(entityName: "Row")) == 3)
    }

    @Test(arguments: FileKind.allCases)
    func aFileAnotherProcessCreatedMeanwhileIsLeftAlone(_ kind: FileKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("rows.\(kind.rawValue)")
        let error = #expect(throws: StoreError.self) {
            _ = try Self.create(kind, at: url, model: try Self.rowModel()) { store in
                try StoreImporter.importCSV(Data("n\n1\n".utf8), entity: "Row", into: store)
                // Another writer makes the store while this one fills its own.
                let other = try Self.create(kind, at: url, model: try Self.rowModel()) { other in
                    try StoreImporter.importCSV(Data("n\n7\n8\n9\n".utf8), entity: "Row", into: other)
                }
                _ = other
            }
        }
        #expect(error?.code == .conflict)
        #expect(error?.message.contains("another process created it while this store was made") == true)
        #expect(try Self.open(kind, url).count(FetchRequest(entityName: "Row")) == 3, "the other writer's store, as it made it")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(url.lastPathComponent) } == [])
    }

    @Test(arguments: FileKind.allCases)
    func aFileThatExistsBeforeTheFillingIsAConflictTooAndIsLeftAlone(_ kind: FileKind) throws {
        // A process that looked, found no store and then started to create one meets the store
        // another process made in between: the same conflict as when it appears later (an
        // import then goes into that store), and nothing is filled or written.
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("rows.\(kind.rawValue)")
        _ = try Self.create(kind, at: url, model: try Self.rowModel()) { store in
            try StoreImporter.importCSV(Data("n\n7\n".utf8), entity: "Row", into: store)
        }
        var filled = false
        let error = #expect(throws: StoreError.self) {
            _ = try Self.create(kind, at: url, model: try Self.rowModel()) { _ in filled = true }
        }
        #expect(error?.code == .conflict)
        #expect(error?.message == "\(url.path) already exists")
        #expect(!filled)
        #expect(try Self.open(kind, url).count(FetchRequest(entityName: "Row")) == 1)
    }

    // MARK: Growing models

    @Test(arguments: FileKind.allCases)
    func aModelGrowsByAnEntityKeptBySaveAndUndoneByRollback(_ kind: FileKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("rows.\(kind.rawValue)")
        _ = try Self.create(kind, at: url, model: try Self.rowModel()) { store in
            try StoreImporter.importCSV(Data("n\n1\n2\n".utf8), entity: "Row", into: store)
        }
        // Rolled back: the entity is gone, from the store and its file.
        let store = try Self.open(kind, url)
        guard let growing = store as? any ModelGrowingStore else {
            Issue.record("\(kind) stores grow")
            return
        }
        try growing.addEntities([Self.people])
        #expect(growing.model.entities.map(\.name) == ["Row", "Person"])
        try growing.insert("Person", ["name": .string("Ann")])
        growing.rollback()
        #expect(growing.model.entities.map(\.name) == ["Row"])
        #expect(try Self.open(kind, url).model.entities.map(\.name) == ["Row"])
        #expect(try growing.count(FetchRequest(entityName: "Row")) == 2)
        // An import that adds it and fails adds nothing.
        #expect(throws: StoreError.self) {
            try StoreImporter.importCSV(Data("@id,name\nP1,Ann\nP1,Bob\n".utf8), entity: "Person", into: growing,
                                        options: ImportOptions(newEntities: [Self.people]))
        }
        #expect(growing.model.entities.map(\.name) == ["Row"])
        // One that succeeds keeps it, with the stored model, which stays inferred.
        let summary = try StoreImporter.importCSV(Data("name\nAnn\nBob\n".utf8), entity: "Person", into: growing,
                                                  options: ImportOptions(newEntities: [Self.people]))
        #expect(summary.total == 2)
        let reopened = try Self.open(kind, url)
        #expect(reopened.model.entities.map(\.name) == ["Row", "Person"])
        #expect(reopened.model.isInferred)
        #expect(try reopened.count(FetchRequest(statement: "Person WHERE name BEGINSWITH 'B'")) == 1)
        #expect(try reopened.count(FetchRequest(entityName: "Row")) == 2)
        // The new entity's objects and the old ones are stores' objects as any others.
        try reopened.insert("Row", ["n": .int(3)])
        try reopened.save()
        #expect(try Self.open(kind, url).count(FetchRequest(statement: "Row WHERE n > 1")) == 2)
    }

    @Test(arguments: FileKind.allCases)
    func entitiesThatCannotBeAddedAreRefused(_ kind: FileKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("rows.\(kind.rawValue)")
        _ = try Self.create(kind, at: url, model: try Self.rowModel()) { _ in }
        guard let store = try Self.open(kind, url) as? any ModelGrowingStore else {
            Issue.record("\(kind) stores grow")
            return
        }
        let related = EntityDescription(name: "Team", relationships: [RelationshipDescription(name: "rows", destination: "Row", isToMany: true)])
        for entity in [EntityDescription(name: "Row"), related, EntityDescription(name: "Sub", parent: "Row")] {
            #expect(throws: StoreError.self, "\(entity.name)") { try store.addEntities([entity]) }
        }
        if kind == .sqlite {
            // Table names that differ only in case are one table to SQLite.
            #expect(throws: StoreError.self) { try store.addEntities([EntityDescription(name: "row")]) }
            // Entities come first, then changes.
            try store.insert("Row", ["n": .int(1)])
            #expect(throws: StoreError.self) { try store.addEntities([Self.people]) }
            store.rollback()
        }
        #expect(store.model.entities.map(\.name) == ["Row"])
        #expect(!store.hasChanges)
    }

    @Test func anInferredModelSaysSoInJSON() throws {
        let model = try Self.rowModel()
        let text = JSONModelFormat.write(model)
        #expect(text.contains(#""inferred": true"#))
        #expect(try JSONModelFormat.read(Data(text.utf8)).isInferred)
        var written = model
        written.isInferred = false
        #expect(!JSONModelFormat.write(written).contains("inferred"))
        #expect(try !JSONModelFormat.read(Data(JSONModelFormat.write(written).utf8)).isInferred)
    }
}
