import SiftEvaluation
import SiftLanguage
import SiftStore

/// A fetch request compiled for SQLite: the FROM, WHERE and ORDER BY of its query, the part
/// of the predicate left to the evaluator (if any), and whether sorting and paging run in SQL.
///
///     SELECT <columns> FROM "Note" AS "t0" LEFT JOIN … WHERE … ORDER BY …, "t0"."_pk" LIMIT ?n OFFSET ?m
///
/// The predicate's top-level conjuncts are compiled in order until one cannot be: that one and
/// every later conjunct are evaluated in memory on the rows SQL returns (the evaluator would
/// not have evaluated them on rows an earlier conjunct rejects, so errors and results are the
/// same), and limit and offset then apply after that filter.
package struct FetchSQL {
    package let request: FetchRequest
    package let table: EntityTable
    let context: SQLGenerationContext
    package let alias = "t0"
    /// Conditions ANDed in WHERE (the entity filter first).
    private(set) var conditions: [SQLExpression] = []
    /// What the evaluator must still check on each row (nil: SQL did everything).
    package private(set) var residual: PredicateNode?
    /// Why part of the predicate runs in memory.
    package private(set) var residualReason: String?
    /// ORDER BY terms (the row key last); nil when a sort key runs in memory.
    package private(set) var orderBy: [SQLOrdering]?
    /// The sort descriptors' terms without their direction (`"t0"."city" COLLATE …`), one per
    /// descriptor; empty when a sort key runs in memory.
    private(set) var sortKeys: [SQLExpression] = []
    package private(set) var sortReason: String?

    /// Compiles `request` for `dialect`: a conjunct or sort key the dialect cannot say (a Swift
    /// function on a server) is left to the evaluator, as one SQL cannot compile is.
    package init(_ request: FetchRequest, schema: SQLSchema, dialect: any SQLDialect) throws {
        guard let table = schema.table(for: request.entityName) else {
            throw StoreError(.unknownEntity, "unknown entity '\(request.entityName)'", entity: request.entityName)
        }
        self.request = request
        self.table = table
        self.context = SQLGenerationContext(dialect: dialect)
        let scope = SQLScope(alias: alias, table: table, isSubquery: false)
        if let filter = entityFilter(table, includesSubentities: request.includesSubentities) { conditions.append(filter) }

        if let predicate = request.predicate {
            let parts: [PredicateNode]
            if case .and(let conjuncts) = predicate.kind { parts = conjuncts } else { parts = [predicate] }
            let compiler = PredicateSQLCompiler(schema: schema, context: context)
            for (index, part) in parts.enumerated() {
                do {
                    let condition = try compiler.condition(part, in: scope)
                    try checkDialect(where: condition.expression)
                    if !condition.isTrue { conditions.append(condition.expression) }
                    if condition.isFalse { break }
                } catch let unsupported as SQLUnsupported {
                    let rest = Array(parts[index...])
                    residual = rest.count == 1 ? rest[0] : PredicateNode(.and(rest))
                    residualReason = unsupported.reason
                    break
                }
            }
        }

        let expressions = ExpressionSQLCompiler(schema: schema, context: context)
        var terms: [SQLOrdering] = []
        do {
            for key in request.sortDescriptors {
                if DictionaryResults.sortedProperty(key, of: request) != nil {
                    throw SQLUnsupported("sorting by the result property \(key.keyPath)")
                }
                let keys = key.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard case .single(let fragment) = try expressions.keyPath(base: nil, keys: keys, in: scope) else {
                    throw SQLUnsupported("sorting by a to-many key path")
                }
                if case .object = fragment.kind { throw SQLUnsupported("sorting by a relationship") }
                // SQLite orders storage classes its own way; the evaluator sorts mixed kinds.
                if fragment.kind == .dynamic { throw SQLUnsupported("sorting by \(key.keyPath), whose values are of several kinds") }
                var term = fragment.expression
                // A decimal is text to SQLite: it sorts by a key ordered as the numbers are
                // (a number in a dialect without Sift's functions: PostgreSQL's numeric).
                if fragment.kind == .number(.decimal) && context.dialect.hasSiftFunctions { term = .function(.provided(.registered(.decimalKey)), [term]) }
                // Without Sift's collations: the comparator's sort key (its fold) — a searchable
                // attribute's hidden column, or a computed string's fold by the store's text
                // functions — then for localizedCompare the text itself.
                var folded: [SQLExpression]?
                if fragment.kind == .string, !context.dialect.hasSiftFunctions {
                    if let search = fragment.search {
                        folded = search.sortColumns(for: key.comparator, text: term)
                    } else if context.dialect.hasTextFunctions {
                        folded = PredicateSQLCompiler.preparedSortTerms(for: key.comparator, text: term)
                    }
                }
                if let columns = folded {
                    for column in columns.dropLast() { terms.append(SQLOrdering(expression: column, descending: !key.ascending)) }
                    term = columns[columns.count - 1]
                } else if fragment.kind == .string, let collation = SiftSQLFunctions.collationName(for: key.comparator) {
                    // The comparator's collation replaces a column's COLLATE BINARY.
                    if case .collate(let value, "BINARY") = term { term = value }
                    term = .collate(term, collation)
                }
                terms.append(SQLOrdering(expression: term, descending: !key.ascending))
                sortKeys.append(term)
            }
            terms.append(SQLOrdering(expression: .column(alias, table.primaryKey), isNeverNull: true))
            try checkDialect(orderBy: terms)
            orderBy = terms
        } catch let unsupported as SQLUnsupported {
            orderBy = nil
            sortKeys = []
            sortReason = unsupported.reason
        }
    }

    /// Throws ``SQLUnsupported`` when the dialect cannot say a condition or an ORDER BY (a
    /// statement reading the fetched table with them is rendered to find out).
    private func checkDialect(where condition: SQLExpression? = nil, orderBy: [SQLOrdering] = []) throws {
        let dialect = context.dialect
        guard !dialect.spellsEveryConstruct else { return }
        let renderer = SQLRenderer(dialect)
        _ = renderer.render(SQLSelect(columns: [.integer(1)], from: from, where: condition, orderBy: orderBy))
        if let construct = renderer.unsupported.first { throw SQLUnsupported("\(dialect.name) has no \(construct)") }
    }

    /// Whether limit and offset can run in SQL.
    package var pagesInSQL: Bool { residual == nil && orderBy != nil }

    /// `"t0"."_entity" IN (…)` when the table holds other entities than the ones fetched (in
    /// Core Data's layout, `"t0"."Z_ENT" IN (…)` with the entities' numbers).
    private func entityFilter(_ table: EntityTable, includesSubentities: Bool) -> SQLExpression? {
        guard let column = table.entityColumn else { return nil }
        let names = includesSubentities ? table.entity.entityAndSubentities : [table.entity.name]
        if Set(names) == Set(table.hierarchyEntityNames) { return nil }
        let placeholders = names.map { name in
            guard !table.entityNumbers.isEmpty else { return context.bind(.text(name)) }
            // (Every entity of the table has its number: an unknown one selects no row.)
            return context.bind(table.entityNumbers[name].map(SQLValue.integer) ?? .null)
        }
        let target = SQLExpression.column(alias, column)
        return placeholders.count == 1 ? .binary(.equal, target, placeholders[0]) : .in(target, placeholders)
    }

    /// The FROM clause: the fetched table and the joins its key paths need.
    var from: SQLFrom { SQLFrom(table: table.table, alias: alias, joins: context.joins) }

    /// The ORDER BY terms (by the row key alone when sorting runs in memory).
    ///
    /// The row key is the tie-break. Where the WHERE clause constrains an indexed column, it is
    /// written `+"t0"."_pk"`, so SQLite does not prefer reading the whole table in key order
    /// (which needs no sorting) over searching the index and sorting what it finds — unless
    /// ``scansInKeyOrder`` says the search would find too many rows for that to pay.
    var orderTerms: [SQLOrdering] {
        var terms = orderBy ?? [SQLOrdering(expression: .column(alias, table.primaryKey), isNeverNull: true)]
        // (SQLite's planner only: PostgreSQL chooses by its statistics.)
        if let last = terms.last, context.dialect.honoursUnaryPlusIndexHint, usesIndexedColumn, !scansInKeyOrder {
            terms[terms.count - 1] = SQLOrdering(expression: .unary(.plus, last.expression), isNeverNull: true)
        }
        return terms
    }

    /// Set by the store when ``keyOrderRange`` matches many rows: the tie-break is then written
    /// as it is, and SQLite reads the table in key order, testing each row, instead of looking
    /// each match up from the index and sorting them (which costs a random page read per match:
    /// from about 2 % of a table's rows, the scan is faster).
    package var scansInKeyOrder = false

    /// The one condition that makes the index-or-scan choice a question of numbers: the only
    /// condition reading an indexed column, a one-sided range of that column against a bound
    /// value (`"t0"."age" > ?1`), with the rows in key order (no sort of the request's own).
    /// SQLite, without statistics of the values, guesses such a range keeps a quarter of the
    /// rows; the store counts instead (``SQLFetchExecutor/choosePlan(_:)``). Nil for every
    /// other query: an equality, a list or a two-sided range, which SQLite searches its index
    /// for on its own, or no indexed column at all.
    package var keyOrderRange: SQLExpression? {
        guard request.resultType != .count, request.sortDescriptors.isEmpty, orderBy != nil else { return nil }
        let indexed = indexedColumns
        let reading = conditions.filter { condition in indexed.contains { condition.comparesColumn(alias, $0) } }
        guard reading.count == 1, let range = reading.first,
              case .binary(let op, .column(let table, let column), .parameter) = range,
              table == alias, indexed.contains(column),
              [.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual].contains(op) else { return nil }
        return range
    }

    /// Whether a condition reads the first column of one of the entity's indexes, or a
    /// searchable attribute's folded column (``SearchFold``).
    private var usesIndexedColumn: Bool {
        indexedColumns.contains { column in conditions.contains { $0.comparesColumn(alias, column) } }
    }

    /// The first columns of the entity's indexes, and the searchable attributes' folded columns.
    private var indexedColumns: [String] {
        table.entity.indexes.compactMap { $0.first.flatMap { table.columns[$0] } }
            + table.searchable.flatMap { column in SearchFold.predicateFolds.map { $0.column(column) } }
    }

    /// `SELECT count(*) FROM (SELECT 1 FROM "<table>" AS "t0" WHERE <range> LIMIT ?)`: how many
    /// rows ``keyOrderRange`` matches, counted up to `limit` from the index alone.
    package func rangeCount(_ range: SQLExpression, upTo limit: Int64) -> (sql: String, bindings: [SQLValue]) {
        let renderer = SQLRenderer(context.dialect)
        let matches = SQLSelect(columns: [.integer(1)], from: SQLFrom(table: table.table, alias: alias, joins: []), where: range,
                                limit: context.bind(.integer(limit)))
        let count = SQLSelect(columns: [.countAll], from: SQLFrom(source: .subquery(matches), alias: nil))
        let rendered = RenderedSQL(sql: renderer.render(count), renderer: renderer)
        return (rendered.sql, rendered.bindings)
    }

    /// The request's LIMIT and OFFSET, bound (no offset is nil; no limit is SQLite's -1, which an
    /// OFFSET needs there, and no LIMIT at all in another dialect, where -1 is an error); nil when
    /// it has neither.
    func paging() -> (limit: SQLExpression?, offset: SQLExpression?)? {
        guard request.fetchLimit > 0 || request.fetchOffset > 0 else { return nil }
        let limit: SQLExpression? = request.fetchLimit > 0 ? context.bind(.integer(Int64(request.fetchLimit)))
            : context.dialect.offsetRequiresLimit ? context.bind(.integer(-1)) : nil
        return (limit, request.fetchOffset > 0 ? context.bind(.integer(Int64(request.fetchOffset))) : nil)
    }

    /// The whole query, selecting `columns`, and its bindings.
    package func select(_ columns: [SQLExpression]) -> (sql: String, bindings: [SQLValue]) {
        let rendered = select(columns, in: context.dialect)
        return (rendered.sql, rendered.bindings)
    }

    /// The whole query in `dialect`, selecting `columns`, with its bindings and what the
    /// dialect could not say.
    func select(_ columns: [SQLExpression], in dialect: any SQLDialect) -> RenderedSQL {
        let renderer = SQLRenderer(dialect)
        return RenderedSQL(sql: renderer.render(statement(selecting: columns)), renderer: renderer)
    }

    /// The WHERE condition: the conditions ANDed (nil when there are none).
    var whereCondition: SQLExpression? { conditions.isEmpty ? nil : .and(conditions) }

    /// The query as a tree: `SELECT <columns> FROM … WHERE … ORDER BY … LIMIT … OFFSET …`.
    func statement(selecting columns: [SQLExpression]) -> SQLSelect {
        var select = SQLSelect(columns: columns, from: from, where: whereCondition, orderBy: orderTerms)
        if pagesInSQL, let (limit, offset) = paging() { (select.limit, select.offset) = (limit, offset) }
        return select
    }

    /// `SELECT count(*)` of what the request returns (SQL did everything), and its bindings.
    package func countQuery() -> (sql: String, bindings: [SQLValue]) {
        let rendered = countQuery(in: context.dialect)
        return (rendered.sql, rendered.bindings)
    }

    /// ``countQuery()`` in `dialect`.
    func countQuery(in dialect: any SQLDialect) -> RenderedSQL {
        let renderer = SQLRenderer(dialect)
        guard pagesInSQL, request.fetchLimit > 0 || request.fetchOffset > 0 else {
            var count = statement(selecting: [.countAll])
            count.orderBy = []
            return RenderedSQL(sql: renderer.render(count), renderer: renderer)
        }
        let count = SQLSelect(columns: [.countAll], from: SQLFrom(source: .subquery(statement(selecting: [.integer(1)])), alias: nil))
        return RenderedSQL(sql: renderer.render(count), renderer: renderer)
    }
}
