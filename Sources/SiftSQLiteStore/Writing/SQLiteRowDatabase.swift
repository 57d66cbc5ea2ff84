import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// The SQLite store's rows as the store rules see them.
typealias SQLiteRowObjects = SQLRowObjects<SQLiteRowDatabase>

/// What the store rules' row code needs of a SQLite store's database (``SQLRowDatabase``):
/// values bound one a placeholder (keys in lists of at most ``RowKeyLists/limit``), attribute
/// values as ``ColumnCodec`` stores them, statements through the database's statement cache.
/// The statements run for every object inserted (the ID lookups, each entity's INSERT) are
/// prepared once and kept at hand.
final class SQLiteRowDatabase: SQLRowDatabase {
    let database: SQLiteDatabase
    /// The ID lookups with their SQL (a few: found by comparing the SQL, which is the same
    /// string each time, at once, rather than hashing it for every object).
    private var lookups: [(sql: String, statement: SQLiteStatement)] = []
    /// Each entity's INSERT, at the entity's position, with the entity's name bound (nil until
    /// its first row).
    private var inserts: [SQLiteStatement?] = []
    /// The texts of the row being inserted, one after another: bound where they are, not
    /// copied by SQLite one value at a time.
    private var texts: [UInt8] = []
    private var textParameters: [(index: Int32, start: Int, count: Int)] = []

    init(_ database: SQLiteDatabase) {
        self.database = database
    }

    var dialect: RowWriteDialect { .sqlite }

    func key(_ key: Int64) -> SQLValue { .integer(key) }

    func attribute(_ value: Value) -> SQLValue { ColumnCodec.encode(value) }

    func searchFold(_ fold: SearchFold, of stored: SQLValue) -> SQLValue { fold.stored(stored) }

    func keyLists(_ keys: [Int64]) -> [(test: String, bindings: [SQLValue])] {
        RowKeyLists.chunks(keys).map { (RowKeyLists.inList($0.count), $0.bindings) }
    }

    func textList(_ texts: [String], from number: Int) -> (test: String, bindings: [SQLValue]) {
        let placeholders = texts.indices.map { dialect.placeholder(number + $0) }
        return ("IN (\(placeholders.joined(separator: ", ")))", texts.map { .text($0) })
    }

    func run(_ sql: String, _ bindings: [SQLValue]) throws(StoreError) {
        let statement = try cached(sql)
        try bind(statement, bindings)
        try run(statement)
    }

    func query(_ sql: String, _ bindings: [SQLValue], _ body: (SQLiteRowColumns) throws(StoreError) -> Bool) throws(StoreError) {
        let statement = try cached(sql)
        try bind(statement, bindings)
        defer { statement.reset() }
        while try step(statement) {
            guard try body(SQLiteRowColumns(statement: statement)) else { return }
        }
    }

    func lookUp(_ id: ObjectID, with sql: String) throws(StoreError) -> (key: Int64, entity: String)? {
        let statement: SQLiteStatement
        if let prepared = lookups.first(where: { $0.sql == sql }) {
            statement = prepared.statement
        } else {
            statement = try prepare(sql)
            lookups.append((sql, statement))
        }
        try bind(statement, .text(id.rawValue), at: 1)
        defer { statement.reset() }
        guard try step(statement) else { return nil }
        return (statement.int64(0), statement.text(1))
    }

    func insert(_ sql: RowWriteSQL, entity: Int, key: Int64, id: ObjectID, entityName: String, attributes: [Value]) throws(StoreError) -> Bool {
        let statement: SQLiteStatement
        if entity < inserts.count, let prepared = inserts[entity] {
            statement = prepared
        } else {
            statement = try prepare(sql.insert)
            // Every row of the statement's entity has its name: bound once, for all of them
            // (`reset` keeps bindings).
            try bind(statement, .text(entityName), at: 3)
            if entity >= inserts.count { inserts += repeatElement(nil, count: entity + 1 - inserts.count) }
            inserts[entity] = statement
        }
        // Texts are gathered in one buffer and bound where they are, inside `withUnsafeBufferPointer`
        // with the step that reads them. (The buffers are the properties' storage, moved into
        // locals: appending to a class's property is checked for exclusive access each time.)
        var texts: [UInt8] = [], parameters: [(index: Int32, start: Int, count: Int)] = []
        swap(&texts, &self.texts)
        swap(&parameters, &textParameters)
        defer {
            swap(&texts, &self.texts)
            swap(&parameters, &textParameters)
        }
        texts.removeAll(keepingCapacity: true)
        parameters.removeAll(keepingCapacity: true)
        func putText(_ text: String, at index: Int32) {
            var text = text
            let start = texts.count
            text.withUTF8 { texts.append(contentsOf: $0) }
            parameters.append((index, start, texts.count - start))
        }
        func put(_ value: SQLValue, at index: Int32) throws(StoreError) {
            guard case .text(let text) = value else { return try bind(statement, value, at: index) }
            putText(text, at: index)
        }
        /// An attribute's value bound as ``ColumnCodec/encode(_:)`` stores it; the kinds most rows
        /// hold without making the codec's value and SQLite's value from it first.
        func put(attribute value: Value, at index: Int32) throws(StoreError) {
            do throws(SQLiteError) {
                switch value {
                case .null: try statement.bindNull(at: index)
                case .int(let i): try statement.bind(integer: i, at: index)
                case .double(let d): try statement.bind(real: d, at: index)
                case .bool(let b): try statement.bind(integer: b ? 1 : 0, at: index)
                case .string(let s): putText(StringFolding.nfc(s), at: index)
                default: try statement.bind(SQLiteValue(ColumnCodec.encode(value)), at: index)
                }
            } catch {
                throw storeError(error)
            }
        }
        try bind(statement, .integer(key), at: 1)
        putText(id.rawValue, at: 2)
        for (offset, inserted) in sql.insertedSlots.enumerated() {
            try put(attribute: attributes[inserted.slot], at: Int32(offset + 4))
        }
        let foldsStart = sql.insertedSlots.count + 4
        for (offset, hidden) in sql.insertedFolds.enumerated() {
            try put(hidden.fold.stored(ColumnCodec.encode(attributes[hidden.slot])), at: Int32(foldsStart + offset))
        }
        do {
            defer { statement.reset() }
            try texts.withUnsafeBufferPointer { (buffer) throws(SQLiteError) in
                for parameter in parameters {
                    try statement.bindText(borrowing: UnsafeBufferPointer(rebasing: buffer[parameter.start..<parameter.start + parameter.count]), at: parameter.index)
                }
                while try statement.step() {}
            }
        } catch let error where error.isConstraintViolation && error.message.hasSuffix(".\(SQLSchema.idColumn)") {
            return false
        } catch {
            throw storeError(error)
        }
        return true
    }

    // MARK: Statements

    /// A statement prepared to be kept (reset after each use, its bindings kept: each use binds
    /// its values again, an INSERT all but its entity's name).
    private func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        do { return try database.prepare(sql) } catch { throw storeError(error) }
    }

    /// A statement through the database's statement cache.
    private func cached(_ sql: String) throws(StoreError) -> SQLiteStatement {
        do { return try database.cachedStatement(sql) } catch { throw storeError(error) }
    }

    private func bind(_ statement: SQLiteStatement, _ value: SQLValue, at index: Int32) throws(StoreError) {
        do { try statement.bind(SQLiteValue(value), at: index) } catch { throw storeError(error) }
    }

    private func bind(_ statement: SQLiteStatement, _ values: [SQLValue]) throws(StoreError) {
        do { try statement.bind(sqlValues: values) } catch { throw storeError(error) }
    }

    private func step(_ statement: SQLiteStatement) throws(StoreError) -> Bool {
        do { return try statement.step() } catch { throw storeError(error) }
    }

    /// Runs a bound statement to its end.
    private func run(_ statement: SQLiteStatement) throws(StoreError) {
        defer { statement.reset() }
        while try step(statement) {}
    }

    private func storeError(_ error: SQLiteError) -> StoreError {
        SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:)))
    }
}

/// The current row of a SQLite statement. (SQLite converts: NULL reads as 0 and "".)
struct SQLiteRowColumns: SQLRowColumns {
    let statement: SQLiteStatement

    func int64(_ column: Int) -> Int64? { statement.int64(Int32(column)) }
    func text(_ column: Int) -> String? { statement.text(Int32(column)) }
    func isNull(_ column: Int) -> Bool { statement.isNull(Int32(column)) }
}
