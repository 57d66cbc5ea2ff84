import SiftSQL
import SiftSQLStore
import SiftSQLite

/// Row keys bound as `IN (?1, ?2, …)` lists, for the queries that read many rows by key
/// (objects by position, prefetched relationships): at most ``limit`` keys a statement, well
/// under SQLite's limit on a statement's parameters.
enum RowKeyLists {
    static let limit = 500

    /// `IN (?1, ?2, …, ?count)`.
    static func inList(_ count: Int) -> String {
        "IN (" + (1...max(1, count)).map { "?\($0)" }.joined(separator: ", ") + ")"
    }

    /// `keys` in consecutive runs of at most ``limit``, each with its bindings.
    static func chunks<Keys: RandomAccessCollection>(_ keys: Keys) -> [(count: Int, bindings: [SQLValue])] where Keys.Element == Int64 {
        var chunks: [(count: Int, bindings: [SQLValue])] = []
        var start = keys.startIndex
        while start != keys.endIndex {
            let end = keys.index(start, offsetBy: limit, limitedBy: keys.endIndex) ?? keys.endIndex
            let bindings = keys[start..<end].map { SQLValue.integer($0) }
            chunks.append((bindings.count, bindings))
            start = end
        }
        return chunks
    }
}
