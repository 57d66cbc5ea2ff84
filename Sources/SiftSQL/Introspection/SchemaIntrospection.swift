import SiftSQLite
import SiftStore

/// Reads a database Sift did not create into a model and a schema (FETCH.md §1).
enum SchemaIntrospection {
    static func schema(of database: SQLiteDatabase, name: String) throws -> SQLSchema {
        throw StoreError(.unsupportedModel, "opening SQLite databases not created by Sift is not built yet")
    }
}
