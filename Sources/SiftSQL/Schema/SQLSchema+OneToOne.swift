import SiftStore

extension SQLSchema {
    /// The key of the destination of `table`'s to-one `relationship` (held in `column`) for the
    /// row aliased `alias`. Core Data keeps a one-to-one's key in its two tables' columns, but
    /// not always in both: NoteStore names each `ICCloudState` in
    /// `ZICCLOUDSYNCINGOBJECT.ZCLOUDSTATE` while `ZICCLOUDSTATE.ZCLOUDSYNCINGOBJECT` is NULL, and
    /// its `ICNote.noteData` in both. So a relationship with an entry in
    /// ``EntityTable/inverseKeyColumns`` is read from its own column, else from the destination
    /// row whose inverse column holds this row's key (the first by key, should there be more):
    ///
    ///     coalesce("t0"."ZCLOUDSYNCINGOBJECT",
    ///              (SELECT "t2"."Z_PK" FROM "ZICCLOUDSYNCINGOBJECT" AS "t2" WHERE "t2"."ZCLOUDSTATE" = "t0"."Z_PK" ORDER BY "t2"."Z_PK" LIMIT 1))
    ///
    /// Any other relationship is its column, `"t0"."column"`.
    package func toOneKey(of relationship: String, in table: EntityTable, column: String, alias: String, innerAlias: String) -> SQLExpression {
        let own = SQLExpression.column(alias, column)
        guard let back = pointingBack(relationship, in: table) else { return own }
        var condition = SQLExpression.binary(.equal, .column(innerAlias, back.column), .column(alias, table.primaryKey))
        if let test = inverseEntityTest(column: back.column, destination: back.destination) {
            let values = test.values.map { value -> SQLExpression in
                switch value {
                case .integer(let number): .integer(number)
                case .text(let name): .string(name)
                default: .null
                }
            }
            condition = .and([condition, .in(.column(innerAlias, test.column), values)])
        }
        let select = SQLSelect(columns: [.column(innerAlias, back.destination.primaryKey)],
                               from: SQLFrom(table: back.destination.table, alias: innerAlias), where: condition,
                               orderBy: [SQLOrdering(expression: .column(innerAlias, back.destination.primaryKey), isNeverNull: true)],
                               limit: .integer(1))
        return .function(.standard(.coalesce), [own, .subquery(select)])
    }

    /// ``toOneKey(of:in:column:alias:innerAlias:)`` as `dialect`'s text, for the statements a
    /// store writes by hand (the inner alias `"i"`): `"s"."ZCLOUDSTATE"`, or `coalesce(…)` for a
    /// one-to-one kept on the other side. It binds nothing (the entity test's values are
    /// literals), so statements that number their own parameters keep their numbers.
    package func toOneKeySQL(of relationship: String, in table: EntityTable, column: String, alias: String, dialect: some SQLDialect) -> String {
        let renderer = SQLRenderer(dialect)
        let text = renderer.render(toOneKey(of: relationship, in: table, column: column, alias: alias, innerAlias: "i"))
        assert(renderer.bindings.isEmpty, "a to-one's key binds no value")
        assert(renderer.unsupported.isEmpty, "every dialect spells a to-one's key")
        return text
    }

    private func pointingBack(_ relationship: String, in table: EntityTable) -> (column: String, destination: EntityTable)? {
        guard let column = table.inverseKeyColumns[relationship],
              let description = table.entity.relationship(named: relationship),
              let destination = self.table(for: description.destination) else { return nil }
        return (column, destination)
    }
}
