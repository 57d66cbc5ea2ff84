import SiftEvaluation
import SiftLanguage
import SiftStore

/// A dictionary fetch (propertiesToFetch, group by) compiled for SQLite on top of the fetch's
/// `FetchSQL`: SQLite selects only the properties' columns — no object per row — and groups
/// with `GROUP BY` and aggregates. What is left (HAVING, sorting groups, distinct) runs on the
/// few result rows with `DictionaryResults`' own stages.
///
/// Without grouping, one row per object, in the fetch's order (paged in SQL when no distinct
/// or HAVING comes after the properties):
///
///     SELECT "t0"."name", "t1"."name", (SELECT "_id" FROM "Person" WHERE "_pk" = "t0"."owner")
///     FROM "Item" AS "t0" LEFT JOIN "Person" AS "t1" ON "t1"."_pk" = "t0"."owner"
///     WHERE … ORDER BY "t0"."count" DESC, "t0"."_pk" LIMIT ?1
///
/// With grouping, one row per group, in the order of each group's first object (paged in SQL
/// when no HAVING, sort or distinct comes after):
///
///     SELECT "t0"."flag", count("t0"."price"), sift_group_sum("t0"."price", "t0"."_pk")
///     FROM "Item" AS "t0" WHERE … GROUP BY "t0"."flag" ORDER BY min("t0"."_pk")
///
/// Without grouping but with only aggregates (`DictionaryResults.aggregatesWholeResult`), one
/// row for the whole result — SQL's own aggregate query, which gives its row over no rows too
/// (`count` 0, `sift_group_sum` 0, the others NULL, as the evaluator's empty group):
///
///     SELECT sift_group_sum("t0"."price", "t0"."_pk"), count("t0"."name") FROM "Item" AS "t0" WHERE …
///
/// Only what SQL computes exactly as the evaluator compiles; anything else throws
/// `SQLUnsupported` and the fetch runs in memory:
/// - properties (and group-by properties): key paths through to-one relationships to an
///   attribute or a to-one relationship (an object reference); without grouping also
///   `tomany.@count` and `tomany.@min.x`/`@max.x` of an ordered attribute, across any number of
///   to-many steps (`playlists.tracks.@count`, one per path, as the evaluator counts them);
///   grouping also by `@count`;
/// - aggregates of a grouped fetch or of a whole result: `count:`, `sum:`, `average:`, `min:`,
///   `max:` of such a key path (`count:` counts the objects whose first key is not nil, as the
///   evaluator's groups do; the others are ``SiftKeyedAggregate``, the evaluator's own
///   arithmetic in insertion order, reading decimals as decimals);
/// - grouping by such a key path in any layout (``DictionaryPropertyCompiler/grouped(_:)``) but
///   by an Undefined attribute of a database Sift did not create (its values are of several
///   kinds, whose equality SQL and the evaluator judge differently); a Decimal groups by its
///   canonical text (``DecimalText``), as the evaluator's groups do;
/// - in a database Sift did not create, a to-one value (a property, a group, `count:`'s first
///   key) is the joined row's key, `LEFT JOIN "people" AS "t1" ON "t1"."playerID" = "t0"."playerID"`
///   selecting `"t1"."rowid"`: a foreign key naming no row is nil, as the evaluator reads it;
/// - a predicate SQL evaluates whole and a sort SQL does (`FetchSQL`).
///
/// In PostgreSQL's dialect (``DialectDictionaryQuery``) the aggregates are plain SQL
/// (``PlainGroupAggregate``), a double property is selected as stored (NaN too), and grouping by
/// a double or decimal (which may be NaN there) or in a database Sift did not create is left to
/// memory.
package struct DictionarySQL {
    let plan: FetchSQL
    let properties: [FetchedProperty]
    /// One per property, in order.
    let columns: [DictionaryColumn]
    /// The GROUP BY terms (nil without grouping).
    let groupBy: [SQLExpression]?
    /// Whether the query is one row of aggregates over the whole result (no GROUP BY).
    let aggregatesWholeResult: Bool
    /// Whether offset and limit run in SQL (nothing after the properties changes the rows).
    package let pagesInSQL: Bool

    /// The request (the plan's may have had its sort descriptors taken out).
    let request: FetchRequest

    /// Compiles `request`'s properties on `plan`, its FROM and WHERE. For a grouped fetch
    /// `plan` is compiled without the sort descriptors (they name result properties, not key
    /// paths; the groups are sorted after SQL made them).
    package init(_ request: FetchRequest, plan: FetchSQL, properties: [FetchedProperty], schema: SQLSchema) throws {
        self.request = request
        if plan.residual != nil { throw SQLUnsupported(plan.residualReason ?? "part of the predicate runs in memory") }
        let compiler = DictionaryPropertyCompiler(schema: schema, plan: plan)
        self.plan = plan
        self.properties = properties
        if DictionaryResults.aggregatesWholeResult(request) {
            // No grouping, so no grouping equality to get right: any layout. (The plan is
            // unsorted: the aggregates order their values by the row key themselves.)
            columns = try properties.map { try compiler.aggregate($0.expression) }
            groupBy = nil
            aggregatesWholeResult = true
            pagesInSQL = request.havingPredicate == nil
            return
        }
        aggregatesWholeResult = false
        if request.propertiesToGroupBy.isEmpty {
            guard plan.orderBy != nil else { throw SQLUnsupported(plan.sortReason ?? "sorting in memory") }
            columns = try properties.map { try compiler.value($0.expression, allowsCollectionOperators: true).column }
            groupBy = nil
            pagesInSQL = !request.returnsDistinctResults && request.havingPredicate == nil
            return
        }
        var groupTerms: [SQLExpression] = []
        var grouped: [ExpressionNode: DictionaryColumn] = [:]
        for property in request.propertiesToGroupBy {
            let (column, terms) = try compiler.grouped(property.expression)
            groupTerms += terms
            grouped[property.expression] = column
        }
        columns = try properties.map { property in
            if let column = grouped[property.expression] { return column }
            return try compiler.aggregate(property.expression)
        }
        groupBy = groupTerms
        pagesInSQL = request.havingPredicate == nil && request.sortDescriptors.isEmpty && !request.returnsDistinctResults
    }

    /// The query and its bindings.
    package func query() -> (sql: String, bindings: [SQLValue]) {
        let renderer = SQLRenderer(plan.context.dialect)
        return (renderer.render(statement()), renderer.bindings)
    }

    /// The query as a tree: the properties' columns over the fetch's FROM and WHERE, grouped
    /// (in the order of each group's first object) or in the fetch's order, paged when
    /// ``pagesInSQL``.
    func statement() -> SQLSelect {
        var select = SQLSelect(columns: columns.isEmpty ? [.integer(1)] : columns.map(\.expression), from: plan.from,
                               where: plan.conditions.isEmpty ? nil : .and(plan.conditions))
        if let groupBy {
            select.groupBy = groupBy
            select.orderBy = [SQLOrdering(expression: .function(.standard(.min), [.column(plan.alias, plan.table.primaryKey)]))]
        } else if !aggregatesWholeResult {
            select.orderBy = plan.orderTerms
        }
        // (The plan's request pages as this one does: only its sort descriptors may differ.)
        if pagesInSQL, let (limit, offset) = plan.paging() { (select.limit, select.offset) = (limit, offset) }
        return select
    }

    /// A result row (before HAVING, sorting groups, distinct) from its columns' values, in the
    /// order of the select list: `value(i)` is column `i`.
    package func row(_ value: (Int) -> SQLValue) -> ValueDictionary {
        var row = ValueDictionary()
        for (index, (property, column)) in zip(properties, columns).enumerated() {
            row[property.name] = column.decode(value(index))
        }
        return row
    }
}

/// Compiles the properties of a dictionary fetch (see ``DictionarySQL``).
private struct DictionaryPropertyCompiler {
    let schema: SQLSchema
    let plan: FetchSQL
    var expressions: ExpressionSQLCompiler { ExpressionSQLCompiler(schema: schema, context: plan.context) }
    var scope: SQLScope { SQLScope(alias: plan.alias, table: plan.table, isSubquery: false) }

    /// What a key path reaches from the fetched entity.
    enum Ending {
        case attribute(AttributeDescription)
        case toOne(RelationshipDescription)
        /// `tomany.@count` (attribute nil) or `tomany.@min.x` / `tomany.@max.x` (`a.b.@count`
        /// across several to-many steps).
        case collectionOperator(CollectionOperator, AttributeDescription?)
    }

    func keys(_ expression: ExpressionNode) throws -> [String] {
        guard case .keyPath(let base, let keys) = expression.kind, !keys.isEmpty else { throw SQLUnsupported("\(expression) is not a key path") }
        switch base?.kind {
        case nil, .evaluatedObject?: return keys
        default: throw SQLUnsupported("a key path on \(expression)")
        }
    }

    /// Follows `keys` through relationships of the model: to-one steps to an attribute or a
    /// to-one relationship, or across to-many steps (any number, to-one steps between them) to
    /// `@count`, or `@min.x` / `@max.x` of an attribute of the last step's destination.
    func resolve(_ keys: [String]) throws -> Ending {
        var entity = plan.table.entity
        var crossesToMany = false
        for (index, key) in keys.enumerated() {
            let isLast = index == keys.count - 1
            if key.hasPrefix("@") {
                guard crossesToMany else { throw SQLUnsupported("\(key) on a value that is not a to-many relationship") }
                let rest = keys[(index + 1)...]
                switch (CollectionOperator(key: key), rest.count) {
                case (.count?, 0): return .collectionOperator(.count, nil)
                case (let op?, 1) where op == .min || op == .max:
                    guard let attribute = entity.attribute(named: rest[rest.startIndex]) else { throw SQLUnsupported("\(key) of \(rest[rest.startIndex])") }
                    return .collectionOperator(op, attribute)
                default: throw SQLUnsupported("the to-many key path \(keys.joined(separator: "."))")
                }
            }
            if let attribute = entity.attribute(named: key) {
                guard isLast, !crossesToMany else { throw SQLUnsupported(isLast ? "a to-many value" : "a key after the attribute \(key)") }
                return .attribute(attribute)
            }
            guard let relationship = entity.relationship(named: key), let destination = schema.model.entity(named: relationship.destination) else {
                throw SQLUnsupported("the key \(key) of \(entity.name)")
            }
            if relationship.isToMany { crossesToMany = true }
            if isLast {
                guard !crossesToMany else { throw SQLUnsupported("a to-many value") }
                return .toOne(relationship)
            }
            entity = destination
        }
        throw SQLUnsupported("an empty key path")
    }

    /// The type values of an attribute are decoded as: its own in Sift's layout; in an
    /// introspected one only Date, Boolean and Decimal are converted (as `RowLayout` reads
    /// objects).
    func decodingType(_ type: AttributeType) -> AttributeType? {
        schema.decodingType(type)
    }

    /// A property's value per row: the selected column, the term to group by, and the
    /// attribute type reached (nil for an object reference or a collection operator).
    func value(_ expression: ExpressionNode, allowsCollectionOperators: Bool) throws -> (column: DictionaryColumn, term: SQLExpression, type: AttributeType?) {
        let keys = try self.keys(expression)
        let ending = try resolve(keys)
        if case .toOne(let relationship) = ending, !schema.isSiftLayout {
            // The joined row's own key: a foreign key that names no row is nil, as the
            // evaluator reads it, and one naming its row by another column (or as text) is
            // still that row's reference.
            guard let destination = schema.table(for: relationship.destination), case .primaryKey(let prefix) = destination.objectID else {
                throw SQLUnsupported("the to-one \(relationship.name)")
            }
            let key = try joinedKey(keys)
            return (DictionaryColumn(expression: key, decoding: .objectKey(prefix: prefix)), key, nil)
        }
        guard case .single(let fragment) = try expressions.keyPath(base: nil, keys: keys, in: scope) else {
            throw SQLUnsupported("\(expression) is not one value per row")
        }
        switch ending {
        case .attribute(let attribute):
            // A dialect holding NaN reads a double with NaN as NULL; a property's value is
            // NaN, as stored.
            let stored = plan.context.dialect.holdsNaN ? fragment.storedWithNaN ?? fragment.expression : fragment.expression
            return (DictionaryColumn(expression: stored, decoding: .value(decodingType(attribute.type))), stored, attribute.type)
        case .toOne(let relationship):
            guard case .object = fragment.kind, let destination = schema.table(for: relationship.destination) else {
                throw SQLUnsupported("the to-one \(relationship.name)")
            }
            switch destination.objectID {
            case .column(let column):
                let id = SQLExpression.subquery(SQLSelect(columns: [.column(table: nil, name: column)], from: SQLFrom(table: destination.table, alias: nil),
                                                          where: .binary(.equal, .column(table: nil, name: destination.primaryKey), fragment.expression)))
                return (DictionaryColumn(expression: id, decoding: .objectID), fragment.expression, nil)
            case .primaryKey(let prefix):
                return (DictionaryColumn(expression: fragment.expression, decoding: .objectKey(prefix: prefix)), fragment.expression, nil)
            case .entityAndKey:
                throw SQLUnsupported("the to-one \(relationship.name), whose IDs name the destination's entity")
            }
        case .collectionOperator(let op, let attribute):
            // (A count is an integer: equal counts are one group in SQL as in the evaluator.)
            guard allowsCollectionOperators || op == .count else { throw SQLUnsupported("grouping by \(op)") }
            guard let attribute else { return (DictionaryColumn(expression: fragment.expression, decoding: .value(nil)), fragment.expression, nil) }
            // SQLite's min()/max() order numbers, NFC text (code-point order) and dates as the
            // evaluator does, and values equal there are identical in SQLite; decimals are the
            // evaluator's own (``collectionAggregate(_:of:name:)``).
            // (A dialect holding NaN orders it above every number, the evaluator does not.)
            let holdsNaN = plan.context.dialect.holdsNaN && [.double, .float, .decimal].contains(attribute.type)
            guard fragment.kind.isOrdered, schema.isSiftLayout, !holdsNaN else {
                throw SQLUnsupported("\(op) of \(attribute.name)")
            }
            return (DictionaryColumn(expression: fragment.expression, decoding: .value(attribute.type)), fragment.expression, nil)
        }
    }

    /// A group-by property: its value per group, and the GROUP BY terms that put two objects
    /// in one group exactly where the evaluator's groups (language equality of the values) do.
    ///
    /// In Sift's layout values equal to the evaluator are identical in SQL, so the property's
    /// own term serves, and its value is any row's. A column of a database Sift did not create
    /// is read as the evaluator reads it (``ForeignColumn``: dates through `sift_date`, text in
    /// NFC, other kinds as nil where only some rows were read), so equal values are identical
    /// there too — except in a Double column, which may hold the integer `2` and the real `2.0`:
    /// one group for both, its value the first object's (``SiftGroupFirst``); and beyond ±9.0e18,
    /// where the evaluator no longer takes a whole real for an integer, a second term keeps
    /// integers and reals apart. An Undefined column holds values of several kinds, which SQL
    /// and the evaluator group differently (`1`, `1.0`, `'1'`, `YES`): in memory.
    func grouped(_ expression: ExpressionNode) throws -> (column: DictionaryColumn, terms: [SQLExpression]) {
        let (column, term, type) = try value(expression, allowsCollectionOperators: false)
        if plan.context.dialect.holdsNaN, let type, [.double, .float, .decimal].contains(type) {
            // The server puts every NaN in one group, and 0.0 with -0.0 (its value either).
            throw SQLUnsupported("grouping by \(expression), which may be NaN")
        }
        guard !schema.isSiftLayout else { return (column, [term]) }
        guard plan.context.dialect.hasSiftFunctions else { throw SQLUnsupported("grouping by \(expression) of a database Sift did not create") }
        switch type {
        case .undefined?:
            throw SQLUnsupported("grouping by \(expression), whose values are of several kinds")
        case .double?:
            let rowKey = SQLExpression.column(plan.alias, plan.table.primaryKey)
            let first = DictionaryColumn(expression: .function(.provided(.registered(.groupFirst)), [term, rowKey]), decoding: column.decoding)
            let large = SQLExpression.or([.binary(.greaterThanOrEqual, term, .literal("9.0e18")), .binary(.lessThanOrEqual, term, .literal("-9.0e18"))])
            return (first, [term, .case([(when: large, then: .storageClass(term))], otherwise: nil)])
        default:
            return (column, [term])
        }
    }

    /// The row key of the object a path of to-one relationships reaches, read on the joined
    /// row (the joins the key path's own walk makes): NULL where the path reaches nil.
    func joinedKey(_ keys: [String]) throws -> SQLExpression {
        var alias = plan.alias
        var table = plan.table
        for key in keys {
            guard let relationship = table.entity.relationship(named: key), !relationship.isToMany,
                  case .foreignKey(let column, let destinationTable, let destinationKey)? = table.relationships[key],
                  let destination = schema.table(for: relationship.destination) else {
                throw SQLUnsupported("the key \(key) of \(table.entity.name) is not a to-one relationship")
            }
            let source = alias, owner = table
            let via: ((String) -> SQLExpression)? = table.inverseKeyColumns[key] == nil ? nil : { inner in
                schema.toOneKey(of: key, in: owner, column: column, alias: source, innerAlias: inner)
            }
            alias = plan.context.outerJoin(from: alias, column: column, table: destinationTable, key: destinationKey, via: via)
            table = destination
        }
        return .column(alias, table.primaryKey)
    }

    /// An aggregate function of a grouped fetch, over the group's objects (or of a fetch that
    /// aggregates its whole result, over all of them).
    func aggregate(_ expression: ExpressionNode) throws -> DictionaryColumn {
        guard case .function(let name, let arguments) = expression.kind, arguments.count == 1 else {
            throw SQLUnsupported("'\(expression)' is neither grouped nor an aggregate")
        }
        guard let aggregate = GroupAggregateFunction(selector: name) else { throw SQLUnsupported("\(name) of \(arguments[0])") }
        let keys = try self.keys(arguments[0])
        let ending = try resolve(keys)
        let rowKey = SQLExpression.column(plan.alias, plan.table.primaryKey)
        if aggregate == .count {
            // The group reads the first key of each member and leaves nil out: the count is the
            // members whose first key is not nil, whatever the rest of the path reads.
            switch ending {
            case .attribute, .toOne: break
            case .collectionOperator: throw SQLUnsupported("\(name) of a to-many key path")
            }
            if !schema.isSiftLayout, plan.table.entity.relationship(named: keys[0]) != nil {
                // A foreign key naming no row reads nil: count the joined rows.
                return DictionaryColumn(expression: .function(.standard(.count), [try joinedKey([keys[0]])]), decoding: .value(nil))
            }
            guard case .single(let first) = try expressions.keyPath(base: nil, keys: [keys[0]], in: scope) else {
                throw SQLUnsupported("\(name) of \(keys[0])")
            }
            return DictionaryColumn(expression: .function(.standard(.count), [first.expression]), decoding: .value(nil))
        }
        guard case .attribute(let attribute) = ending else { throw SQLUnsupported("\(name) of \(arguments[0])") }
        guard case .single(let fragment) = try expressions.keyPath(base: nil, keys: keys, in: scope) else {
            throw SQLUnsupported("\(name) of \(arguments[0])")
        }
        if !plan.context.dialect.hasSiftFunctions {
            let x = fragment.storedWithNaN ?? fragment.expression
            guard schema.isSiftLayout, let column = PlainGroupAggregate.column(aggregate, of: x, type: attribute.type, rowKey: rowKey) else {
                throw SQLUnsupported("\(name) of \(attribute.name) in \(plan.context.dialect.name)")
            }
            return column
        }
        let function: SQLKeyedAggregateFunction
        switch aggregate {
        case .count: preconditionFailure("count: is compiled above")
        case .sum: function = .sum
        case .average: function = .average
        case .min: function = .min
        case .max: function = .max
        }
        var decoding = DictionaryColumn.Decoding.value(nil)
        switch (aggregate, attribute.type) {
        case (_, .decimal):
            // Read as decimals ('e'); the result a decimal's text, or the integer 0 of a sum of nils.
            return DictionaryColumn(expression: .function(.provided(.keyedAggregate(function)), [fragment.expression, rowKey, .string(String(SQLArgumentKind.decimal.rawValue))]),
                                    decoding: .number)
        case (.sum, .integer16), (.sum, .integer32), (.sum, .integer64), (.sum, .double), (.sum, .float), (.sum, .boolean),
             (.average, .integer16), (.average, .integer32), (.average, .integer64), (.average, .double), (.average, .float), (.average, .boolean):
            break
        case (.min, _), (.max, _):
            decoding = .value(decodingType(attribute.type))
        default:
            throw SQLUnsupported("\(name) of \(attribute.name)")
        }
        return DictionaryColumn(expression: .function(.provided(.keyedAggregate(function)), [fragment.expression, rowKey]), decoding: decoding)
    }
}
