import Foundation
import PostgreSQLTestSupport
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftEvaluation
import SiftStore

/// A database of its own for one test, with a PostgreSQL store made in it for a model: each test
/// is independent of the others (they run concurrently).
struct StoreTestDatabase {
    let database: PostgreSQLTestDatabase
    let store: PostgreSQLStore

    /// A new database holding an empty store of `model`.
    static func make(_ model: DataModel, label: String = "store") async throws -> StoreTestDatabase {
        let database = try await PostgreSQLTestServer.makeDatabase(label)
        let store = try PostgreSQLStore.create(connection: try database.connect(), model: model)
        return StoreTestDatabase(database: database, store: store)
    }

    /// The store opened again through a new connection (what another process would see).
    func reopened() throws -> PostgreSQLStore {
        try PostgreSQLStore.open(connection: try database.connect())
    }

    /// A new connection to the database.
    func connect() throws -> PostgreSQLConnection { try database.connect() }
}

/// The models the tests use.
enum StoreTestModels {
    /// `Item` with an attribute of every type PostgreSQL holds.
    static let everyType: DataModel = model("""
        {"name": "Types", "entities": [{"name": "Item", "attributes": [
          {"name": "i16", "type": "integer16"}, {"name": "i32", "type": "integer32"}, {"name": "i64", "type": "integer64"},
          {"name": "d", "type": "double"}, {"name": "f", "type": "float"}, {"name": "dec", "type": "decimal"},
          {"name": "s", "type": "string"}, {"name": "u", "type": "uri"}, {"name": "date", "type": "date"},
          {"name": "bin", "type": "binary"}, {"name": "uuid", "type": "uuid"}, {"name": "b", "type": "boolean"}
        ]}]}
        """)

    /// Folders holding notes, a required title, a cascade from Folder to its notes, a sub-entity.
    static let notes: DataModel = model("""
        {"name": "Notes", "entities": [
          {"name": "Folder", "attributes": [{"name": "name", "type": "string", "optional": false}],
           "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "inverse": "folder", "deleteRule": "cascade"}]},
          {"name": "Note", "attributes": [{"name": "title", "type": "string", "optional": false}, {"name": "rank", "type": "integer64"}],
           "relationships": [{"name": "folder", "destination": "Folder", "inverse": "notes"},
                             {"name": "tags", "destination": "Tag", "toMany": true, "ordered": true}]},
          {"name": "Memo", "parent": "Note", "attributes": [{"name": "pinned", "type": "boolean"}]},
          {"name": "Tag", "attributes": [{"name": "label", "type": "string"}], "uniquenessConstraints": [["label"]]}
        ]}
        """)

    static func model(_ json: String) -> DataModel {
        do {
            return try JSONModelFormat.read(Data(json.utf8))
        } catch {
            preconditionFailure("test model: \(error)")
        }
    }
}

/// Whether two values are the same value, bit for bit (a double's sign and NaN included).
func same(_ a: Value?, _ b: Value?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (.double(let x)?, .double(let y)?): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
    case (.date(let x)?, .date(let y)?): return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
    case (.decimal(let x)?, .decimal(let y)?): return x == y
    case (.data(let x)?, .data(let y)?): return x == y
    case (.uuid(let x)?, .uuid(let y)?): return x == y
    case (.int(let x)?, .int(let y)?): return x == y
    case (.bool(let x)?, .bool(let y)?): return x == y
    case (.string(let x)?, .string(let y)?): return x == y
    case (.null?, .null?): return true
    default: return false
    }
}
