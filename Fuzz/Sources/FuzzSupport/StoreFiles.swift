import Foundation
import Sift

/// fuzz-atomic-store: any bytes as an atomic store file — binary property list when they
/// start with `bplist`, JSON otherwise — written to a temporary file and opened by
/// `AtomicStore.open` (which only reads). A store that opens is read entity by entity: every
/// object, the count, and a fetch sorted by the entity's first attribute.
public enum AtomicStoreFileHarness {
    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let isPlist = data.starts(with: Array("bplist".utf8))
        let file = FuzzTemporaryDirectory.file(named: isPlist ? "store.plist" : "store.json", contents: data)
        defer { FuzzTemporaryDirectory.clear() }
        guard let store = try? AtomicStore.open(at: file, kind: isPlist ? .binaryPropertyList : .json) else { return }
        StoreReading.readAll(store)
    }
}

/// fuzz-sqlite-store: any bytes as a SQLite store file (a Sift store with its model inside, or
/// any SQLite database, read through its tables), written to a temporary file and opened by
/// `SQLiteStore.open`, which is then only read, entity by entity.
public enum SQLiteStoreFileHarness {
    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let file = FuzzTemporaryDirectory.file(named: "store.sqlite", contents: data)
        defer { FuzzTemporaryDirectory.clear() }
        guard let store = try? SQLiteStore.open(at: file) else { return }
        StoreReading.readAll(store)
    }
}

enum StoreReading {
    /// Reads every entity of a store (at most 32): its objects, count, and the objects sorted by
    /// the first attribute.
    static func readAll(_ store: any PersistentStore) {
        for entity in store.model.entities.prefix(32) {
            _ = FuzzObservation.contents(of: entity.name, in: store)
            _ = try? store.count(FetchRequest(entityName: entity.name))
            if let attribute = entity.attributes.first {
                _ = FuzzObservation.observe(FetchRequest(entityName: entity.name, sortDescriptors: [SortKey(attribute.name)]), on: store)
            }
        }
    }
}
