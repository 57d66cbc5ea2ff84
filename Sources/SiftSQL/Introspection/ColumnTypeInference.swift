import SiftSQLite
import SiftStore

/// Chooses the attribute types of a database Sift did not create from what its columns hold,
/// not only from what they declare (docs/SQLITE-DATABASES.md). SQLite is dynamically typed: a
/// declared type is a hint (`STRING` is NUMERIC affinity, yet holds text), so one scan per table
/// reads the storage classes (`typeof()`) present in each column, and:
///
/// - a column whose values all agree with one kind gets that kind's type, the declared type
///   deciding between close ones (`REAL` holding integers is Double; `BOOL` holding 0 and 1 is
///   Boolean; a date column holding ISO 8601 text, Unix seconds, milliseconds or Julian days is
///   Date, read through `sift_date`);
/// - a column holding values of several kinds is Undefined: each value keeps its own kind, and
///   the compiler tests kinds at run time (``SQLKind/dynamic``);
/// - a column with no values takes its declared type (Undefined without one).
///
/// Only the first ``rowLimit`` rows of a table are scanned. Beyond that, a kind is confirmed by
/// an index on the column (its least and greatest values bound the storage classes, since SQLite
/// orders numbers before text before blobs) or by TEXT affinity (SQLite stores numbers given to
/// such a column as text); a column it cannot confirm reads only values of its kind, others as
/// nil, in SQL and in memory alike (``ForeignColumn/storageClasses``).
enum ColumnTypeInference {
    /// Rows of each table read to choose its columns' types.
    static let rowLimit = 100_000

    /// The columns of `table`, keyed by column name.
    static func columns(of table: String, _ allColumns: [(name: String, declaredType: String)], key: String, in database: SQLiteDatabase,
                        isCoreDataStore: Bool) -> [String: ForeignColumn] {
        var result: [String: ForeignColumn] = [:]
        // The INTEGER PRIMARY KEY is the rowid: always an integer, and read as it is.
        let columns = allColumns.filter { column in
            guard column.name == key else { return true }
            result[column.name] = ForeignColumn(type: .integer64, reason: "declared \(column.declaredType); the row's key")
            return false
        }
        guard !columns.isEmpty else { return result }
        var contents: [Contents] = []
        var complete = true
        do {
            // In groups, so a wide table stays within SQLite's limit on result columns.
            var start = 0
            while start < columns.count {
                let group = Array(columns[start..<min(start + 200, columns.count)])
                let (read, whole) = try scan(table, group, in: database)
                contents += read
                complete = complete && whole
                start += group.count
            }
        } catch {
            // A table that cannot be scanned (a column SQLite cannot read): every value as it is.
            for column in columns { result[column.name] = ForeignColumn(type: .undefined, reason: "its values could not be read: \(error)") }
            return result
        }
        let indexed = complete ? [] : indexedColumns(of: table, in: database)
        for (column, content) in zip(columns, contents) {
            var chosen = choose(declared: column.declaredType, content, isCoreDataStore: isCoreDataStore)
            chosen.normalizesText = content.hasNonNFCText && (chosen.type == .string || chosen.type == .undefined)
            chosen.stripsAffinity = chosen.type == .string && ![.text, .blob].contains(Declared(column.declaredType))
            if !complete, chosen.type != .undefined, chosen.dateEncoding == nil, !content.classes.isEmpty {
                confirm(&chosen, column: column, sample: content.classes, indexed: indexed.contains(column.name), table: table, in: database)
            }
            result[column.name] = chosen
        }
        return result
    }

    /// What a column holds.
    struct Contents {
        /// `integer`, `real`, `text`, `blob` (not `null`).
        var classes: Set<String> = []
        /// The least and greatest number (for BOOL and date columns).
        var numbers: ClosedRange<Double>?
        /// Whether every text value is an ISO 8601 date (date columns only).
        var textIsDates = false
        /// Whether some text is not in NFC.
        var hasNonNFCText = false
    }

    /// The declared type's family, by SQLite's affinity rules with Core Data's types first.
    private enum Declared {
        case boolean, date, integer, text, blob, real, numeric

        init(_ declared: String) {
            let type = declared.uppercased()
            if type.contains("BOOL") { self = .boolean }
            else if type.contains("DATE") || type.contains("TIME") { self = .date }
            else if type.contains("INT") { self = .integer }
            else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { self = .text }
            else if type.contains("BLOB") || type.trimmingCharacters(in: .whitespaces).isEmpty { self = .blob }
            else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { self = .real }
            else { self = .numeric }
        }

        /// The type when there are no values to go by.
        var typeWithoutValues: AttributeType {
            switch self {
            case .boolean: .boolean
            case .date: .date
            case .integer: .integer64
            case .text: .string
            case .blob: .undefined
            case .real, .numeric: .double
            }
        }
    }

    // MARK: Choosing

    static func choose(declared: String, _ content: Contents, isCoreDataStore: Bool) -> ForeignColumn {
        let family = Declared(declared)
        let declaration = describing(declared)
        let classes = content.classes
        if classes.isEmpty {
            var column = ForeignColumn(type: family.typeWithoutValues, reason: "\(declaration); no values")
            if family == .date, !isCoreDataStore { column.dateEncoding = .unixSeconds }
            return column
        }
        if family == .boolean, classes == ["integer"], let numbers = content.numbers, numbers.lowerBound >= 0, numbers.upperBound <= 1 {
            return ForeignColumn(type: .boolean, reason: declaration)
        }
        if family == .date, classes.isSubset(of: ["integer", "real", "text"]), !classes.contains("text") || content.textIsDates {
            var details: [String] = []
            if classes.contains("text") { details.append("ISO 8601 text") }
            var encoding = ForeignDateEncoding.unixSeconds
            if let numbers = content.numbers {
                encoding = isCoreDataStore ? .referenceSeconds : ForeignDateEncoding.guess(low: numbers.lowerBound, high: numbers.upperBound)
                details.append(encoding.summary)
            }
            var column = ForeignColumn(type: .date, reason: "\(declaration); \(details.joined(separator: " and "))")
            // Core Data's own layout is read as it is (an index on it serves).
            if classes.contains("text") || encoding != .referenceSeconds { column.dateEncoding = encoding }
            return column
        }
        let type: AttributeType
        if classes == ["integer"] {
            type = family == .real || family == .numeric && declared.uppercased().contains("DEC") ? .double : .integer64
        } else if classes.isSubset(of: ["integer", "real"]) {
            type = .double
        } else if classes == ["text"] {
            type = .string
        } else if classes == ["blob"] {
            type = .binary
        } else {
            return ForeignColumn(type: .undefined, reason: "\(declaration); holds \(listing(classes))")
        }
        return ForeignColumn(type: type, reason: declaration)
    }

    /// `declared STRING`, or `no declared type`: how a reason starts.
    private static func describing(_ declared: String) -> String {
        declared.trimmingCharacters(in: .whitespaces).isEmpty ? "no declared type" : "declared \(declared)"
    }

    /// Storage classes in SQLite's order: `integer, text`.
    private static func listing(_ classes: Set<String>) -> String {
        ["integer", "real", "text", "blob"].filter(classes.contains).joined(separator: ", ")
    }

    /// The storage classes values of `type` are held in.
    private static func storageClasses(of type: AttributeType) -> [String] {
        switch type {
        case .string: ["text"]
        case .binary: ["blob"]
        case .boolean, .integer16, .integer32, .integer64: ["integer"]
        default: ["integer", "real"]
        }
    }

    /// A type chosen from the first rows of a large table: confirmed by an index or by TEXT
    /// affinity, or else read from its own storage classes only.
    private static func confirm(_ column: inout ForeignColumn, column declared: (name: String, declaredType: String), sample: Set<String>,
                                indexed: Bool, table: String, in database: SQLiteDatabase) {
        let classes = storageClasses(of: column.type)
        if indexed, let low = try? database.scalar("SELECT min(\(SQLIdentifier.quoted(declared.name))) FROM \(SQLIdentifier.quoted(table))"),
           let high = try? database.scalar("SELECT max(\(SQLIdentifier.quoted(declared.name))) FROM \(SQLIdentifier.quoted(table))") {
            let ends = Set([low, high].compactMap(storageClass))
            if ends.isSubset(of: classes) { return }
            if ends.union(sample).isSubset(of: ["integer", "real"]) {
                column.type = .double
                return
            }
            // Values of another kind lie beyond the rows read: every value keeps its own.
            column = ForeignColumn(type: .undefined, normalizesText: column.normalizesText,
                                   reason: "\(describing(declared.declaredType)); holds \(listing(ends.union(sample)))")
            return
        }
        if column.type == .string, Declared(declared.declaredType) == .text { return }
        column.storageClasses = classes
        column.reason += "; the first \(rowLimit) rows read, values of other kinds read as nil"
    }

    private static func storageClass(_ value: SQLiteValue) -> String? {
        switch value {
        case .null: nil
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }

    // MARK: Reading the table

    /// One scan of (at most) the first `rowLimit + 1` rows: each column's storage classes, its
    /// numbers' range and whether its text is dates (where the declared type asks), and whether
    /// the whole table was read.
    static func scan(_ table: String, _ columns: [(name: String, declaredType: String)],
                     in database: SQLiteDatabase) throws(SQLiteError) -> ([Contents], complete: Bool) {
        var terms: [String] = []
        var selected: [String] = []
        for (index, column) in columns.enumerated() {
            let c = "c\(index)"
            selected.append("\(SQLIdentifier.quoted(column.name)) AS \(c)")
            terms.append("group_concat(DISTINCT typeof(\(c)))")
            // (Only text with a byte outside printable ASCII can be other than NFC; CASE asks
            // the Swift function about that text alone.)
            terms.append("max(CASE WHEN typeof(\(c)) = 'text' AND \(c) GLOB '*[^ -~]*' THEN \(SiftSQLFunctions.nfcFunction)(\(c)) IS NOT \(c) END)")
            let family = Declared(column.declaredType)
            if family == .boolean || family == .date {
                terms.append("min(CASE WHEN typeof(\(c)) IN ('integer', 'real') THEN \(c) END)")
                terms.append("max(CASE WHEN typeof(\(c)) IN ('integer', 'real') THEN \(c) END)")
            }
            if family == .date {
                terms.append("sum(CASE WHEN typeof(\(c)) = 'text' THEN \(SiftSQLFunctions.dateFunction)(\(c), 'unix') IS NULL END)")
            }
        }
        let sql = "SELECT count(*), \(terms.joined(separator: ", ")) FROM (SELECT \(selected.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table)) LIMIT \(rowLimit + 1))"
        guard let row = try database.rows(sql).first else { return (columns.map { _ in Contents() }, true) }
        var complete = true
        if case .integer(let count) = row[0] { complete = count <= rowLimit }
        var position = 1
        var contents: [Contents] = []
        for column in columns {
            var content = Contents()
            if case .text(let list) = row[position] {
                content.classes = Set(list.split(separator: ",").map(String.init)).subtracting(["null"])
            }
            content.hasNonNFCText = row[position + 1] == .integer(1)
            position += 2
            let family = Declared(column.declaredType)
            if family == .boolean || family == .date {
                if let low = number(row[position]), let high = number(row[position + 1]) { content.numbers = low...high }
                position += 2
            }
            if family == .date {
                content.textIsDates = row[position] == .integer(0) || row[position] == .null
                position += 1
            }
            contents.append(content)
        }
        return (contents, complete)
    }

    private static func number(_ value: SQLiteValue) -> Double? {
        switch value {
        case .integer(let i): Double(i)
        case .real(let d): d
        default: nil
        }
    }

    /// The columns that lead an index (so their least and greatest values are cheap to read).
    private static func indexedColumns(of table: String, in database: SQLiteDatabase) -> Set<String> {
        guard let indexes = try? database.rows(#"SELECT "name" FROM pragma_index_list(?1)"#, [.text(table)]) else { return [] }
        var columns: Set<String> = []
        for index in indexes {
            guard case .text(let name) = index[0],
                  let first = try? database.rows(#"SELECT "name" FROM pragma_index_info(?1) WHERE "seqno" = 0"#, [.text(name)]).first,
                  case .text(let column) = first[0] else { continue }
            columns.insert(column)
        }
        return columns
    }
}
