import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// A PostgreSQL store's rows as the store rules see them: the SQLite store's row code
/// (``SQLRowObjects``) on a PostgreSQL connection.
typealias PostgreSQLRowObjects = SQLRowObjects<PostgreSQLRowDatabase>

extension SQLRowObjects where Database == PostgreSQLRowDatabase {
    /// Row keys as one `bigint[]` parameter.
    static func keyArray(_ keys: [Int64]) -> PostgreSQLValue {
        .typed("{" + keys.map(String.init).joined(separator: ",") + "}", PostgreSQLStore.bigintArray)
    }
}

/// What the store rules' row code needs of a PostgreSQL store's connection (``SQLRowDatabase``):
/// parameters `$1`, `$2`, … (a list of keys or names as one array parameter), attribute values
/// as ``PostgreSQLColumnCodec`` sends them, statements run with their parameters.
final class PostgreSQLRowDatabase: SQLRowDatabase {
    let connection: PostgreSQLConnection
    /// Whether inserts into a table the transaction found empty wait in ``pending`` to go in
    /// many rows a statement (an import's rows; set by the store around them).
    var batching = false
    /// Rows waiting to be inserted, by their entity's statements, in the order they came.
    var pending: [PostgreSQLPendingInserts] = []
    /// For each table the transaction found empty: the hashes of the IDs the transaction gave its rows (a duplicate ID is found as the
    /// row comes, not when its batch is written).
    var insertedIDs: [String: Set<Int>] = [:]
    /// The tables the transaction found holding rows: their inserts never wait.
    var tablesHeldRows: Set<String> = []
    /// How many rows ``pending`` holds.
    var pendingRows = 0
    /// The batch of rows sent ahead, whose result is not yet in (settled before anything else
    /// runs on the connection through this database or the store).
    var inFlight: PostgreSQLBatchInFlight?
    /// Multi-row INSERTs made, by entity statement and rows.
    var batchStatements: [String: String] = [:]

    init(_ connection: PostgreSQLConnection) {
        self.connection = connection
    }

    var dialect: RowWriteDialect { .postgreSQL }

    func key(_ key: Int64) -> PostgreSQLValue { .int64(key) }

    func attribute(_ value: Value) throws(StoreError) -> PostgreSQLValue { try PostgreSQLColumnCodec.encode(value) }

    /// Never asked: a PostgreSQL store's tables have no folded columns.
    func searchFold(_ fold: SearchFold, of stored: PostgreSQLValue) -> PostgreSQLValue {
        guard case .text(let text) = stored else { return .null }
        return .text(fold.fold(text))
    }

    func keyLists(_ keys: [Int64]) -> [(test: String, bindings: [PostgreSQLValue])] {
        keys.isEmpty ? [] : [("= ANY(\(dialect.placeholder(1)))", [PostgreSQLRowObjects.keyArray(keys)])]
    }

    func textList(_ texts: [String], from number: Int) -> (test: String, bindings: [PostgreSQLValue]) {
        ("= ANY(\(dialect.placeholder(number)))", [.typed(PostgreSQLStore.textArrayLiteral(texts), PostgreSQLStore.textArray)])
    }

    func run(_ sql: String, _ bindings: [PostgreSQLValue]) throws(StoreError) {
        try flushInserts()
        do { _ = try connection.run(sql, bindings) } catch { throw PostgreSQLStore.storeError(error) }
    }

    func query(_ sql: String, _ bindings: [PostgreSQLValue], _ body: (PostgreSQLRowColumns) throws(StoreError) -> Bool) throws(StoreError) {
        try flushInserts()
        let result: PostgreSQLResult
        do { result = try connection.query(sql, bindings) } catch { throw PostgreSQLStore.storeError(error) }
        for row in result {
            guard try body(PostgreSQLRowColumns(row: row)) else { return }
        }
    }

    func lookUp(_ id: ObjectID, with sql: String) throws(StoreError) -> (key: Int64, entity: String)? {
        // No text holds NUL in PostgreSQL, so no object has such an ID.
        guard !id.rawValue.utf8.contains(0) else { return nil }
        var found: (key: Int64, entity: String)?
        var missing = false
        try query(sql, [.text(id.rawValue)]) { (row) throws(StoreError) in
            if let key = row.int64(0), let entity = row.text(1) { found = (key, entity) } else { missing = true }
            return false
        }
        if missing { throw StoreError(.corruptStore, "a row has no key or entity") }
        return found
    }

    func insert(_ sql: RowWriteSQL, entity: Int, key: Int64, id: ObjectID, entityName: String, attributes: [Value]) throws(StoreError) -> Bool {
        var parameters: [PostgreSQLValue] = [.int64(key), .text(try PostgreSQLColumnCodec.text(id.rawValue)), .text(entityName)]
        for inserted in sql.insertedSlots {
            parameters.append(try PostgreSQLColumnCodec.encode(attributes[inserted.slot]))
        }
        for hidden in sql.insertedFolds {
            parameters.append(searchFold(hidden.fold, of: try PostgreSQLColumnCodec.encode(attributes[hidden.slot])))
        }
        switch try noteInsertedID(id, into: sql.table) {
        case .duplicate: return false
        case .batchable where batching:
            try pend(parameters, id: id, entityName: entityName, sql: sql)
            return true
        default: break
        }
        try flushInserts()
        do {
            _ = try connection.run(sql.insert, parameters)
        } catch let error where error.sqlState == "23505" {
            // The only unique index an insert can break is the object IDs' (row keys are the
            // store's own, given under its write lock).
            return false
        } catch {
            throw PostgreSQLStore.storeError(error)
        }
        return true
    }
}

/// A row of a PostgreSQL result.
struct PostgreSQLRowColumns: SQLRowColumns {
    let row: PostgreSQLRow

    func int64(_ column: Int) -> Int64? { row[column].int64Value }
    func text(_ column: Int) -> String? { row[column].stringValue }
    func isNull(_ column: Int) -> Bool { row[column].isNull }
}
