import SiftEvaluation
import SiftSQLite

extension SiftSQLFunctions {
    /// The collation that orders like `comparator` (`ORDER BY x COLLATE name`), or nil for
    /// `.compare`, which is SQLite's own `BINARY`: UTF-8 byte order, which on NFC text is
    /// `compare`'s code-point order.
    public static func collationName(for comparator: StringComparator) -> String? {
        switch comparator {
        case .compare: nil
        case .caseInsensitiveCompare: "sift_case_insensitive"
        case .localizedCompare: "sift_localized"
        case .localizedCaseInsensitiveCompare: "sift_localized_case_insensitive"
        case .localizedStandardCompare: "sift_localized_standard"
        }
    }

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
