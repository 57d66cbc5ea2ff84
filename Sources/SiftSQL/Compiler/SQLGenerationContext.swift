import SiftSQLite

/// Collects what generating one SQL statement needs beyond its text: the bound parameters
/// (`?1`, `?2`, … in the order they were bound, so text can be assembled in any order), the
/// LEFT JOINs to-one key paths need (one per distinct path), and fresh table aliases.
final class SQLGenerationContext {
    private(set) var bindings: [SQLiteValue] = []
    private var aliasCount = 0
    /// The joins of the outermost query, in the order they were first needed.
    private(set) var joins: [String] = []
    private var joinAliases: [String: String] = [:]

    /// Binds a value and returns its placeholder.
    func bind(_ value: SQLiteValue) -> String {
        bindings.append(value)
        return "?\(bindings.count)"
    }

    /// The statement's text with its placeholders renumbered `?1…?n` in order of first use,
    /// and the values they bind: parameters bound for SQL that was finally left out (a
    /// condition absorbed by AND/OR, a conjunct left to the evaluator) are dropped.
    func finalize(_ sql: String) -> (sql: String, bindings: [SQLiteValue]) {
        var output = ""
        output.reserveCapacity(sql.utf8.count)
        var used: [SQLiteValue] = []
        var renumbered: [Int: Int] = [:]
        var scalars = sql.unicodeScalars[...]
        var inIdentifier = false
        while let scalar = scalars.popFirst() {
            if scalar == "\"" { inIdentifier.toggle() }
            guard !inIdentifier, scalar == "?" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            var digits = ""
            while let next = scalars.first, ("0"..."9").contains(next) {
                digits.unicodeScalars.append(next)
                scalars.removeFirst()
            }
            guard let index = Int(digits), index >= 1, index <= bindings.count else {
                output += "?" + digits
                continue
            }
            if renumbered[index] == nil {
                used.append(bindings[index - 1])
                renumbered[index] = used.count
            }
            output += "?\(renumbered[index] ?? 0)"
        }
        return (output, used)
    }

    /// A new table alias: `t1`, `t2`, …
    func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    /// The alias of the table a to-one step reaches from `alias` through `column`, joining it
    /// once: `LEFT JOIN "Person" AS "t1" ON "t1"."_pk" = "t0"."owner"`. Joins are only made for
    /// the outermost query's own key paths; subqueries carry theirs inline.
    func join(from alias: String, column: String, table: String, key: String, into joins: inout [String], cache: inout [String: String]) -> String {
        let cacheKey = "\(alias)\u{0}\(column)"
        if let existing = cache[cacheKey] { return existing }
        let target = newAlias()
        joins.append("LEFT JOIN \(SQLIdentifier.quoted(table)) AS \(SQLIdentifier.quoted(target)) ON \(SQLIdentifier.qualified(target, key)) = \(SQLIdentifier.qualified(alias, column))")
        cache[cacheKey] = target
        return target
    }

    /// Joins of the outermost query.
    func outerJoin(from alias: String, column: String, table: String, key: String) -> String {
        join(from: alias, column: column, table: table, key: key, into: &joins, cache: &joinAliases)
    }
}
