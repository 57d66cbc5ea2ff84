import SiftSQL
import SiftSQLStore
import SiftSQLite

/// Which tables' column types a committed write to a database Sift did not create may have
/// changed (a write can change what a column holds: text stored into an INTEGER column, a date
/// into a column that held none), for ``ForeignSchema/committed(rechosen:dropped:in:)``:
///
/// - the tables it wrote: their types are chosen again from their sample and the rows written
///   (``rechosen``: table → the condition selecting those rows; nil where it only deleted);
/// - the tables the database changed itself — the rows referring to changed rows through a
///   foreign key with an ON DELETE or ON UPDATE action (CASCADE, SET NULL, SET DEFAULT), and,
///   when a changed table has a trigger, every table (a trigger may write anywhere): their
///   types are read again when next needed (``dropped``).
struct ForeignWriteEffects {
    private(set) var rechosen: [String: String?] = [:]
    private(set) var dropped: Set<String> = []

    init(_ writes: ForeignWrites, catalog: ForeignCatalog, in database: SQLiteDatabase) {
        var direct: Set<String> = writes.deletedFrom
        for table in catalog.tables where writes.filter(of: table.name, key: table.keyExpression) != nil { direct.insert(table.name) }
        for name in direct {
            let key = catalog.table(named: name)?.keyExpression ?? "rowid"
            rechosen[name] = .some(writes.filter(of: name, key: key))
        }
        // Foreign key actions, followed as far as they reach.
        var changed = Set(direct.map { $0.lowercased() })
        let actions: [(child: String, parent: String)] = catalog.tables.flatMap { table -> [(child: String, parent: String)] in
            let rows = (try? database.rows(#"SELECT "table", "on_update", "on_delete" FROM pragma_foreign_key_list(?1)"#, [.text(table.name)])) ?? []
            return rows.compactMap { row in
                guard case .text(let parent) = row[0] else { return nil }
                let acts = [row[1], row[2]].contains { value in
                    if case .text(let action) = value { return ["CASCADE", "SET NULL", "SET DEFAULT"].contains(action.uppercased()) }
                    return false
                }
                return acts ? (table.name, parent.lowercased()) : nil
            }
        }
        var grew = true
        while grew {
            grew = false
            for action in actions where changed.contains(action.parent) && !changed.contains(action.child.lowercased()) {
                changed.insert(action.child.lowercased())
                grew = true
            }
        }
        let triggered = Set(((try? database.rows(#"SELECT DISTINCT "tbl_name" FROM sqlite_schema WHERE "type" = 'trigger'"#)) ?? []).compactMap { row -> String? in
            if case .text(let name) = row[0] { return name.lowercased() }
            return nil
        })
        let everything = !triggered.isDisjoint(with: changed)
        for table in catalog.tables where !direct.contains(table.name) && (everything || changed.contains(table.name.lowercased())) {
            dropped.insert(table.name)
        }
    }
}
