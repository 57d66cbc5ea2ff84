import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// What the store rules' row code (``SQLRowObjects``) needs of a SQL store's database: the few
/// things each database does its own way. The SQLite store's is ``SQLiteRowDatabase``; the
/// PostgreSQL store has its own. Everything else — which statements, in which order, and what
/// their answers mean — is ``SQLRowObjects``'s, the same for both.
///
/// Every method reports failures as the store's ``StoreError``s.
package protocol SQLRowDatabase: AnyObject {
    /// A value bound to a statement.
    associatedtype Binding
    /// A row of a query's answer.
    associatedtype Row: SQLRowColumns

    /// How the database spells the statements.
    var dialect: RowWriteDialect { get }

    /// A row key bound.
    func key(_ key: Int64) -> Binding
    /// An attribute value (converted to its attribute's type) as its column holds it.
    func attribute(_ value: Value) throws(StoreError) -> Binding
    /// What a searchable attribute's hidden column (``SearchFold``) holds for the attribute
    /// value `stored` (as ``attribute(_:)`` gave it). Asked only where the dialect's tables
    /// have the columns (``RowWriteDialect/searchFolds``).
    func searchFold(_ fold: SearchFold, of stored: Binding) -> Binding
    /// Row keys bound as lists, for statements on many rows: each list's test, to follow a key
    /// column (`IN (?1, ?2, …)`, `= ANY($1)`), with its bindings. None for no keys.
    func keyLists(_ keys: [Int64]) -> [(test: String, bindings: [Binding])]
    /// Texts bound as one list whose first placeholder is the `number`th: its test, to follow a
    /// column (`IN (?3, ?4)`, `= ANY($3)`), with its bindings.
    func textList(_ texts: [String], from number: Int) -> (test: String, bindings: [Binding])

    /// Runs a statement to its end.
    func run(_ sql: String, _ bindings: [Binding]) throws(StoreError)
    /// Runs a query, handing `body` its rows in order until it returns false. A row is valid
    /// only inside `body`.
    func query(_ sql: String, _ bindings: [Binding], _ body: (Row) throws(StoreError) -> Bool) throws(StoreError)

    /// The key and entity name of the row with the object ID `id` that the query `sql`
    /// (``RowWriteSQL/objectLookup(in:dialect:)``, `?1` the ID) finds, if any. (The stores keep
    /// these statements at hand: they run for every object inserted.)
    func lookUp(_ id: ObjectID, with sql: String) throws(StoreError) -> (key: Int64, entity: String)?
    /// Inserts an object's row with ``RowWriteSQL/insert`` of the entity at position `entity`:
    /// key, ID, entity name, the attributes of ``RowWriteSQL/insertedSlots`` (from `attributes`,
    /// by slot), then the hidden folded columns. False, with nothing inserted, when the table
    /// holds the ID already (its unique index refused the row).
    func insert(_ sql: RowWriteSQL, entity: Int, key: Int64, id: ObjectID, entityName: String, attributes: [Value]) throws(StoreError) -> Bool
}

/// One row of a query's answer, as ``SQLRowObjects`` reads it (columns from 0).
package protocol SQLRowColumns {
    /// The integer in a column (nil where the database has none to give).
    func int64(_ column: Int) -> Int64?
    /// The text in a column (nil where the database has none to give).
    func text(_ column: Int) -> String?
    func isNull(_ column: Int) -> Bool
}
