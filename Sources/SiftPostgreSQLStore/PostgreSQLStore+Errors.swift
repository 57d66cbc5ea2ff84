import SiftPostgreSQL
import SiftStore

/// PostgreSQL's errors as the store's errors: each keeps the server's message and SQLSTATE, under
/// the ``StoreError`` code that says what went wrong for a store.
extension PostgreSQLStore {
    /// The store error for an error of the connection (a `StoreError` stays as it is).
    static func storeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? PostgreSQLError else {
            return StoreError(.database, "PostgreSQL: \(error)")
        }
        let text = "PostgreSQL \(error.sqlState): \(error.message)" + (error.detail.map { " (\($0))" } ?? "")
        switch error.sqlState {
        case "57014": return StoreError(.interrupted, "the fetch was interrupted (\(text))")
        case "40001", "40P01": return StoreError(.conflict, text)
        case "55P03": return StoreError(.locked, text)
        case "25006": return StoreError(.readOnly, text)
        default: break
        }
        switch error.sqlStateClass {
        case "23": return StoreError(.constraintViolation, text)
        case "22": return StoreError(.invalidValue, text)
        case "08": return StoreError(.database, "the connection to PostgreSQL failed: \(error.message)")
        case "28": return StoreError(.database, "PostgreSQL refused the connection: \(error.message)")
        case "3D": return StoreError(.fileSystem, text)
        default: return StoreError(.database, text)
        }
    }
}
