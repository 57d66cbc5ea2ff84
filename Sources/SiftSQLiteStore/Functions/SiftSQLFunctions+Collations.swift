import SiftEvaluation
import SiftSQL
import SiftSQLStore
import SiftSQLite

extension SiftSQLFunctions {
    /// One collation per comparator but `.compare`, each `StringComparator.compare` on the decoded
    /// strings.
    static func registerCollations(on database: SQLiteDatabase) throws(SQLiteError) {
        for comparator in StringComparator.allCases {
            guard let name = collationName(for: comparator) else { continue }
            try database.createCollation(name) { a, b in
                Int32(comparator.compare(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self)))
            }
        }
    }
}
