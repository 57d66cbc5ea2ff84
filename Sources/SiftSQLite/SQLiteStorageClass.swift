import CSQLite

/// The storage class (datatype) of a column or function argument value, as `sqlite3_column_type`
/// and `sqlite3_value_type` report it.
public enum SQLiteStorageClass: Sendable, Hashable {
    case integer
    case real
    case text
    case blob
    case null

    /// The storage class for one of SQLite's fundamental datatype codes.
    @usableFromInline
    init(code: Int32) {
        switch code {
        case SQLITE_INTEGER: self = .integer
        case SQLITE_FLOAT: self = .real
        case SQLITE_TEXT: self = .text
        case SQLITE_BLOB: self = .blob
        default: self = .null
        }
    }
}
