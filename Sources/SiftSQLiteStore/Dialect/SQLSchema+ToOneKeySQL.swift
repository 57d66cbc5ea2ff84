import SiftSQL

extension SQLSchema {
    /// ``SQLSchema/toOneKey(of:in:column:alias:innerAlias:)`` as SQLite text, for the
    /// statements the store writes by hand (the inner alias `"i"`): `"s"."ZCLOUDSTATE"`, or
    /// `coalesce(…)` for a one-to-one kept on the other side. It binds nothing (the entity test's
    /// values are literals), so statements that number their own parameters keep their numbers.
    func toOneKeySQL(of relationship: String, in table: EntityTable, column: String, alias: String) -> String {
        let renderer = SQLRenderer(SQLiteDialect())
        let text = renderer.render(toOneKey(of: relationship, in: table, column: column, alias: alias, innerAlias: "i"))
        assert(renderer.bindings.isEmpty, "a to-one's key binds no value")
        return text
    }
}
