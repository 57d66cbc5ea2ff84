import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// Chooses the attribute types of a database Sift did not create from what its columns hold,
/// not only from what they declare (docs/SQLITE-DATABASES.md). SQLite is dynamically typed: a
/// declared type is a hint (`STRING` is NUMERIC affinity, yet holds text), so a sample of each
/// table is read — the storage classes (`typeof()`) present in each column — and:
///
/// - a column whose values all agree with one kind gets that kind's type, the declared type
///   deciding between close ones (`REAL` holding integers is Double; `BOOL` holding 0 and 1 is
///   Boolean; `NUMERIC(10,2)` or `DECIMAL` holding numbers is Decimal; a date column holding
///   ISO 8601 text, Unix seconds, milliseconds or Julian days is Date, read through `sift_date`);
/// - a column holding values of several kinds is Undefined: each value keeps its own kind, and
///   the compiler tests kinds at run time (``SQLKind/dynamic``);
/// - a column with no values takes its declared type (Undefined without one).
///
/// The sample is bounded: the first and the last ``sampleRows`` rows by key (a table with no
/// more than twice that is read whole). Beyond it, a kind is confirmed by an index on the column
/// (its least and greatest values bound the storage classes, since SQLite orders numbers before
/// text before blobs) or by TEXT affinity (SQLite stores numbers given to such a column as
/// text); a column it cannot confirm reads only values of its kind, others as nil, in SQL and in
/// memory alike (``ForeignColumn/storageClasses``, ``ForeignColumn/readsOnlyZeroOrOne``). So a
/// sample never makes an answer silently wrong: at worst a value of an unexpected kind reads as
/// nil, and `sift schema` says so.
enum ColumnTypeInference {
    /// Rows read at each end of a table to choose its columns' types.
    static let sampleRows = 1_000
    /// The version of these rules: types cached under another version are chosen again
    /// (``ForeignTypeCache``). Raise it whenever a rule changes.
    static let rulesVersion = 1

    /// A table's columns as chosen, and how much of the table was read to choose them.
    struct TableTypes: Sendable, Encodable, Equatable {
        /// By column name.
        var columns: [String: ForeignColumn]
        /// Whether every row was read; else the first and last ``sampleRows`` rows were.
        var isWhole: Bool
        /// The rows could not be read (every column Undefined): not kept in a cache, since the
        /// cause (a lock, a damaged page) may pass.
        var couldNotBeRead = false

        private enum CodingKeys: String, CodingKey { case columns, isWhole }
    }

    /// What was read of a table not read whole, as `sift schema` says it.
    static var sampleDescription: String { "the first and last \(sampleRows) rows" }

    /// The columns of `table`, keyed by column name. Throws only when the reading is interrupted
    /// (``SQLiteStore/interrupt()``): nothing is chosen then. After Sift wrote to the table,
    /// `filter` (a condition on its key) selects the rows it wrote, which are read with the
    /// sample, and `previous` are the types before: a text date form every value was checked to
    /// be in stays checked where the rows read still all have it.
    static func types(of table: ForeignCatalog.Table, in database: SQLiteDatabase, isCoreDataStore: Bool,
                      including filter: String? = nil, previous: TableTypes? = nil) throws(SQLiteError) -> TableTypes {
        var result: [String: ForeignColumn] = [:]
        // The INTEGER PRIMARY KEY is the rowid: always an integer, and read as it is.
        let columns = table.columns.filter { column in
            guard column.name == table.primaryKey else { return true }
            result[column.name] = ForeignColumn(type: .integer64, reason: "declared \(column.declaredType); the row's key")
            return false
        }
        guard !columns.isEmpty else { return TableTypes(columns: result, isWhole: true) }
        var contents: [Contents] = []
        var complete = true
        do {
            // In groups, so a wide table stays within SQLite's limit on result columns.
            var start = 0
            while start < columns.count {
                let group = Array(columns[start..<min(start + 200, columns.count)])
                let (read, whole) = try sample(table, group, including: filter, in: database)
                contents += read
                complete = complete && whole
                start += group.count
            }
        } catch {
            if error.isInterrupted { throw error }
            // A table that cannot be read (a column SQLite cannot read): every value as it is.
            for column in columns { result[column.name] = ForeignColumn(type: .undefined, reason: "its values could not be read: \(error)") }
            return TableTypes(columns: result, isWhole: true, couldNotBeRead: true)
        }
        let indexed = complete ? [] : indexedColumns(of: table.name, in: database)
        for (column, content) in zip(columns, contents) {
            var chosen = choose(declared: column.declaredType, content, isCoreDataStore: isCoreDataStore)
            chosen.normalizesText = content.hasNonNFCText && (chosen.type == .string || chosen.type == .undefined)
            chosen.stripsAffinity = chosen.type == .string && ![.text, .blob].contains(Declared(column.declaredType))
            if let form = chosen.textDates?.form {
                chosen.textDates?.isVerified = complete || previous?.columns[column.name]?.verifiedTextDateForm == form
            }
            if !complete, chosen.type != .undefined, chosen.dateEncoding == nil, !content.classes.isEmpty {
                confirm(&chosen, column: column, sample: content.classes, indexed: indexed.contains(column.name), table: table.name, in: database)
            }
            result[column.name] = chosen
        }
        return TableTypes(columns: result, isWhole: complete)
    }

    /// What a column holds.
    struct Contents {
        /// `integer`, `real`, `text`, `blob` (not `null`).
        var classes: Set<String> = []
        /// The least and greatest number (for BOOL and date columns).
        var numbers: ClosedRange<Double>?
        /// Whether every text value is an ISO 8601 date (date columns only).
        var textIsDates = false
        /// The one ``TextDateForm`` every text value is in, if there is one (date columns only).
        var textDateForm: TextDateForm?
        /// Whether some text is not in NFC.
        var hasNonNFCText = false

        /// What two parts of a table hold together.
        func merged(with other: Contents) -> Contents {
            var result = Contents()
            result.classes = classes.union(other.classes)
            switch (numbers, other.numbers) {
            case (let a?, let b?): result.numbers = min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
            case (let a, let b): result.numbers = a ?? b
            }
            let aText = classes.contains("text"), bText = other.classes.contains("text")
            result.textIsDates = (!aText || textIsDates) && (!bText || other.textIsDates)
            switch (aText, bText) {
            case (true, true): result.textDateForm = textDateForm == other.textDateForm ? textDateForm : nil
            case (true, false): result.textDateForm = textDateForm
            case (false, true): result.textDateForm = other.textDateForm
            case (false, false): result.textDateForm = nil
            }
            result.hasNonNFCText = hasNonNFCText || other.hasNonNFCText
            return result
        }
    }

    /// The declared type's family, by SQLite's affinity rules with Core Data's types first.
    private enum Declared {
        case boolean, date, integer, text, blob, real, decimal, numeric

        init(_ declared: String) {
            let type = declared.uppercased()
            if type.contains("BOOL") { self = .boolean }
            else if type.contains("DATE") || type.contains("TIME") { self = .date }
            else if type.contains("INT") { self = .integer }
            else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { self = .text }
            else if type.contains("BLOB") || type.trimmingCharacters(in: .whitespaces).isEmpty { self = .blob }
            else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { self = .real }
            else if Self.isDecimal(type) { self = .decimal }
            else { self = .numeric }
        }

        /// `DECIMAL`, `DECIMAL(10,2)`, `DEC`, `NUMERIC(10,2)` (a scale above 0): exact numbers.
        private static func isDecimal(_ type: String) -> Bool {
            if type.contains("DEC") { return true }
            guard type.contains("NUMERIC"), let open = type.firstIndex(of: "("), let comma = type[open...].firstIndex(of: ","),
                  let close = type[comma...].firstIndex(of: ")") else { return false }
            let scale = type[type.index(after: comma)..<close].trimmingCharacters(in: .whitespaces)
            return Int(scale).map { $0 > 0 } ?? false
        }

        /// The type when there are no values to go by.
        var typeWithoutValues: AttributeType {
            switch self {
            case .boolean: .boolean
            case .date: .date
            case .integer: .integer64
            case .text: .string
            case .blob: .undefined
            case .decimal: .decimal
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
            // Text of one form compares as text (once every value is known to be of it).
            if classes == ["text"], let form = content.textDateForm {
                column.textDates = ForeignColumn.TextDates(form: form, isVerified: false)
                column.reason = "\(declaration); ISO 8601 text (\(form.pattern))"
            }
            return column
        }
        let type: AttributeType
        if classes == ["integer"] {
            type = family == .decimal ? .decimal : family == .real ? .double : .integer64
        } else if classes.isSubset(of: ["integer", "real"]) {
            type = family == .decimal ? .decimal : .double
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

    /// A type chosen from a sample of a large table: confirmed by an index or by TEXT affinity,
    /// or else read from its own storage classes only (a Boolean from 0 and 1 only).
    private static func confirm(_ column: inout ForeignColumn, column declared: (name: String, declaredType: String), sample: Set<String>,
                                indexed: Bool, table: String, in database: SQLiteDatabase) {
        let classes = storageClasses(of: column.type)
        if indexed, let low = try? database.scalar("SELECT min(\(SQLIdentifier.quoted(declared.name))) FROM \(SQLIdentifier.quoted(table))"),
           let high = try? database.scalar("SELECT max(\(SQLIdentifier.quoted(declared.name))) FROM \(SQLIdentifier.quoted(table))") {
            let ends = Set([low, high].compactMap(storageClass))
            if ends.isSubset(of: classes) {
                guard column.type == .boolean else { return }
                // Every value lies between the least and the greatest: 0 and 1 only, or integers.
                if [low, high].allSatisfy({ $0 == .null || $0 == .integer(0) || $0 == .integer(1) }) { return }
                column = ForeignColumn(type: .integer64, reason: describing(declared.declaredType))
                return
            }
            if ends.union(sample).isSubset(of: ["integer", "real"]) {
                if column.type != .decimal { column.type = .double }
                return
            }
            // Values of another kind lie beyond the rows read: every value keeps its own.
            column = ForeignColumn(type: .undefined, normalizesText: column.normalizesText,
                                   reason: "\(describing(declared.declaredType)); holds \(listing(ends.union(sample)))")
            return
        }
        if column.type == .string, Declared(declared.declaredType) == .text { return }
        if column.type == .boolean {
            column.readsOnlyZeroOrOne = true
            column.reason += "; \(sampleDescription) read, values other than 0 and 1 read as nil"
            return
        }
        column.storageClasses = classes
        column.reason += "; \(sampleDescription) read, values of other kinds read as nil"
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

    /// What `columns` of `table` hold: in one scan of the first ``sampleRows`` + 1 rows by key
    /// (the whole table when that is all of it), else with one more of the last ``sampleRows``.
    /// With `filter`, the rows it selects are read too.
    static func sample(_ table: ForeignCatalog.Table, _ columns: [(name: String, declaredType: String)], including filter: String? = nil,
                       in database: SQLiteDatabase) throws(SQLiteError) -> ([Contents], complete: Bool) {
        let key = table.keyExpression
        let (first, count) = try scan(table.name, columns, order: "\(key) LIMIT \(sampleRows + 1)", in: database)
        guard count > sampleRows else { return (first, true) }
        let (last, _) = try scan(table.name, columns, order: "\(key) DESC LIMIT \(sampleRows)", in: database)
        var contents = zip(first, last).map { $0.merged(with: $1) }
        if let filter {
            let (written, _) = try scan(table.name, columns, where: filter, order: key, in: database)
            contents = zip(contents, written).map { $0.merged(with: $1) }
        }
        return (contents, false)
    }

    /// One scan of the rows `order` (`"id" LIMIT 1001`) picks: each column's storage classes, its
    /// numbers' range and whether its text is dates (and of which form), where the declared
    /// type asks; and how many rows there were.
    static func scan(_ table: String, _ columns: [(name: String, declaredType: String)], where filter: String? = nil, order: String,
                     in database: SQLiteDatabase) throws(SQLiteError) -> ([Contents], count: Int64) {
        // The rows are read here, value by value, not summed up by SQL aggregates: a storage
        // class is a call per value, where an aggregate is a VDBE step (and group_concat(DISTINCT)
        // an ephemeral index) per value — 5 ms of a first command's 14 ms on five columns.
        let selected = columns.map { SQLIdentifier.quoted($0.name) }.joined(separator: ", ")
        let sql = "\(scanComment) SELECT \(selected) FROM \(SQLIdentifier.quoted(table))\(filter.map { " WHERE \($0)" } ?? "") ORDER BY \(order)"
        let statement = try database.prepare(sql)
        let families = columns.map { Declared($0.declaredType) }
        var scans = families.map { ColumnScan(family: $0) }
        var count: Int64 = 0
        while try statement.step() {
            count += 1
            for index in scans.indices { scans[index].read(statement, column: Int32(index)) }
        }
        return (scans.map(\.contents), count)
    }

    /// The comment that starts every scan's SQL: what a trace of the statements shows (a
    /// test counts the tables read for their types by it).
    static let scanComment = "/* sift: column types */"

    /// What one column's values are, read one by one: the storage classes, the numbers' range
    /// (BOOL and date columns), the text's date forms (date columns), and whether some text
    /// is not in NFC.
    private struct ColumnScan {
        let family: Declared
        var found = Contents()
        /// The least and greatest ``TextDateForm`` raw value of the text (0: no date; 6: another
        /// ISO 8601 spelling).
        var forms: ClosedRange<Int>?

        init(family: Declared) {
            self.family = family
        }

        mutating func read(_ statement: SQLiteStatement, column: Int32) {
            switch statement.columnType(column) {
            case .null: return
            case .integer:
                found.classes.insert("integer")
                if family == .boolean || family == .date { include(Double(statement.int64(column))) }
            case .real:
                found.classes.insert("real")
                if family == .boolean || family == .date { include(statement.double(column)) }
            case .blob:
                found.classes.insert("blob")
            case .text:
                found.classes.insert("text")
                statement.withUTF8(column) { bytes in
                    // Text of printable ASCII alone is in NFC; other text is asked.
                    if !found.hasNonNFCText, bytes.contains(where: { $0 < 0x20 || $0 > 0x7E }) {
                        let text = String(decoding: bytes, as: UTF8.self)
                        found.hasNonNFCText = !StringFolding.nfc(text).utf8.elementsEqual(bytes)
                    }
                    guard family == .date else { return }
                    let form = TextDateForm.of(bytes: bytes).map(\.rawValue)
                        ?? (ISO8601.date(from: String(decoding: bytes, as: UTF8.self)) == nil ? 0 : 6)
                    forms = forms.map { min($0.lowerBound, form)...max($0.upperBound, form) } ?? form...form
                }
            }
        }

        private mutating func include(_ number: Double) {
            found.numbers = found.numbers.map { min($0.lowerBound, number)...max($0.upperBound, number) } ?? number...number
        }

        /// The contents, the text's dates judged.
        var contents: Contents {
            var result = found
            guard family == .date else { return result }
            if let forms {
                result.textIsDates = forms.lowerBound > 0
                if forms.lowerBound == forms.upperBound { result.textDateForm = TextDateForm(rawValue: forms.lowerBound) }
            } else {
                result.textIsDates = true
            }
            return result
        }
    }

    /// The columns that lead an index (so their least and greatest values are cheap to read).
    static func indexedColumns(of table: String, in database: SQLiteDatabase) -> Set<String> {
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
