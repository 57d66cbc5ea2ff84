import CSQLite
import Foundation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// The database's own rules, broken by a change to a database Sift did not create, as the
/// store's typed errors (the codes every store uses), naming the table, the object and the
/// column — never SQLite's message alone:
///
///     Album 'Album/348': Title cannot be nil (Album.Title is NOT NULL)
///     Teams 'Teams/2990' has the same yearID, teamID as 'Teams/12' (a UNIQUE constraint of Teams)
///     cannot delete the Artist row with ArtistId = 1: Album 'Album/1' still refers to it (Album.ArtistId REFERENCES Artist(ArtistId))
///     Album 'Album/348': ArtistId 9999 names no Artist (Album.ArtistId REFERENCES Artist(ArtistId))
extension ForeignRowObjects {
    /// SQLite's extended result codes for constraints (`SQLITE_CONSTRAINT_…`; their macros are
    /// not imported into Swift).
    enum Constraint {
        static let check: Int32 = 19 | (1 << 8)
        static let foreignKey: Int32 = 19 | (3 << 8)
        static let notNull: Int32 = 19 | (5 << 8)
        static let primaryKey: Int32 = 19 | (6 << 8)
        static let trigger: Int32 = 19 | (7 << 8)
        static let unique: Int32 = 19 | (8 << 8)
        static let rowID: Int32 = 19 | (10 << 8)
        static let dataType: Int32 = 19 | (12 << 8)
    }

    /// A failed statement of a change, as the store reports it.
    func failure(_ error: any Error, _ write: ForeignWrite) -> StoreError {
        if let error = error as? SQLiteError, error.message.hasPrefix("foreign key mismatch") {
            return StoreError(.database, "the database declares a foreign key SQLite cannot check (SQLite: \(error.message)): the columns it refers to are "
                              + "neither their table's PRIMARY KEY nor UNIQUE. Sift's changes keep the database's foreign keys, so these tables "
                              + "change once the declaration is fixed (a UNIQUE index on the columns referred to)")
        }
        guard let error = error as? SQLiteError, error.isConstraintViolation else { return SQLiteStore.storeError(error, file: file) }
        let (position, key) = write.row
        let entity = model.entities[position]
        let table = tables[position]
        let id = table.objectID(key)
        if case .delete(_, let keys) = write {
            if error.code == Constraint.foreignKey, let referring = referringRow(toRowsOf: position, keys: keys) { return referring }
            let what = keys.count == 1 ? "\(entity.name) '\(id)'" : "\(keys.count) \(entity.name) objects"
            let code: StoreError.Code = error.code == Constraint.foreignKey || error.code == Constraint.trigger ? .deleteDenied : .constraintViolation
            let reason = error.code == Constraint.trigger ? "a trigger of the database refused it: \(error.message)" : "the database refused it (SQLite: \(error.message))"
            return StoreError(code, "cannot delete \(what): \(reason)", entity: entity.name, objectID: id)
        }
        let subject = "\(entity.name) '\(id)'"
        switch error.code {
        case Constraint.notNull:
            let (owner, column) = constrained(error.message).first ?? (table.table, "?")
            let property = propertyName(of: column, in: owner) ?? column
            return StoreError(.missingValue, "\(subject): \(property) cannot be nil (\(owner).\(column) is NOT NULL)",
                              entity: entity.name, objectID: id, key: property)
        case Constraint.primaryKey, Constraint.rowID, Constraint.unique:
            let columns = constrained(error.message).filter { $0.table == table.table }.map(\.column)
            if case .insert = write, error.code == Constraint.rowID || columns == [table.keyName] {
                return Self.duplicateID(id, entity: entity.name)
            }
            let properties = columns.map { propertyName(of: $0, in: table.table) ?? $0 }
            let twin = self.twin(of: write, columns: columns).map { "'\($0)'" } ?? "another row"
            return StoreError(.constraintViolation, "\(subject) has the same \(properties.joined(separator: ", ")) as \(twin) (a UNIQUE constraint of \(table.table))",
                              entity: entity.name, objectID: id, key: properties.first)
        case Constraint.check:
            let detail = error.message.hasPrefix("CHECK constraint failed: ") ? String(error.message.dropFirst("CHECK constraint failed: ".count)) : error.message
            return StoreError(.constraintViolation, "\(subject): the change breaks the CHECK constraint \(detail) of \(table.table)",
                              entity: entity.name, objectID: id, key: write.column.flatMap { propertyName(of: $0, in: table.table) })
        case Constraint.trigger:
            return StoreError(.constraintViolation, "\(subject): a trigger of the database refused the change: \(error.message)",
                              entity: entity.name, objectID: id)
        case Constraint.dataType:
            return StoreError(.invalidValue, "\(subject): \(error.message) (\(table.table) is a STRICT table)", entity: entity.name, objectID: id)
        case Constraint.foreignKey:
            // A parent key changed under rows that refer to it, with ON UPDATE RESTRICT.
            if let referring = referringRow(toRowsOf: position, keys: [key]) { return referring }
            return StoreError(.constraintViolation, "\(subject): the change breaks a FOREIGN KEY constraint of the database", entity: entity.name, objectID: id)
        default:
            return StoreError(.constraintViolation, "\(subject): the change breaks a constraint of the database (SQLite: \(error.message))",
                              entity: entity.name, objectID: id)
        }
    }

    /// The first row left referring to no row by the transaction's changes, as an error:
    /// checked when the changes are saved (foreign keys are deferred to then). Nil when every
    /// foreign key holds.
    func brokenForeignKey() -> StoreError? {
        var pending: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(database.handle, SQLITE_DBSTATUS_DEFERRED_FKS, &pending, &highest, 0)
        guard pending > 0 else { return nil }
        // The tables written, and those referring to them (whose rows a delete or a changed
        // key may leave dangling).
        let written = Set((Array(writes.rows.keys) + Array(writes.deletedFrom)).map { $0.lowercased() })
        let candidates = foreign.catalog.tables.filter { table in
            if written.contains(table.name.lowercased()) { return true }
            let parents = (try? database.rows(#"SELECT "table" FROM pragma_foreign_key_list(?1)"#, [.text(table.name)])) ?? []
            return parents.contains { if case .text(let parent) = $0[0] { written.contains(parent.lowercased()) } else { false } }
        }
        for table in candidates {
            guard let row = try? database.rows(#"SELECT "rowid", "parent", "fkid" FROM pragma_foreign_key_check(?1) LIMIT 1"#, [.text(table.name)]).first,
                  case .integer(let rowID) = row[0], case .text(let parent) = row[1], case .integer(let keyID) = row[2] else { continue }
            let pairs = (try? database.rows(#"SELECT "from", "to", "on_delete" FROM pragma_foreign_key_list(?1) WHERE "id" = ?2 ORDER BY "seq""#,
                                            [.text(table.name), .integer(keyID)])) ?? []
            let from = pairs.compactMap { if case .text(let name) = $0[0] { name } else { nil } }
            let to = pairs.compactMap { if case .text(let name) = $0[1] { name } else { nil } }
            var action = ""
            if case .text(let rule)? = pairs.first?[2], rule != "NO ACTION" { action = " ON DELETE \(rule)" }
            let declaration = "\(table.name).\(from.joined(separator: ", ")) REFERENCES \(parent)\(to.isEmpty ? "" : "(\(to.joined(separator: ", ")))")\(action)"
            let child = tables.first { $0.table == table.name }
            let subject = child.map { "\($0.table) '\($0.objectID(rowID))'" } ?? "a row of \(table.name)"
            let held = from.map { column in
                Self.spelled((try? database.scalar("SELECT \(SQLIdentifier.quoted(column)) FROM \(SQLIdentifier.quoted(table.name)) WHERE rowid = ?1", [.integer(rowID)])) ?? .null)
            }
            let values = zip(from, held).map { "\($0) = \($1)" }.joined(separator: ", ")
            let key = from.first.flatMap { propertyName(of: $0, in: table.name) }
            if writes.deletedFrom.contains(where: { $0.lowercased() == parent.lowercased() }) {
                let parentRow = to.count == held.count ? zip(to, held).map { "\($0) = \($1)" }.joined(separator: ", ") : values
                return StoreError(.deleteDenied, "cannot delete the \(parent) row with \(parentRow): \(subject) still refers to it (\(declaration))",
                                  entity: child?.table, objectID: child?.objectID(rowID), key: key)
            }
            return StoreError(.unknownObject, "\(subject): \(values) names no \(parent) (\(declaration))",
                              entity: child?.table, objectID: child?.objectID(rowID), key: key)
        }
        return StoreError(.constraintViolation, "the changes break a FOREIGN KEY constraint of the database")
    }

    /// A row of another table that refers to one of `keys` of the table at `position` through
    /// a foreign key, as the error that keeps them from being deleted (or their key changed).
    private func referringRow(toRowsOf position: Int, keys: [Int64]) -> StoreError? {
        let parent = tables[position]
        let keyList = keys.map(String.init).joined(separator: ", ")
        let declaredKey = foreign.catalog.table(named: parent.table)?.primaryKey
        for child in foreign.catalog.tables {
            guard let keyRows = try? database.rows(#"SELECT "id", "table", "from", "to", "on_delete" FROM pragma_foreign_key_list(?1)"#, [.text(child.name)]) else { continue }
            for row in keyRows {
                guard case .text(let target) = row[1], target.lowercased() == parent.table.lowercased(),
                      case .text(let from) = row[2], keyRows.filter({ $0[0] == row[0] }).count == 1 else { continue }
                var to = declaredKey ?? parent.keyName
                if case .text(let column) = row[3] { to = column }
                let childKey = tables.first { $0.table == child.name }
                let sql = "SELECT \"c\".rowid, \(parent.key(alias: "p")) FROM \(SQLIdentifier.quoted(child.name)) AS \"c\" JOIN \(SQLIdentifier.quoted(parent.table)) AS \"p\" ON \(SQLIdentifier.qualified("c", from)) = \(SQLIdentifier.qualified("p", to)) WHERE \(parent.key(alias: "p")) IN (\(keyList)) LIMIT 1"
                guard let found = try? database.rows(sql).first, case .integer(let childRow) = found[0], case .integer(let parentKey) = found[1] else { continue }
                let action: String
                if case .text(let rule) = row[4], rule != "NO ACTION" { action = " ON DELETE \(rule)" } else { action = "" }
                let referrer = childKey.map { "\($0.table) '\($0.objectID(childRow))'" } ?? "a row of \(child.name)"
                let entity = model.entities[position].name
                return StoreError(.deleteDenied,
                                  "cannot delete \(entity) '\(parent.objectID(parentKey))': \(referrer) still refers to it (\(child.name).\(from) REFERENCES \(parent.table)(\(to))\(action))",
                                  entity: entity, objectID: parent.objectID(parentKey), key: childKey.flatMap { propertyName(of: from, in: $0.table) })
            }
        }
        return nil
    }

    /// The row (other than the one written) holding the values `write` gave `columns`, by ID.
    private func twin(of write: ForeignWrite, columns: [String]) -> ObjectID? {
        guard !columns.isEmpty else { return nil }
        let (position, key) = write.row
        let table = tables[position]
        var given: [String: SQLiteValue] = [:]
        var isInsert = false
        switch write {
        case .insert(_, _, let values): given = values; isInsert = true
        case .update(_, _, let values): given = values
        default: return nil
        }
        var bindings: [SQLiteValue] = []
        for column in columns {
            if let value = given[column] {
                bindings.append(value)
            } else if isInsert {
                return nil
            } else {
                guard let value = try? database.scalar("SELECT \(SQLIdentifier.quoted(column)) FROM \(SQLIdentifier.quoted(table.table)) WHERE \(table.key()) = ?1", [.integer(key)]) else { return nil }
                bindings.append(value)
            }
        }
        let same = columns.enumerated().map { "\(SQLIdentifier.quoted($1)) IS ?\($0 + 1)" }.joined(separator: " AND ")
        let sql = "SELECT \(table.key()) FROM \(SQLIdentifier.quoted(table.table)) WHERE \(same) AND \(table.key()) IS NOT ?\(columns.count + 1) LIMIT 1"
        guard case .integer(let other)? = try? database.rows(sql, bindings + [.integer(key)]).first?.first else { return nil }
        return table.objectID(other)
    }

    /// The tables and columns a constraint message names: `NOT NULL constraint failed: Album.Title`,
    /// `UNIQUE constraint failed: Teams.yearID, Teams.teamID`.
    private func constrained(_ message: String) -> [(table: String, column: String)] {
        guard let colon = message.range(of: ": ") else { return [] }
        let names = foreign.catalog.tables.map(\.name).sorted { $0.count > $1.count }
        return message[colon.upperBound...].components(separatedBy: ", ").compactMap { qualified in
            guard let table = names.first(where: { qualified.hasPrefix($0 + ".") }) else { return nil }
            return (table, String(qualified.dropFirst(table.count + 1)))
        }
    }

    /// The property a column of a table is: its attribute, else the to-one relationship it holds.
    private func propertyName(of column: String, in table: String) -> String? {
        guard let position = tables.firstIndex(where: { $0.table == table }), let entity = schema.table(for: model.entities[position].name) else { return nil }
        if let attribute = entity.columns.first(where: { $0.value == column })?.key { return attribute }
        return entity.relationships.first { if case .foreignKey(column, _, _) = $0.value { true } else { false } }?.key
    }

    /// A value as SQL spells it: `3`, `'text'`, `NULL`.
    static func spelled(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let i): String(i)
        case .real(let d): String(d)
        case .text(let t): SQLStringLiteral.quoted(t)
        case .blob(let b): "x'" + b.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}

extension ForeignWrite {
    /// The entity and key of the row the statement wrote (the first, for a delete).
    var row: (entity: Int, key: Int64) {
        switch self {
        case .insert(let entity, let key, _), .update(let entity, let key, _), .relationship(let entity, let key, _): (entity, key)
        case .delete(let entity, let keys): (entity, keys.first ?? 0)
        }
    }

    /// The one column the statement set, if it set one.
    var column: String? {
        switch self {
        case .relationship(_, _, let column): column
        case .update(_, _, let values) where values.count == 1: values.keys.first
        default: nil
        }
    }
}
