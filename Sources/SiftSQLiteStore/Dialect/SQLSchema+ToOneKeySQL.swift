import SiftSQL

extension SQLSchema {
    /// ``SQLSchema/toOneKeySQL(of:in:column:alias:dialect:)`` as SQLite text: `"s"."ZCLOUDSTATE"`,
    /// or `coalesce(…)` for a one-to-one kept on the other side.
    func toOneKeySQL(of relationship: String, in table: EntityTable, column: String, alias: String) -> String {
        toOneKeySQL(of: relationship, in: table, column: column, alias: alias, dialect: SQLiteDialect())
    }
}
