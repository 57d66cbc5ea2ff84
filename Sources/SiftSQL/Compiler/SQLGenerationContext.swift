
/// Collects what generating one SQL statement needs beyond its expression trees: the values
/// bound (each a ``SQLParameter``, numbered only when the statement is rendered, by
/// ``SQLRenderer``, in order of first use), the LEFT JOINs to-one key paths need (one per
/// distinct path), and fresh table aliases.
final class SQLGenerationContext {
    /// The dialect the SQL is for: what its values can be (``SQLDialect/holdsNaN``).
    let dialect: any SQLDialect
    private var parameterCount = 0
    private var aliasCount = 0
    /// The joins of the outermost query, in the order they were first needed.
    private(set) var joins: [SQLJoin] = []
    private var joinAliases: [String: String] = [:]

    init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    /// A bound value, as an expression: `?N` once rendered.
    func bind(_ value: SQLValue) -> SQLExpression {
        parameterCount += 1
        return .parameter(SQLParameter(id: parameterCount, value: value))
    }

    /// A new table alias: `t1`, `t2`, …
    func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    /// The alias of the table a to-one step reaches from `alias` through `column`, joining it
    /// once: `LEFT JOIN "Person" AS "t1" ON "t1"."_pk" = "t0"."owner"`. Joins are only made for
    /// the outermost query's own key paths; subqueries carry theirs inline.
    /// `via` reads the key another way than the column alone (a one-to-one Core Data may keep
    /// on the other side: ``SQLSchema/toOneKey(of:in:column:alias:innerAlias:)``), given the
    /// alias its subquery may use.
    func join(from alias: String, column: String, table: String, key: String, into joins: inout [SQLJoin], cache: inout [String: String],
              via: ((String) -> SQLExpression)? = nil) -> String {
        let cacheKey = "\(alias)\u{0}\(column)"
        if let existing = cache[cacheKey] { return existing }
        let target = newAlias()
        let source = via.map { $0(newAlias()) } ?? .column(alias, column)
        joins.append(SQLJoin(kind: .left, table: table, alias: target, on: .binary(.equal, .column(target, key), source)))
        cache[cacheKey] = target
        return target
    }

    /// Joins of the outermost query.
    func outerJoin(from alias: String, column: String, table: String, key: String, via: ((String) -> SQLExpression)? = nil) -> String {
        join(from: alias, column: column, table: table, key: key, into: &joins, cache: &joinAliases, via: via)
    }
}
