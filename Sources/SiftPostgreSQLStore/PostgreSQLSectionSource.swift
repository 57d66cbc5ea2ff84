import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// The objects of one section of a fetch the server sectioned: the core's deferred key list
/// (``SQLDeferredKeyListSource``). Their number is known from the sections' GROUP BY query;
/// their keys and IDs are queried (the section's own query, in result order) the first time
/// anything else is asked, and the objects then read by key a batch at a time
/// (``PostgreSQLKeyListSource``).
typealias PostgreSQLSectionSource = SQLDeferredKeyListSource<PostgreSQLKeyListDriver>

extension SQLDeferredKeyListSource where Driver == PostgreSQLKeyListDriver {
    /// The section of `count` objects that `sql` (selecting each row's key and ID) lists.
    convenience init(store: PostgreSQLStore, sql: String, parameters: [PostgreSQLValue], layout: PostgreSQLRowLayout, request: FetchRequest, count: Int) {
        let driver = PostgreSQLKeyListDriver(postgreSQLStore: store, layout: layout, prefetch: SQLBatchPrefetch(request))
        self.init(count: count, driver: driver) {
            let result = try store.read { () throws(StoreError) in try store.query(sql, parameters) }
            var keys: [(key: Int64, id: ObjectID)] = []
            keys.reserveCapacity(result.count)
            for row in result { keys.append(layout.keyAndID(row)) }
            return keys
        }
    }
}
