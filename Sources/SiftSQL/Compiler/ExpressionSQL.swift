import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// An operand of a comparison, as SQL sees it.
enum SQLOperand {
    /// One value per row (a column, a constant, arithmetic, a scalar subquery).
    case single(SQLFragment)
    /// A constant collection (`{1, 2}`, an array argument): its elements.
    case constants([Value])
    /// A key path across a to-many relationship: one value per element of a correlated subquery.
    case collection(CollectionPath)
}

/// Compiles expressions and key paths of the predicate language to SQL over a schema.
struct ExpressionSQLCompiler {
    let schema: SQLSchema
    let context: SQLGenerationContext

    // MARK: Operands

    func operand(_ expression: ExpressionNode, in scope: SQLScope) throws -> SQLOperand {
        if let folded = try folded(expression) { return folded }
        switch expression.kind {
        case .constant(let constant):
            let value = Value(constant)
            if let elements = value.collectionElements {
                if case .set = value { throw SQLUnsupported("a set constant") }
                return .constants(elements)
            }
            if case .dictionary = value { throw SQLUnsupported("a dictionary constant") }
            return .single(Self.constant(value))
        case .aggregate(let elements):
            var values: [Value] = []
            for element in elements {
                guard case .constant(let constant) = element.kind else { throw SQLUnsupported("an aggregate of non-constants") }
                let value = Value(constant)
                if value.collectionElements != nil { throw SQLUnsupported("a nested aggregate") }
                values.append(value)
            }
            return .constants(values)
        case .keyPath(let base, let keys):
            return try keyPath(base: base, keys: keys, in: scope)
        case .evaluatedObject:
            return .single(object(of: scope))
        case .variable(let name):
            guard let element = scope.variables[name] else { throw SQLUnsupported("the variable $\(name)") }
            return .single(object(of: element))
        case .index(let base, .size):
            return .single(try size(of: base, in: scope))
        case .index(let base, let position):
            return .single(try element(of: base, at: position, keys: [], in: scope))
        default:
            return .single(try value(expression, in: scope))
        }
    }

    /// An expression of constants only (`abs:(-2)`, `CAST("5", "NSNumber")`, `{1 + 1, 3}`),
    /// computed now by the evaluator, as the evaluator itself folds it; nil for anything else.
    private func folded(_ expression: ExpressionNode) throws -> SQLOperand? {
        switch expression.kind {
        case .constant, .keyPath, .evaluatedObject, .variable: return nil
        default: break
        }
        guard expression.isConstantExpression else { return nil }
        let value: Value
        do {
            guard let computed = try CompiledExpression.constantValue(of: expression) else { return nil }
            value = computed
        } catch {
            throw SQLUnsupported("\(expression) is an error: \(error)")
        }
        if let elements = value.collectionElements {
            guard case .array = value, !elements.contains(where: { $0.collectionElements != nil || $0.isNaN }) else {
                throw SQLUnsupported("the constant \(expression)")
            }
            return .constants(elements)
        }
        // SQLite has no NaN (a bound NaN is NULL), and no dictionaries.
        if value.isNaN { throw SQLUnsupported("\(expression) is NaN") }
        if case .dictionary = value { throw SQLUnsupported("a dictionary constant") }
        return .single(Self.constant(value))
    }

    /// An expression that must be one value per row.
    func value(_ expression: ExpressionNode, in scope: SQLScope) throws -> SQLFragment {
        if let folded = try folded(expression) {
            guard case .single(let constant) = folded else { throw SQLUnsupported("a collection where one value is needed") }
            return constant
        }
        switch expression.kind {
        case .constant, .keyPath, .evaluatedObject, .variable, .aggregate, .index:
            guard case .single(let fragment) = try operand(expression, in: scope) else {
                throw SQLUnsupported("a collection where one value is needed")
            }
            return fragment
        case .unary(let op, let operand):
            return try unary(op, try value(operand, in: scope))
        case .function(let name, let arguments):
            return try function(name, arguments, in: scope)
        case .functionExpression(let receiver, let selector, let arguments):
            return try functionExpression(receiver, selector, arguments, in: scope)
        case .cast(let value, let type):
            return try cast(value, to: type, in: scope)
        case .binary(let op, let a, let b):
            return try arithmetic(op, try value(a, in: scope), try value(b, in: scope))
        case .ternary(let condition, let then, let otherwise):
            let predicates = PredicateSQLCompiler(schema: schema, context: context)
            let test = try predicates.condition(condition, in: scope)
            let a = try value(then, in: scope), b = try value(otherwise, in: scope)
            // (A dialect that compares integers with doubles as doubles makes a CASE of both a
            // double: an integer beyond 2^53 would be rounded.)
            if !context.dialect.comparesIntegersWithDoublesExactly,
               [(a, b.kind), (b, a.kind)].contains(where: { $0.0.mayExceedDoublePrecision && $0.1 == .number(.real) }) {
                throw SQLUnsupported("TERNARY of an integer and a double, which \(context.dialect.name) makes two doubles")
            }
            let x = try materialised(a), y = try materialised(b)
            let kind: SQLKind
            switch (x.kind, y.kind) {
            case (.null, let k), (let k, .null): kind = k
            // (A decimal is text to SQL: it mixes with no other kind of number.)
            case (.number(let m), .number(let n)) where m == n || (m != .decimal && n != .decimal): kind = .number(m == n ? m : .mixed)
            case let (k, l) where k == l: kind = k
            default: throw SQLUnsupported("TERNARY with branches of different kinds")
            }
            let divergence = x.divergence.union(y.divergence)
            if context.dialect.holdsNaN, divergence.contains(.nanIsNull), let p = x.withNaN, let q = y.withNaN {
                // The branch taken with NaN kept, then NaN read as NULL (``SQLFragment/withNaN``).
                return SQLFragment(expression: nanAsNull(.case([(when: test.expression, then: p)], otherwise: q)), kind: kind, nullable: true,
                                   divergence: divergence)
            }
            return SQLFragment(expression: .case([(when: test.expression, then: x.expression)], otherwise: y.expression), kind: kind,
                               nullable: x.nullable || y.nullable, divergence: divergence)
        case .subquery:
            throw SQLUnsupported("a SUBQUERY outside @count or [SIZE]")
        default:
            throw SQLUnsupported("\(expression)")
        }
    }

    // MARK: Constants

    /// A constant, bound where it is used.
    static func constant(_ value: Value) -> SQLFragment {
        SQLFragment(expression: .null, kind: kind(of: value), nullable: value.isNull, constant: value)
    }

    static func kind(of value: Value) -> SQLKind {
        switch value {
        case .null: .null
        case .bool: .number(.boolean)
        case .int: .number(.integer)
        case .double: .number(.real)
        case .decimal: .number(.decimal)
        case .string: .string
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        case .object: .object(table: "")
        case .array, .set, .dictionary: .null
        }
    }

    /// A fragment with an expression: a constant is bound as stored (NFC text, dates as seconds).
    func materialised(_ fragment: SQLFragment) throws -> SQLFragment {
        guard let value = fragment.constant else { return fragment }
        var result = fragment
        result.expression = try bind(value, for: fragment.kind)
        result.constant = nil
        return result
    }

    /// Binds a constant in the form stored values have; an object is bound as its row key.
    func bind(_ value: Value, for kind: SQLKind, rawText: Bool = false) throws -> SQLExpression {
        switch value {
        case .object(let object):
            guard case .object(let table) = kind, !table.isEmpty else { throw SQLUnsupported("an object constant compared with no entity") }
            guard let id = (object as? ObjectReference)?.id ?? (object as? any ObjectIDConvertible)?.objectID else {
                throw SQLUnsupported("an object that is not a stored object")
            }
            return objectKey(id, table: table)
        case .string(let s) where rawText:
            return context.bind(.text(s))
        default:
            return context.bind(ColumnCodec.encode(value))
        }
    }

    /// The row key of the object with an ID, in a table: a subquery on the ID column (NULL
    /// when no such object), or the number of an introspected table's `Table/42` ID.
    func objectKey(_ id: ObjectID, table: String) -> SQLExpression {
        guard let entityTable = schema.tables.values.first(where: { $0.table == table }) else { return context.bind(.null) }
        switch entityTable.objectID {
        case .column(let column):
            return .subquery(SQLSelect(columns: [.column(table: nil, name: entityTable.primaryKey)], from: SQLFrom(table: table, alias: nil),
                                       where: .binary(.equal, .column(table: nil, name: column), context.bind(.text(id.rawValue)))))
        case .primaryKey, .entityAndKey:
            // (An ID naming an entity of another table names no row of this one.)
            guard let (key, entity) = entityTable.objectID.key(of: id.rawValue),
                  entity.map(entityTable.hierarchyEntityNames.contains) ?? true else { return context.bind(.null) }
            return context.bind(.integer(key))
        }
    }

    // MARK: Objects and key paths

    func object(of scope: SQLScope) -> SQLFragment {
        SQLFragment(expression: .column(scope.alias, scope.table.primaryKey), kind: .object(table: scope.table.table), nullable: scope.rowsMayBeNil)
    }

    func keyPath(base: ExpressionNode?, keys: [String], in scope: SQLScope) throws -> SQLOperand {
        var start = scope
        switch base?.kind {
        case nil, .evaluatedObject?: break
        case .variable(let name)?:
            guard let element = scope.variables[name] else { throw SQLUnsupported("the variable $\(name)") }
            start = element
        case .subquery(let collection, let variable, let predicate)?:
            guard keys == [CollectionOperator.count.key] else { throw SQLUnsupported("SUBQUERY(…).\(keys.joined(separator: "."))") }
            return .single(try subqueryCount(collection, variable, predicate, in: scope))
        case .index(let collection, let position)? where position != .size:
            return .single(try element(of: collection, at: position, keys: keys, in: scope))
        default:
            throw SQLUnsupported("a key path on \(base.map { "\($0)" } ?? "")")
        }
        guard !keys.isEmpty else { return .single(object(of: start)) }
        return try walk(keys[...], from: start, outer: scope)
    }

    /// Follows keys from a row: to-one steps join, the first to-many step starts a correlated
    /// subquery and every later one joins it (``CollectionPath``), a collection operator
    /// aggregates it.
    func walk(_ keys: ArraySlice<String>, from start: SQLScope, outer: SQLScope) throws -> SQLOperand {
        var alias = start.alias
        var table = start.table
        var joinedToOne = false
        var collection: CollectionSource?
        var index = keys.startIndex
        while index < keys.endIndex {
            let key = keys[index]
            let isLast = index == keys.index(before: keys.endIndex)
            if key.hasPrefix("@") {
                guard let source = collection else { throw SQLUnsupported("\(key) on a value that is not a to-many relationship") }
                let path = source.path(element: SQLFragment(expression: .null, kind: .null, nullable: true), elementScope: nil)
                // The keys after the operator are read on the rows reached: the last to-many
                // step's, or a to-one step's after it (`lines.track.@max.length`).
                return .single(try aggregate(key, rest: keys[(index + 1)...], path: path, scope: source.rows(at: alias, table: table)))
            }
            if let attribute = table.entity.attribute(named: key) {
                guard isLast, let column = table.columns[key] else { throw SQLUnsupported("a key after the attribute \(key)") }
                // A column declared with another collation (NOCASE, RTRIM) compares as stored; a
                // foreign date column is read as a date; an Undefined one is of any kind.
                var fragment = SQLFragment(expression: table.value(column: column, alias: alias), kind: Self.kind(of: attribute.type),
                                           nullable: attribute.isOptional || joinedToOne || collection != nil || !schema.isSiftLayout,
                                           readsOneColumn: true)
                // A dialect whose doubles and decimals hold NaN reads them with NaN as NULL
                // (SQLite's form for doubles; its decimals are Sift's functions' text).
                if context.dialect.holdsNaN, fragment.kind == .number(.real) || fragment.kind == .number(.decimal) {
                    fragment.expression = .function(.standard(.nullif), [fragment.expression, .string("NaN")])
                    fragment.divergence.insert(.nanIsNull)
                    fragment.nullable = true
                }
                if attribute.isSearchable, schema.isSiftLayout, table.searchable.contains(column), schema.searchColumns.isPresent {
                    fragment.search = SearchColumns(alias: alias, column: column)
                }
                if !schema.isSiftLayout, context.dialect.hasSiftFunctions, attribute.type == .decimal, fragment.kind == .number(.decimal) {
                    fragment.decimalsAreNumbers = true
                }
                if let form = table.foreignColumns[column]?.verifiedTextDateForm, !table.collatedColumns.contains(column) {
                    fragment.textDate = TextDateColumn(column: .column(alias, column), form: form)
                }
                return finish(fragment, collection)
            }
            guard let relationship = table.entity.relationship(named: key), let storage = table.relationships[key],
                  let destination = schema.table(for: relationship.destination) else {
                throw SQLUnsupported("the key \(key) of \(table.entity.name)")
            }
            switch storage {
            case .foreignKey(let column, let destinationTable, let destinationKey):
                if isLast && schema.isSiftLayout {
                    let fragment = SQLFragment(expression: .column(alias, column), kind: .object(table: destinationTable), nullable: true)
                    return finish(fragment, collection)
                }
                // In a database Sift did not create the to-one is read on the joined row (below):
                // a foreign key naming no row is nil there, as the evaluator reads it, and one
                // naming its row by another column or as text (`'2'`) is that row.
                let scope = collection?.scope ?? start
                // (A one-to-one Core Data kept on the other side is read from there too.)
                let source = alias, owner = table
                let via: ((String) -> SQLExpression)? = table.inverseKeyColumns[key] == nil ? nil : { inner in
                    schema.toOneKey(of: key, in: owner, column: column, alias: source, innerAlias: inner)
                }
                if collection != nil || scope.joins != nil {
                    var joins = scope.joins ?? []
                    alias = context.join(from: alias, column: column, table: destinationTable, key: destinationKey, into: &joins, cache: &scope.joinCache, via: via)
                    scope.joins = joins
                } else {
                    alias = context.outerJoin(from: alias, column: column, table: destinationTable, key: destinationKey, via: via)
                }
                table = destination
                if collection == nil { joinedToOne = true } else { collection?.mayReachNil = true }
                if isLast {
                    let fragment = SQLFragment(expression: .column(alias, destination.primaryKey), kind: .object(table: destinationTable), nullable: true)
                    return finish(fragment, collection)
                }
            case .inverseForeignKey(let column, let destinationTable, let sourceKey, let orderColumn):
                let element = context.newAlias()
                var hop = CollectionHop(firstAlias: element, ownerColumn: .column(element, column), ownerKey: .column(alias, sourceKey),
                                        ownerKeyMayBeNull: joinedToOne || collection != nil || sourceKey != table.primaryKey)
                // Rows of other entities may hold a key in the same column (sibling sub-entities'
                // to-ones of one name): only the destination's are its elements.
                if let test = schema.inverseEntityTest(column: column, destination: destination) {
                    let target = SQLExpression.column(element, test.column)
                    let bound = test.values.map { context.bind($0) }
                    hop.elementTest = bound.count == 1 ? .binary(.equal, target, bound[0]) : .in(target, bound)
                }
                let link = hop.elementTest.map { SQLExpression.and([.binary(.equal, hop.ownerColumn, hop.ownerKey), $0]) }
                    ?? .binary(.equal, hop.ownerColumn, hop.ownerKey)
                // (An ordered one's position column may be NULL: read as stored.)
                let order = orderColumn.map { SQLOrdering(expression: .column(element, $0), isNeverNull: false) }
                    ?? SQLOrdering(expression: .column(element, destination.primaryKey), isNeverNull: !(collection?.mayReachNil ?? false))
                if var source = collection {
                    source.follow(hop, order: order, ownerRow: .column(alias, table.primaryKey), elementKey: .column(element, destination.primaryKey),
                                  joins: [(destinationTable, element, link)],
                                  element: SQLScope(alias: element, table: destination, variables: outer.variables, isSubquery: true))
                    collection = source
                } else {
                    let scope = SQLScope(alias: element, table: destination, variables: outer.variables, isSubquery: true)
                    collection = CollectionSource(from: SQLFrom(table: destinationTable, alias: element), link: link,
                                                  scope: scope, order: [order], hops: [hop], missingOwner: missingOwner(joinedToOne, alias, table))
                }
                alias = element
                table = destination
            case .joinTable(let name, let destinationTable, let columns):
                let join = context.newAlias()
                let element = context.newAlias()
                let hop = CollectionHop(firstAlias: join, ownerColumn: .column(join, columns.owner), ownerKey: .column(alias, table.primaryKey),
                                        ownerKeyMayBeNull: joinedToOne || collection != nil)
                let order = SQLOrdering(expression: .column(join, columns.order), isNeverNull: !(collection?.mayReachNil ?? false))
                let target = SQLExpression.binary(.equal, .column(element, destination.primaryKey), .column(join, columns.target))
                if var source = collection {
                    source.follow(hop, order: order, ownerRow: .column(alias, table.primaryKey), elementKey: .column(element, destination.primaryKey),
                                  joins: [(name, join, .binary(.equal, hop.ownerColumn, hop.ownerKey)), (destinationTable, element, target)],
                                  element: SQLScope(alias: element, table: destination, variables: outer.variables, isSubquery: true))
                    collection = source
                } else {
                    let from = SQLFrom(table: name, alias: join, joins: [SQLJoin(kind: .inner, table: destinationTable, alias: element, on: target)])
                    let scope = SQLScope(alias: element, table: destination, variables: outer.variables, isSubquery: true)
                    collection = CollectionSource(from: from, link: .binary(.equal, hop.ownerColumn, hop.ownerKey), scope: scope, order: [order],
                                                  hops: [hop], missingOwner: missingOwner(joinedToOne, alias, table))
                }
                alias = element
                table = destination
            }
            if isLast, let source = collection {
                let element = SQLFragment(expression: .column(alias, table.primaryKey), kind: .object(table: table.table), nullable: source.mayReachNil)
                return .collection(source.path(element: element, elementScope: source.scope))
            }
            index += 1
        }
        return .single(object(of: start))
    }

    /// After to-one steps from the row (`owner.items`), SQL that holds when they reached nil: the
    /// collection is then one nil value (``CollectionPath/missingOwner``).
    private func missingOwner(_ joinedToOne: Bool, _ alias: String, _ table: EntityTable) -> SQLExpression? {
        joinedToOne ? .isNull(.column(alias, table.primaryKey), negated: false) : nil
    }

    /// The to-many steps met while walking a key path: the subquery's FROM and link, the last
    /// step's element rows' scope (which holds the later steps' joins), and their order.
    private struct CollectionSource {
        var from: SQLFrom
        var link: SQLExpression
        var scope: SQLScope
        var order: [SQLOrdering]
        var hops: [CollectionHop]
        /// ``CollectionPath/missingOwner``.
        var missingOwner: SQLExpression?
        /// ``CollectionPath/conditions``.
        var conditions: [SQLExpression] = []
        /// Whether a to-one step was joined since the first to-many one: its row may be nil.
        var mayReachNil = false

        /// A later to-many step: its tables joined after the steps before (inner joins, or LEFT
        /// JOINs kept where the owner is nil or the step has a row, once a to-one may have
        /// reached nil), its element rows the scope from now on.
        mutating func follow(_ hop: CollectionHop, order: SQLOrdering, ownerRow: SQLExpression, elementKey: SQLExpression,
                             joins tables: [(table: String, alias: String, on: SQLExpression)], element: SQLScope) {
            var joins = scope.joins ?? []
            for (table, alias, on) in tables { joins.append(SQLJoin(kind: mayReachNil ? .left : .inner, table: table, alias: alias, on: on)) }
            if mayReachNil { conditions.append(.or([.isNull(ownerRow, negated: false), .isNull(elementKey, negated: true)])) }
            element.joins = joins
            element.joinCache = scope.joinCache
            element.rowsMayBeNil = mayReachNil
            scope = element
            hops.append(hop)
            self.order.append(order)
        }

        /// The scope of the rows a walk has reached: the last to-many step's element rows, or
        /// the rows of to-one steps after it (which may be nil), with the same joins.
        func rows(at alias: String, table: EntityTable) -> SQLScope {
            guard alias != scope.alias else { return scope }
            let rows = SQLScope(alias: alias, table: table, variables: scope.variables, isSubquery: true)
            rows.joins = scope.joins
            rows.joinCache = scope.joinCache
            rows.rowsMayBeNil = true
            return rows
        }

        /// The path so far, its elements `element`.
        func path(element: SQLFragment, elementScope: SQLScope?) -> CollectionPath {
            CollectionPath(from: from.adding(scope.joins ?? []), link: link, conditions: conditions, element: element, elementScope: elementScope,
                           missingOwner: missingOwner, order: order, hops: hops)
        }
    }

    private func finish(_ fragment: SQLFragment, _ collection: CollectionSource?) -> SQLOperand {
        guard let source = collection else { return .single(fragment) }
        return .collection(source.path(element: fragment, elementScope: nil))
    }

    /// `@count`, `@sum.x`, `@avg.x`, `@min.x`, `@max.x` over a to-many path: the collection's
    /// aggregate (``collectionAggregate(_:of:name:)``), the keys after the operator read on
    /// each element.
    private func aggregate(_ op: String, rest: ArraySlice<String>, path: CollectionPath, scope: SQLScope) throws -> SQLFragment {
        let known = CollectionOperator(key: op)
        if known == .count {
            guard rest.isEmpty else { throw SQLUnsupported("@count followed by keys") }
            return try collectionAggregate(.count, of: path, name: op)
        }
        guard !rest.isEmpty else { throw SQLUnsupported("\(op) without a key") }
        // The keys after the operator are read on each element, in the subquery's scope.
        guard case .single(let element) = try walk(rest, from: scope, outer: scope) else {
            throw SQLUnsupported("\(op) over a to-many key path")
        }
        let rebuilt = path.with(element: element, from: fromWithJoins(path.from, scope))
        guard let known, let aggregate = CollectionAggregate(known) else { throw SQLUnsupported(op) }
        return try collectionAggregate(aggregate, of: rebuilt, name: op)
    }

    /// The subquery's FROM with the joins its element key paths added since it was made.
    func fromWithJoins(_ from: SQLFrom, _ scope: SQLScope) -> SQLFrom {
        // `path.from` already holds the joins made before the operator; add later ones.
        from.adding(scope.joins ?? [])
    }

    /// `SUBQUERY(collection, $x, predicate).@count`.
    private func subqueryCount(_ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode, in scope: SQLScope) throws -> SQLFragment {
        guard case .collection(let path) = try operand(collection, in: scope), let element = path.elementScope else {
            throw SQLUnsupported("SUBQUERY over something other than a to-many relationship")
        }
        let inner = SQLScope(alias: element.alias, table: element.table, variables: scope.variables, isSubquery: true)
        inner.joins = element.joins
        inner.joinCache = element.joinCache
        inner.rowsMayBeNil = element.rowsMayBeNil
        // `$x` and a bare key path both read the element, through the same joins.
        inner.variables[variable] = inner
        defer { inner.variables[variable] = nil }
        let condition = try PredicateSQLCompiler(schema: schema, context: context).condition(predicate, in: inner)
        let rebuilt = path.with(element: path.element, from: fromWithJoins(path.from, inner))
        return SQLFragment(expression: rebuilt.scalar(.countAll, condition: condition.expression), kind: .number(.integer), nullable: false)
    }

    /// `x[FIRST]`, `x[LAST]`, `x[n]` of a to-many key path, and `keys` read on that element
    /// (`tags[FIRST].name`): the value on the element at that place in the collection's order
    /// (``CollectionPath/order``), NULL when there is none —
    /// `(SELECT "t2"."name" FROM … WHERE <link> ORDER BY "t1"."_position" LIMIT 1 OFFSET ?1)`.
    /// `[n]` takes a constant: an integer (or boolean) from 0; any other index is nil.
    func element(of base: ExpressionNode, at position: IndexSubscript, keys: [String], in scope: SQLScope) throws -> SQLFragment {
        guard case .collection(let path) = try operand(base, in: scope) else {
            throw SQLUnsupported("an index of something other than a to-many key path")
        }
        var value = path.element
        var from = path.from
        if !keys.isEmpty {
            guard let elementScope = path.elementScope,
                  case .single(let fragment) = try walk(keys[...], from: elementScope, outer: elementScope) else {
                throw SQLUnsupported("a to-many key path after an index")
            }
            value = fragment
            from = fromWithJoins(path.from, elementScope)
        }
        let located = path.with(element: value, from: from)
        let sql: SQLExpression
        switch position {
        case .first, .size:
            sql = located.element(value.expression)
        case .last:
            sql = located.element(value.expression, descending: true)
        case .expression(let index):
            guard case .single(let fragment) = try operand(index, in: scope), let constant = fragment.constant else {
                throw SQLUnsupported("an index that is not a constant")
            }
            let offset: Int64
            switch constant {
            case .int(let i) where i >= 0: offset = i
            case .bool(let b): offset = b ? 1 : 0
            default: return SQLFragment(expression: .null, kind: .null, nullable: true)
            }
            sql = offset == 0 ? located.element(value.expression) : located.element(value.expression, offset: context.bind(.integer(offset)))
        }
        return SQLFragment(expression: sql, kind: value.kind, nullable: true)
    }

    /// `x[SIZE]`: the count of a to-many path (its elements, nil values included, and 0 where a
    /// to-one before it is nil) or of a SUBQUERY; of one value, 0 where it is nil and nil
    /// otherwise, as in the evaluator: `CASE WHEN "t0"."name" IS NULL THEN 0 END`.
    private func size(of base: ExpressionNode, in scope: SQLScope) throws -> SQLFragment {
        if case .subquery(let collection, let variable, let predicate) = base.kind {
            return try subqueryCount(collection, variable, predicate, in: scope)
        }
        switch try operand(base, in: scope) {
        case .collection(let path):
            return SQLFragment(expression: path.scalar(.countAll), kind: .number(.integer), nullable: false)
        case .single(let value):
            // NaN, which SQL holds as NULL, has no size (nil, not 0).
            guard !value.divergence.contains(.nanIsNull) else { throw SQLUnsupported("[SIZE] of a value that may be NaN") }
            let x = try materialised(value)
            if !x.nullable { return SQLFragment(expression: .null, kind: .null, nullable: true) }
            return SQLFragment(expression: .case([(when: .isNull(x.expression, negated: false), then: .integer(0))], otherwise: nil),
                               kind: .number(.integer), nullable: true)
        case .constants:
            throw SQLUnsupported("[SIZE] of a constant collection")
        }
    }

    // MARK: Arithmetic

    /// `-x` on numbers (the least integer negates to a double, as in the evaluator), `~x` on
    /// integers.
    func unary(_ op: UnaryOperator, _ operand: SQLFragment) throws -> SQLFragment {
        let x = try materialised(operand)
        switch (op, x.kind) {
        case (.negate, .number(let n)) where n != .decimal || !context.dialect.hasSiftFunctions:
            // (A decimal of a dialect without Sift's functions is a `numeric`, negated exactly.)
            return SQLFragment(expression: .unary(.negate, x.expression), kind: .number(n == .boolean ? .integer : n == .integer ? .mixed : n), nullable: x.nullable,
                               divergence: x.divergence)
        case (.bitwiseNot, .number(let n)) where n == .integer || n == .boolean:
            return SQLFragment(expression: .unary(.bitwiseNot, x.expression), kind: .number(.integer), nullable: x.nullable)
        default:
            throw SQLUnsupported("\(op.symbol) on \(x.kind)")
        }
    }

    /// `+ - * /` on numbers (SQLite's integer arithmetic is the evaluator's: `/` truncates,
    /// overflow gives a double, division by zero NULL), `& | << >>` on integers, and dates
    /// moved by seconds; `**` and `^` are the evaluator's (`sift_call` of `raise:toPower:` and
    /// `bitwiseXor:with:`), and so is arithmetic on decimals (``decimalArithmetic(_:_:_:)``).
    /// Anything else (strings, a date moved by a decimal) is left to the evaluator.
    ///
    /// Where the evaluator could compute NaN (`inf - inf`, `0 * inf`, `inf / inf`, a negative
    /// number to a fractional power), SQL has NULL: the result says so
    /// (``SQLFragment/Divergence/nanIsNull``), and a date that could be NaN is not compiled.
    func arithmetic(_ op: BinaryOperator, _ a: SQLFragment, _ b: SQLFragment) throws -> SQLFragment {
        let x = try materialised(a), y = try materialised(b)
        let nullable = x.nullable || y.nullable
        if x.kind == .null || y.kind == .null { return SQLFragment(expression: .null, kind: .null, nullable: true) }
        func numberKind(_ k: SQLKind) -> SQLKind.NumberKind? {
            if case .number(let n) = k, n != .decimal { return n }
            return nil
        }
        let inherited = x.divergence.union(y.divergence)
        let infinite = (Self.mayBeInfinite(a), Self.mayBeInfinite(b))
        switch op {
        case .add, .subtract, .multiply, .divide:
            if let decimal = try decimalArithmetic(op, a, b) { return decimal }
            if let m = numberKind(x.kind), let n = numberKind(y.kind) {
                let kind: SQLKind.NumberKind = (m == .real || n == .real) ? .real : .mixed
                let nan: Bool
                switch op {
                case .multiply: nan = (infinite.0 && Self.mayBeZero(b)) || (infinite.1 && Self.mayBeZero(a))
                case .add, .subtract, .divide: nan = infinite.0 && infinite.1
                case .power, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift: throw SQLUnsupported("'\(op.symbol)' as + - * /")
                }
                let divergence = nan ? inherited.union(.nanIsNull) : inherited
                if context.dialect.holdsNaN, divergence.contains(.nanIsNull) {
                    // Computed from the operands with NaN kept, then NaN read as NULL: so the
                    // value with NaN kept (``SQLFragment/withNaN``) is nil exactly where the
                    // evaluator's is (a division by zero, NULL by `nullif`, included).
                    guard let p = x.withNaN, let q = y.withNaN else { throw SQLUnsupported("'\(op.symbol)' on a computed value that may be NaN") }
                    let sql = SQLExpression.binary(try Self.sqlOperator(op), p, op == .divide ? .function(.standard(.nullif), [q, .integer(0)]) : q)
                    return SQLFragment(expression: nanAsNull(sql), kind: .number(kind), nullable: true, divergence: divergence)
                }
                // (SQLite has no NaN: its arithmetic gives NULL where the evaluator's gives NaN.)
                return SQLFragment(expression: .binary(try Self.sqlOperator(op), x.expression, y.expression), kind: .number(kind),
                                   nullable: nullable || op == .divide || divergence.contains(.nanIsNull), divergence: divergence)
            }
            if op == .add || op == .subtract, x.kind == .date, numberKind(y.kind) != nil {
                guard !(infinite.0 && infinite.1), inherited.isEmpty else { throw SQLUnsupported("a date moved by seconds that could make it NaN") }
                return SQLFragment(expression: .binary(try Self.sqlOperator(op), x.expression, y.expression), kind: .date, nullable: nullable)
            }
            if op == .add, y.kind == .date, numberKind(x.kind) != nil {
                guard !(infinite.0 && infinite.1), inherited.isEmpty else { throw SQLUnsupported("a date moved by seconds that could make it NaN") }
                return SQLFragment(expression: .binary(.add, x.expression, y.expression), kind: .date, nullable: nullable)
            }
            if op == .subtract, x.kind == .date, y.kind == .date {
                let divergence: SQLFragment.Divergence = infinite.0 && infinite.1 ? .nanIsNull : []
                let sql = SQLExpression.binary(.subtract, x.expression, y.expression)
                return SQLFragment(expression: divergence.isEmpty ? sql : nanAsNull(sql), kind: .number(.real), nullable: nullable || !divergence.isEmpty,
                                   divergence: divergence)
            }
            throw SQLUnsupported("'\(op.symbol)' on \(x.kind) and \(y.kind)")
        case .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift:
            guard x.kind.isInteger, y.kind.isInteger else { throw SQLUnsupported("'\(op.symbol)' on \(x.kind) and \(y.kind)") }
            if op == .leftShift || op == .rightShift, !context.dialect.hasSiftFunctions {
                return SQLFragment(expression: try serverShift(left: op == .leftShift, x, count: b.constant), kind: .number(.integer), nullable: nullable)
            }
            return SQLFragment(expression: .binary(try Self.sqlOperator(op), x.expression, y.expression), kind: .number(.integer), nullable: nullable)
        case .bitwiseXor:
            guard x.kind.isInteger, y.kind.isInteger else { throw SQLUnsupported("'^' on \(x.kind) and \(y.kind)") }
            if !context.dialect.hasSiftFunctions {
                return SQLFragment(expression: .binary(.bitwiseXor, .cast(x.expression, "bigint"), .cast(y.expression, "bigint")), kind: .number(.integer),
                                   nullable: nullable)
            }
            return try call(.bitwiseXor, [x, y], kind: .number(.integer), nullable: nullable)
        case .power:
            // (`**` is of doubles: a decimal is its double.)
            if a.kind == .number(.decimal) || b.kind == .number(.decimal),
               let p = a.kind == .number(.decimal) ? decimalAsDouble(a) : a, let q = b.kind == .number(.decimal) ? decimalAsDouble(b) : b {
                return try arithmetic(op, p, q)
            }
            guard numberKind(x.kind) != nil, numberKind(y.kind) != nil else { throw SQLUnsupported("'**' on \(x.kind) and \(y.kind)") }
            if !context.dialect.hasSiftFunctions, context.dialect.holdsNaN {
                // The C library's pow, as the evaluator's; PostgreSQL raises an error where it
                // would give NaN or overflow (a fractional power of a negative number, zero to a
                // negative power, a result out of range), and the fetch runs in memory. pow(NaN,
                // 0) is 1, as is pow(1, NaN), in both: a stored double is given as it is stored
                // (NaN and all), and a NaN result read as NULL, as a stored one is.
                func operand(_ f: SQLFragment) throws -> SQLExpression {
                    guard let value = f.withNaN else { throw SQLUnsupported("'**' on a computed value that may be NaN") }
                    return value
                }
                let power = SQLExpression.function(.standard(.power), [.cast(try operand(x), "double precision"), .cast(try operand(y), "double precision")])
                let nan = inherited.contains(.nanIsNull)
                return SQLFragment(expression: nan ? nanAsNull(power) : power, kind: .number(.real), nullable: nullable || nan,
                                   divergence: nan ? .nanIsNull : [])
            }
            // pow(NaN, 0) is 1: an operand SQL holds as NULL for NaN would give NULL instead.
            guard !inherited.contains(.nanIsNull) else { throw SQLUnsupported("'**' on \(x.kind) and \(y.kind)") }
            // Only a fractional power (of a negative number) is NaN.
            let integralExponent: Bool
            switch b.constant {
            case .double(let d)?: integralExponent = d.isFinite && d == d.rounded(.towardZero)
            case .some: integralExponent = true
            case nil: integralExponent = y.kind.isInteger
            }
            return try call(.raise, [x, y], kind: .number(.real), nullable: nullable || !integralExponent,
                            divergence: integralExponent ? [] : .nanIsNull)
        }
    }

    /// A shift with Swift's rules (the evaluator's `<<` and `>>` on Int64, which SQLite's share)
    /// in a server whose shift takes an `integer` count and masks it as C's does (PostgreSQL): by
    /// a constant count only. A negative count shifts the other way; 64 places or more leave 0
    /// to the left and the sign to the right (`x >> 63`):
    ///
    ///     level << 1       CAST("t0"."level" AS bigint) << CAST($1 AS integer)
    ///     level >> -2      CAST("t0"."level" AS bigint) << CAST($1 AS integer)      -- $1 = 2
    ///     level << 70      CAST("t0"."level" AS bigint) * 0
    ///     level >> 70      CAST("t0"."level" AS bigint) >> 63
    func serverShift(left: Bool, _ x: SQLFragment, count: Value?) throws -> SQLExpression {
        guard case .int(let n)? = count else { throw SQLUnsupported("a shift by a count that is not a constant integer") }
        let value = SQLExpression.cast(x.expression, "bigint")
        let towardsLeft = n >= 0 ? left : !left
        guard n != .min, n.magnitude < 64 else { return towardsLeft ? .binary(.multiply, value, .integer(0)) : .binary(.rightShift, value, .integer(63)) }
        return .binary(towardsLeft ? .leftShift : .rightShift, value, .cast(context.bind(.integer(Int64(n.magnitude))), "integer"))
    }

    /// A computation that could make NaN, with NaN as NULL (``SQLFragment/Divergence/nanIsNull``):
    /// as it is in SQLite, which has no NaN; `nullif(x * y, 'NaN')` in a dialect whose doubles hold
    /// NaN (PostgreSQL), which would otherwise order the NaN above every number and equal to itself.
    func nanAsNull(_ expression: SQLExpression) -> SQLExpression {
        context.dialect.holdsNaN ? .function(.standard(.nullif), [expression, .string("NaN")]) : expression
    }

    /// The SQL operator of an arithmetic operator SQL has (`**` and `^` are the evaluator's).
    static func sqlOperator(_ op: BinaryOperator) throws -> SQLBinaryOperator {
        switch op {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        case .divide: .divide
        case .bitwiseAnd: .bitwiseAnd
        case .bitwiseOr: .bitwiseOr
        case .leftShift: .leftShift
        case .rightShift: .rightShift
        case .bitwiseXor, .power: throw SQLUnsupported("'\(op.symbol)' as a SQL operator")
        }
    }

    static func kind(of type: AttributeType) -> SQLKind {
        switch type {
        case .integer16, .integer32, .integer64: .number(.integer)
        case .boolean: .number(.boolean)
        case .double, .float: .number(.real)
        case .decimal: .number(.decimal)
        case .string, .uri: .string
        case .date: .date
        case .binary, .transformable: .data
        case .uuid: .uuid
        case .undefined: .dynamic
        }
    }
}
