import Foundation
import SiftEvaluation

/// Other processes' saves of a JSON or plist store file, for live results
/// (``ExternalChangeObservingStore``).
extension AtomicStore: ExternalChangeObservingStore {
    /// Calls `handler` on a thread of its own with what another process's save of the store
    /// file changed (objects, attribute values, relationships, compared with the version this
    /// store had): inotify reports the file replaced or written, and its generation (inode,
    /// size, modification time) says it is another version, which the store then reads — when
    /// no changes are pending here; with changes pending it waits until they are saved (a
    /// conflict) or rolled back. Polls every 100 ms where inotify is missing. An in-memory
    /// store has no other writers: the handler is never called.
    public func observeExternalChanges(_ handler: @escaping @Sendable (StoreChanges) -> Void) throws(StoreError) -> StoreChangeObservation {
        guard let url else { return StoreChangeObservation {} }
        let read = Locked<StoreChanges?>(nil)
        let watcher = FileChangeWatcher(file: url) { [weak self] in
            guard let self, let changes = self.reloadIfChangedElsewhere() else { return false }
            read.withLock { $0 = changes }
            return true
        } onChange: {
            guard let changes = read.withLock({ (read: inout StoreChanges?) -> StoreChanges? in
                defer { read = nil }
                return read
            }) else { return }
            if !changes.isEmpty { handler(changes) }
        }
        return StoreChangeObservation { watcher.cancel() }
    }
}
