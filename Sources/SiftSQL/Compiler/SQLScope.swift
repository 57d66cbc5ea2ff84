/// The row a piece of SQL reads key paths from: the fetched entity's row in the outermost
/// query, or an element's row inside a correlated subquery (which carries its own joins).
final class SQLScope {
    let alias: String
    let table: EntityTable
    /// `$x` of an enclosing SUBQUERY, bound to its element's row.
    var variables: [String: SQLScope]
    /// Joins of a subquery scope (nil: the outermost query's joins, kept by the context).
    var joins: [SQLJoin]?
    var joinCache: [String: String] = [:]
    /// Whether the row may be a nil element: the rows of a to-many step after a to-one step that
    /// may reach nil, inside a key path's collection (``CollectionPath``), are NULL there.
    var rowsMayBeNil = false

    init(alias: String, table: EntityTable, variables: [String: SQLScope] = [:], isSubquery: Bool) {
        self.alias = alias
        self.table = table
        self.variables = variables
        self.joins = isSubquery ? [] : nil
    }
}

/// Why a construct is not compiled to SQL: it is then evaluated in memory on the rows SQL
/// returns (and limit and offset apply after that filter).
package struct SQLUnsupported: Error, CustomStringConvertible {
    package let reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}
