import Foundation
import Sift

/// fuzz-csv: any bytes as a CSV file imported (`sift import --entity Item`, with a header row
/// of property names) into an `Item` entity that has an attribute of every type and
/// relationships — once into an in-memory atomic store and once into an in-memory SQLite
/// store. Both refuse it, or both hold the same objects afterwards.
public enum CSVImportHarness {
    /// A model with every attribute type, optional and required attributes, to-one and to-many
    /// relationships (one to its own entity).
    public static let modelJSON = #"""
    {"name": "Fuzz", "entities": [
      {"name": "Item",
       "attributes": [
         {"name": "name", "type": "String"},
         {"name": "title", "type": "String", "optional": false, "default": ""},
         {"name": "count", "type": "Integer 64"},
         {"name": "small", "type": "Integer 16", "optional": false, "default": 0},
         {"name": "medium", "type": "Integer 32"},
         {"name": "price", "type": "Double"},
         {"name": "ratio", "type": "Float"},
         {"name": "amount", "type": "Decimal"},
         {"name": "flag", "type": "Boolean"},
         {"name": "when", "type": "Date"},
         {"name": "code", "type": "UUID"},
         {"name": "blob", "type": "Binary"},
         {"name": "link", "type": "URI"}],
       "relationships": [
         {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "items"},
         {"name": "parent", "destination": "Item", "inverse": "children"},
         {"name": "children", "destination": "Item", "toMany": true, "inverse": "parent", "deleteRule": "Cascade"}],
       "indexes": [["count"], ["name"]]},
      {"name": "Tag",
       "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "tags"}]}
    ]}
    """#

    public static let model: DataModel = {
        do {
            return try JSONModelFormat.read(Data(modelJSON.utf8), name: "Fuzz")
        } catch {
            fatalError("the fuzz model does not load: \(error)")
        }
    }()

    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let bytes = Data(buffer: data)
        ImportDifferential.compare(input: bytes) { store throws(StoreError) in
            try StoreImporter.importCSV(bytes, entity: "Item", into: store)
        }
    }
}

/// Imports into an atomic and a SQLite store (both in memory) and compares.
public enum ImportDifferential {
    public static func compare(input: Data, model: DataModel = CSVImportHarness.model,
                               _ body: (any PersistentStore) throws(StoreError) -> ImportSummary) {
        let memory = AtomicStore.inMemory(model: model)
        let sql: SQLiteStore
        do {
            sql = try SQLiteStore.inMemory(model: model)
        } catch {
            fatalError("an in-memory SQLite store cannot be made: \(error)")
        }
        let a = Result { () throws(StoreError) in try body(memory) }
        let b = Result { () throws(StoreError) in try body(sql) }
        let text = String(decoding: input.prefix(400), as: UTF8.self)
        switch (a, b) {
        case (.failure, .failure): return
        case (.success(let x), .success(let y)):
            fuzzCheck(x == y, "the imports count differently: \(x) ≠ \(y)\n  input: \(quoted(text))")
        default:
            fuzzFailure("one store imports and the other refuses:\n  memory: \(a)\n  sql: \(b)\n  input: \(quoted(text))")
        }
        // Objects imported without an @id get IDs each store makes in its own way: compare
        // their values then, and how many objects each relationship holds.
        var generated = false
        for entity in model.entities {
            for store in [memory, sql] as [any PersistentStore] {
                if let ids = try? store.fetch(FetchRequest(entityName: entity.name)).objectIDs, ids.contains(where: FuzzObservation.looksGenerated) {
                    generated = true
                }
            }
        }
        for entity in model.entities.map(\.name) {
            let x = FuzzObservation.contents(of: entity, in: memory, maskingIDs: generated)
            let y = FuzzObservation.contents(of: entity, in: sql, maskingIDs: generated)
            if let difference = FuzzObservation.difference(x, y) {
                fuzzFailure("after the import the stores hold different \(entity) objects\(generated ? " (IDs masked)" : ""): \(difference)\n  input: \(quoted(text))")
            }
        }
    }
}
