import Foundation
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// The objects of one section of a fetch the server sectioned: their number is known from the
/// sections' GROUP BY query; their keys and IDs are queried (the section's own query, in result
/// order) the first time anything else is asked, and the objects then read by key a batch at
/// a time (``PostgreSQLKeyListSource``).
final class PostgreSQLSectionSource: FetchedObjectSource, @unchecked Sendable {
    let store: PostgreSQLStore
    /// The section's query, selecting each row's key and ID, and its parameters.
    let sql: String
    let parameters: [PostgreSQLValue]
    let layout: PostgreSQLRowLayout
    let request: FetchRequest
    /// The section's size, as the GROUP BY query counted it.
    let count: Int
    /// Where read errors are kept (the key list's, too).
    private let readFailure = ReadFailure()
    var failure: ReadFailure? { readFailure }
    private let lock = NSLock()
    private var listed: PostgreSQLKeyListSource?

    init(store: PostgreSQLStore, sql: String, parameters: [PostgreSQLValue], layout: PostgreSQLRowLayout, request: FetchRequest, count: Int) {
        self.store = store
        self.sql = sql
        self.parameters = parameters
        self.layout = layout
        self.request = request
        self.count = count
    }

    /// The section's keys, queried once (none, the error kept in ``failure``, if the query fails).
    private var keys: PostgreSQLKeyListSource {
        lock.lock(); defer { lock.unlock() }
        if let listed { return listed }
        var keys: [(key: Int64, id: ObjectID)] = []
        do {
            let result = try store.read { () throws(StoreError) in try store.query(sql, parameters) }
            keys.reserveCapacity(result.count)
            for row in result { keys.append(layout.keyAndID(row)) }
        } catch {
            readFailure.record(error)
        }
        let source = PostgreSQLKeyListSource(store: store, keys: keys, layout: layout, request: request, failure: readFailure)
        listed = source
        return source
    }

    func objectID(at index: Int) -> ObjectID {
        let keys = self.keys
        return index < keys.count ? keys.objectID(at: index) : ObjectID("")
    }

    func object(at index: Int) -> ManagedObject {
        let keys = self.keys
        guard index < keys.count else {
            return ManagedObject(objectID: ObjectID(""), entityName: layout.table.entity.name, names: AttributeNames([]), values: [],
                                 storage: SQLObjectStorage(store: store, entity: layout.table.entity.name), storageKey: 0)
        }
        return keys.object(at: index)
    }

    func makeCursor() -> any FetchedObjectCursor { keys.makeCursor() }
}
