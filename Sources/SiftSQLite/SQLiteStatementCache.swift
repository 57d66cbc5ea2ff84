/// Prepared statements by SQL text, at most `capacity` of them; when full, the least recently used
/// one is dropped (and finalized, unless someone still holds it).
struct SQLiteStatementCache {
    private struct Entry {
        let statement: SQLiteStatement
        var lastUse: UInt64
    }

    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    /// The most statements kept; at least 1.
    var capacity: Int {
        didSet {
            capacity = max(1, capacity)
            trim(to: capacity)
        }
    }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { entries.count }

    /// The cached statement for `sql`, marked as just used; nil if there is none.
    mutating func statement(for sql: String) -> SQLiteStatement? {
        guard let index = entries.index(forKey: sql) else { return nil }
        clock &+= 1
        entries.values[index].lastUse = clock
        return entries.values[index].statement
    }

    /// Keeps `statement` under `sql`, dropping the least recently used entry when full.
    mutating func insert(_ statement: SQLiteStatement, for sql: String) {
        trim(to: capacity - 1)
        clock &+= 1
        entries[sql] = Entry(statement: statement, lastUse: clock)
    }

    /// Drops every statement.
    mutating func removeAll() {
        entries.removeAll()
    }

    /// Drops least recently used entries until at most `limit` remain.
    private mutating func trim(to limit: Int) {
        while entries.count > max(0, limit) {
            guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
            entries.removeValue(forKey: oldest.key)
        }
    }
}
