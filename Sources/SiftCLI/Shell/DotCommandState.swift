import Foundation
import Sift

/// What dot commands keep between lines besides the settings: the file `.once` sends the next
/// statement's results to, and the copy of the open store `.engine` runs fetches on.
final class DotCommandState {
    /// The file results go to (`.output FILE`), for `.show`.
    var outputFile: String?
    /// The file the next statement's results go to (`.once FILE`), until that statement runs.
    var onceFile: String?
    /// The open store's objects in a store of the other engine, made when `.engine` first needs
    /// them and kept until the store changes or another one opens.
    let engineCopy = EngineCopy()
}

/// The open store's objects copied into a store of the other engine: an in-memory atomic store
/// (the evaluator) for a SQLite or PostgreSQL store, an in-memory SQLite store for a JSON or
/// binary store.
/// The copy is made once and used until ``invalidate()`` (a change to the store) or until
/// another store is asked for.
final class EngineCopy {
    private weak var source: AnyObject?
    private var copy: (any PersistentStore)?

    /// The copy of `store` in the other engine, made now if there is none yet.
    func copy(of store: any PersistentStore) throws -> any PersistentStore {
        if let copy, source === store { return copy }
        let target: any PersistentStore = store is any SQLShowingStore ? AtomicStore.inMemory(model: store.model) : try SQLiteStore.inMemory(model: store.model)
        try store.copyObjects(into: target)
        source = store
        copy = target
        return target
    }

    /// Forgets the copy (the store changed).
    func invalidate() {
        source = nil
        copy = nil
    }
}
