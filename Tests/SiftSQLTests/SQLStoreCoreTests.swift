import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
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
            case .toOne(let name): "to-one \(name)"
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

    /// A row of stored values, as a driver's row reads them.
    struct FakeRow: SQLRowReading {
        let values: [Value]
        func isNull(_ column: Int) -> Bool { if case .null = values[column] { true } else { false } }
        func int64(_ column: Int) -> Int64 { if case .int(let i) = values[column] { i } else { 0 } }
        func text(_ column: Int) -> String { if case .string(let s) = values[column] { s } else { "" } }
        func text(_ column: Int, equals utf8: [UInt8]) -> Bool { if case .string(let s) = values[column] { s.utf8.elementsEqual(utf8) } else { false } }
        func value(_ column: Int, as type: AttributeType?) -> Value { values[column] }
    }

    /// The core's decoder reads each row's key, ID and entity and only its entity's attributes
    /// into one buffer; a row is told from the previous row's entity by its entity column (a
    /// Memo after a Note is a Memo), and an entity the layout does not know has no attributes.
    @Test func rowDecoderDecodesEachRowAsItsOwnEntity() throws {
        let schema = try Self.schema()
        let table = try #require(schema.table(for: "Note"))
        let plan = SQLRowLayoutPlan(table: table, schema: schema, readsEntityColumn: { _ in true })
        let decoder = SQLRowDecoder(plan: plan, decodingType: { $0 }, store: nil)
        let entityIndex = try #require(plan.entityIndex), idIndex = try #require(plan.idIndex)
        let memo = try #require(plan.entities["Memo"])
        func row(_ key: Int64, _ entity: String, _ title: String) -> FakeRow {
            var values = [Value](repeating: .null, count: plan.columns.count)
            values[0] = .int(key)
            values[idIndex] = .string("X\(key)")
            values[entityIndex] = .string(entity)
            values[memo.columns[0]] = .string(title)
            values[memo.columns[1]] = .bool(key == 2)
            values[memo.columns[2]] = .date(Date(timeIntervalSinceReferenceDate: Double(key)))
            return FakeRow(values: values)
        }
        var buffer: [Value] = []
        var decoded: [SQLDecodedRow] = []
        for fake in [row(1, "Note", "a"), row(2, "Memo", "b"), row(3, "Memo", "c"), row(4, "Note", "d"), row(5, "Ghost", "e")] {
            decoded.append(decoder.decode(fake, previous: decoded.last?.entity, appendingTo: &buffer))
        }
        #expect(decoded.map(\.entity.entity) == ["Note", "Memo", "Memo", "Note", "Ghost"])
        #expect(decoded.map(\.entity.isKnown) == [true, true, true, true, false])
        #expect(decoded.map(\.key) == [1, 2, 3, 4, 5])
        #expect(decoded.map(\.id.rawValue) == ["X1", "X2", "X3", "X4", "X5"])
        #expect(decoded.map(\.values.count) == [2, 3, 3, 2, 0])
        let described = { (values: ArraySlice<Value>) in values.map { "\($0)" } }
        #expect(described(buffer[decoded[1].values]) == described([.string("b"), .bool(true), .date(Date(timeIntervalSinceReferenceDate: 2))]))
        #expect(described(buffer[decoded[3].values]) == described([.string("d"), .bool(false)]))
        let (key, id) = decoder.keyAndID(row(7, "Memo", "f"))
        #expect(key == 7 && id.rawValue == "X7")
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
