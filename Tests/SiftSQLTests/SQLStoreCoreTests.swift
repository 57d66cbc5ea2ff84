import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftStore
import Testing

/// The pieces of the SQL stores' core (`SiftSQLStore`) that both stores use, checked without an
/// engine: the row layout plan and the fetched objects' storage.
@Suite struct SQLStoreCoreTests {
    static let model = #"""
    {"entities": [
      {"name": "Folder", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "inverse": "folder"}]},
      {"name": "Note", "attributes": [{"name": "title", "type": "String"}, {"name": "pinned", "type": "Boolean"}],
       "relationships": [{"name": "folder", "destination": "Folder", "inverse": "notes"}]},
      {"name": "Memo", "parent": "Note", "attributes": [{"name": "due", "type": "Date"}]}
    ]}
    """#

    static func schema() throws -> SQLSchema {
        try SQLSchema.forModel(try JSONModelFormat.read(Data(model.utf8)))
    }

    /// What the plan selects, in order: key, ID, the entity column when the store reads it,
    /// then each attribute column once; each entity decodes only its own attributes.
    @Test(arguments: [true, false])
    func rowLayoutPlanSelectsEachColumnOnce(readsEntityColumn: Bool) throws {
        let schema = try Self.schema()
        let table = try #require(schema.table(for: "Note"))
        let plan = SQLRowLayoutPlan(table: table, schema: schema, readsEntityColumn: { _ in readsEntityColumn })
        let names = plan.columns.map { column -> String in
            switch column {
            case .key(let name): "key \(name)"
            case .id(let name): "id \(name)"
            case .entity(let name): "entity \(name)"
            case .attribute(_, let name): name
            }
        }
        let head = ["key \(SQLSchema.primaryKeyColumn)", "id \(SQLSchema.idColumn)"] + (readsEntityColumn ? ["entity \(SQLSchema.entityColumn)"] : [])
        #expect(Array(names.prefix(head.count)) == head)
        #expect(plan.idIndex == 1)
        #expect(plan.entityIndex == (readsEntityColumn ? 2 : nil))
        // title, pinned and due, each once (a Memo's title is the Note's column).
        #expect(names.count == head.count + 3)
        #expect(Set(names.dropFirst(head.count)).count == 3)
        let note = try #require(plan.entities["Note"]), memo = try #require(plan.entities["Memo"])
        #expect(note.names == ["title", "pinned"])
        #expect(memo.names == ["title", "pinned", "due"])
        #expect(memo.columns.prefix(2) == note.columns[...])
        #expect(memo.types == [.string, .boolean, .date])
        #expect(plan.entities["Folder"] == nil)
    }

    /// A store that counts the relationship reads the storage asks of it.
    final class CountingStore: SQLObjectReadingStore, @unchecked Sendable {
        let lock = NSRecursiveLock()
        var generation: UInt64 = 0
        let schema: SQLSchema
        var reads = 0

        init() throws { schema = try SQLStoreCoreTests.schema() }

        func destinations(of relationship: RelationshipDescription, from table: EntityTable, key: Int64) throws -> [ManagedObject] {
            reads += 1
            return []
        }
    }

    static func note(_ key: Int64, _ storage: SQLObjectStorage) -> ManagedObject {
        ManagedObject(objectID: ObjectID("N\(key)"), entityName: "Note", names: AttributeNames([]), values: [], storage: storage, storageKey: key)
    }

    /// Prefetched destinations answer from memory until the store's generation changes; the
    /// SQLite store's `setPrefetched` adds to a relationship's owners, the PostgreSQL store's
    /// `replacePrefetched` keeps only the last batch's.
    @Test func prefetchedDestinationsLastUntilTheRowsChange() throws {
        let store = try CountingStore()
        let folders = SQLObjectStorage(store: store, entity: "Folder")
        let notes = SQLObjectStorage(store: store, entity: "Note")
        let folder = ManagedObject(objectID: ObjectID("F1"), entityName: "Folder", names: AttributeNames([]), values: [], storage: folders, storageKey: 1)
        folders.setPrefetched("notes", [1: [Self.note(10, notes), Self.note(11, notes)]])
        folders.setPrefetched("notes", [2: []])
        #expect(folders.prefetchedDestinations("notes", of: 1)?.map(\.objectID.rawValue) == ["N10", "N11"])
        #expect(folders.prefetchedDestinations("notes", of: 2)?.isEmpty == true)
        guard case .set(let read) = try folders.value(forKey: "notes", of: folder) else {
            Issue.record("a to-many is not a set")
            return
        }
        #expect(Set(read.compactMap { value -> String? in
            guard case .object(let object) = value else { return nil }
            return (object as? ManagedObject)?.objectID.rawValue
        }) == ["N10", "N11"])
        #expect(folders.destinationCount("notes", of: folder) == 2)
        #expect(store.reads == 0)

        folders.replacePrefetched("notes", [2: [Self.note(12, notes)]])
        #expect(folders.prefetchedDestinations("notes", of: 1) == nil)
        #expect(folders.prefetchedDestinations("notes", of: 2)?.count == 1)

        folders.setPrefetchedCounts("notes", [1: 7])
        #expect(folders.destinationCount("notes", of: folder) == 7)
        // A change: nothing prefetched before it answers; the row is read.
        store.generation += 1
        #expect(folders.prefetchedDestinations("notes", of: 2) == nil)
        #expect(folders.prefetchedCount("notes", of: 1) == nil)
        #expect(folders.destinationCount("notes", of: folder) == 0)
        #expect(store.reads == 1)

        folders.setPrefetched("notes", [1: [Self.note(13, notes)]])
        folders.clearPrefetched()
        #expect(folders.prefetchedDestinations("notes", of: 1) == nil)
    }
}
