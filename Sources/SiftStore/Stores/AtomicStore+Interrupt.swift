extension AtomicStore {
    /// Stops the fetches this store is running (from any thread): each throws
    /// ``StoreError/interrupted`` at its next check, between objects. A fetch that starts after
    /// the last one under way has ended runs normally. A batch update or delete stopped while it
    /// looks for its objects changes nothing.
    public func interrupt() {
        interruption.interrupt()
    }
}

extension AtomicStore: InterruptibleFetches, WriteLockingStore, InMemoryFetchingStore {
    public var kindDescription: String {
        switch kind {
        case .json: "a JSON store"
        case .binaryPropertyList: "a binary store"
        case .inMemory: "an in-memory store"
        }
    }
}
