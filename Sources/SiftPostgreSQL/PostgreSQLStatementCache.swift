/// The statements a connection prepared, by SQL text and parameter types, under the names they
/// were prepared with; at most `capacity` of them, the least recently used dropped first (the
/// connection deallocates it on the server).
///
/// The parameter types are part of the key: a statement is prepared with them, so the same text
/// with other types (a NULL where a number was) is another statement.
struct PostgreSQLStatementCache {
    struct Key: Hashable {
        let sql: String
        let parameterTypes: [UInt32]
    }

    private struct Entry {
        let name: String
        var lastUse: UInt64
    }

    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    /// The number of statements prepared so far, for unique names.
    private var prepared = 0
    /// The most statements kept; at least 1.
    var capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { entries.count }

    /// The name `key` was prepared under, marked as just used; nil if it was not.
    mutating func name(for key: Key) -> String? {
        guard let index = entries.index(forKey: key) else { return nil }
        clock &+= 1
        entries.values[index].lastUse = clock
        return entries.values[index].name
    }

    /// A name no statement of this connection has had.
    mutating func newName() -> String {
        prepared += 1
        return "sift_\(prepared)"
    }

    /// Keeps `name` under `key`.
    mutating func insert(_ name: String, for key: Key) {
        clock &+= 1
        entries[key] = Entry(name: name, lastUse: clock)
    }

    /// Removes least recently used entries until at most `limit` remain; returns their names.
    mutating func trim(to limit: Int) -> [String] {
        var removed: [String] = []
        while entries.count > max(0, limit) {
            guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
            entries.removeValue(forKey: oldest.key)
            removed.append(oldest.value.name)
        }
        return removed
    }

    /// Forgets the statement under `key` (it failed in a way that may have left it unusable).
    mutating func remove(_ key: Key) -> String? {
        entries.removeValue(forKey: key)?.name
    }
}
