/// Questions the compiler asks of a tree it built (never of text).
extension SQLExpression {
    /// A column, a bound value or a literal, perhaps with COLLATE, a prefix operator or one
    /// binary operator on such leaves: cheap enough to write twice, and no call or subquery.
    package var isSimple: Bool {
        switch self {
        case .column, .parameter, .null, .boolean, .integer, .literal, .string: true
        case .collate(let e, _), .unary(_, let e): e.isLeaf
        case .binary(_, let a, let b): a.isLeaf && b.isLeaf
        default: false
        }
    }

    private var isLeaf: Bool {
        switch self {
        case .column, .parameter, .null, .boolean, .integer, .literal, .string: true
        case .collate(let e, _), .unary(_, let e): e.isLeaf
        default: false
        }
    }

    /// Whether the column `name` of the row aliased `alias` is an operand of an operator
    /// somewhere in the tree (`"t0"."year" > ?1`, `"t0"."year" + ?1`, `"t0"."year" IS NULL`,
    /// `"t0"."year" IN (…)`), subqueries included, as opposed to only a function's argument:
    /// where SQLite may search an index on it.
    package func comparesColumn(_ alias: String, _ name: String) -> Bool {
        func isTheColumn(_ e: SQLExpression) -> Bool {
            switch e {
            case .column(let table, let column): table == alias && column == name
            case .collate(let inner, _): isTheColumn(inner)
            default: false
            }
        }
        switch self {
        case .binary(_, let a, let b):
            return isTheColumn(a) || isTheColumn(b) || a.comparesColumn(alias, name) || b.comparesColumn(alias, name)
        case .isNull(let e, _):
            return isTheColumn(e) || e.comparesColumn(alias, name)
        case .in(let e, let list):
            return isTheColumn(e) || e.comparesColumn(alias, name) || list.contains { $0.comparesColumn(alias, name) }
        case .inSubquery(let e, let select):
            return isTheColumn(e) || e.comparesColumn(alias, name) || select.comparesColumn(alias, name)
        case .between(let e, let low, let high):
            return isTheColumn(e) || [e, low, high].contains { $0.comparesColumn(alias, name) }
        case .unary(_, let e), .not(let e), .collate(let e, _), .storageClassIn(let e, _), .storageClass(let e), .cast(let e, _):
            return e.comparesColumn(alias, name)
        case .endsWith(let e, let suffix, _):
            // (A function's argument: no index finds a suffix.)
            return e.comparesColumn(alias, name) || suffix.comparesColumn(alias, name)
        case .orderedAggregate(_, let e, let orderBy):
            return e.comparesColumn(alias, name) || orderBy.contains { $0.expression.comparesColumn(alias, name) }
        case .and(let parts), .or(let parts), .function(_, let parts):
            return parts.contains { $0.comparesColumn(alias, name) }
        case .case(let branches, let otherwise):
            // (A guarded column, `CASE WHEN typeof(x) = 'text' THEN x END`, is compared as itself.)
            return branches.contains { $0.when.comparesColumn(alias, name) || isTheColumn($0.then) || $0.then.comparesColumn(alias, name) }
                || otherwise.map { isTheColumn($0) || $0.comparesColumn(alias, name) } ?? false
        case .exists(let select), .subquery(let select):
            return select.comparesColumn(alias, name)
        case .rowNumber(let orderBy):
            return orderBy.contains { $0.expression.comparesColumn(alias, name) }
        case .column, .parameter, .null, .boolean, .integer, .literal, .string, .countAll:
            return false
        }
    }
}

extension SQLExpression {
    /// Whether evaluating it may raise an error in a server that raises one where SQLite gives
    /// NULL or a double (PostgreSQL: an integer overflow, a division by zero, the square root of
    /// a negative number, a cast out of range, a value the number functions do not convert
    /// exactly): arithmetic, negation, casts, `abs`, `sqrt`, sums, ``SQLNumberFunction``,
    /// anywhere in the tree, subqueries included.
    package var mayRaise: Bool {
        switch self {
        case .binary(let op, let a, let b):
            return [.add, .subtract, .multiply, .divide, .remainder, .leftShift, .rightShift].contains(op) || a.mayRaise || b.mayRaise
        case .unary(.negate, _), .cast, .orderedAggregate:
            return true
        case .function(.standard(let function), let arguments):
            return function.mayRaise || arguments.contains { $0.mayRaise }
        case .function(.provided(let function), let arguments):
            return function.mayRaise || arguments.contains { $0.mayRaise }
        case .unary(_, let e), .not(let e), .collate(let e, _), .storageClassIn(let e, _), .storageClass(let e), .isNull(let e, _):
            return e.mayRaise
        case .endsWith(let e, let suffix, _):
            return e.mayRaise || suffix.mayRaise
        case .and(let parts), .or(let parts):
            return parts.contains { $0.mayRaise }
        case .in(let e, let list):
            return e.mayRaise || list.contains { $0.mayRaise }
        case .inSubquery(let e, let select):
            return e.mayRaise || select.mayRaise
        case .between(let e, let low, let high):
            return [e, low, high].contains { $0.mayRaise }
        case .case(let branches, let otherwise):
            return branches.contains { $0.when.mayRaise || $0.then.mayRaise } || (otherwise?.mayRaise ?? false)
        case .exists(let select), .subquery(let select):
            return select.mayRaise
        case .rowNumber(let orderBy):
            return orderBy.contains { $0.expression.mayRaise }
        case .column, .parameter, .null, .boolean, .integer, .literal, .string, .countAll:
            return false
        }
    }
}

extension SQLSelect {
    /// ``SQLExpression/mayRaise`` anywhere in the statement.
    package var mayRaise: Bool {
        (columns + [`where`].compactMap { $0 } + groupBy + orderBy.map(\.expression) + (from?.joins.map(\.on) ?? [])).contains { $0.mayRaise }
            || { if case .subquery(let inner)? = from?.source { inner.mayRaise } else { false } }()
    }

    /// ``SQLExpression/comparesColumn(_:_:)`` anywhere in the statement.
    package func comparesColumn(_ alias: String, _ name: String) -> Bool {
        (columns + [`where`].compactMap { $0 } + groupBy + orderBy.map(\.expression) + (from?.joins.map(\.on) ?? []))
            .contains { $0.comparesColumn(alias, name) }
    }
}

extension SQLExpression {
    /// The expressions and statements directly inside this one (a subquery's statement, not its
    /// parts).
    fileprivate var parts: (expressions: [SQLExpression], selects: [SQLSelect]) {
        switch self {
        case .column, .parameter, .null, .boolean, .integer, .literal, .string, .countAll:
            return ([], [])
        case .unary(_, let e), .not(let e), .isNull(let e, _), .collate(let e, _), .storageClassIn(let e, _), .storageClass(let e),
             .cast(let e, _):
            return ([e], [])
        case .endsWith(let e, let suffix, _):
            return ([e, suffix], [])
        case .binary(_, let a, let b):
            return ([a, b], [])
        case .and(let list), .or(let list), .function(_, let list):
            return (list, [])
        case .in(let e, let list):
            return ([e] + list, [])
        case .inSubquery(let e, let select):
            return ([e], [select])
        case .between(let e, let low, let high):
            return ([e, low, high], [])
        case .orderedAggregate(_, let e, let orderBy):
            return ([e] + orderBy.map(\.expression), [])
        case .case(let branches, let otherwise):
            return (branches.flatMap { [$0.when, $0.then] } + (otherwise.map { [$0] } ?? []), [])
        case .exists(let select), .subquery(let select):
            return ([], [select])
        case .rowNumber(let orderBy):
            return (orderBy.map(\.expression), [])
        }
    }

    /// The table aliases its columns are qualified with, anywhere in the tree (subqueries
    /// included): `["t0", "t2"]` for `"t0"."x" = (SELECT max("t2"."y") FROM "Item" AS "t2")`.
    package var aliasesRead: Set<String> {
        var use = AliasUse()
        use.collect(self)
        return use.read
    }

    /// The aliases its subqueries' FROM clauses and joins introduce, anywhere in the tree:
    /// `["t2"]` in the example of ``aliasesRead``.
    package var aliasesIntroduced: Set<String> {
        var use = AliasUse()
        use.collect(self)
        return use.introduced
    }
}

/// The table aliases a tree reads and introduces (``SQLExpression/aliasesRead``).
private struct AliasUse {
    package var read: Set<String> = []
    package var introduced: Set<String> = []

    package mutating func collect(_ expression: SQLExpression) {
        if case .column(let table?, _) = expression { read.insert(table) }
        let (expressions, selects) = expression.parts
        for part in expressions { collect(part) }
        for select in selects { collect(select) }
    }

    package mutating func collect(_ select: SQLSelect) {
        if let from = select.from {
            if let alias = from.alias { introduced.insert(alias) }
            for join in from.joins {
                introduced.insert(join.alias)
                collect(join.on)
            }
            if case .subquery(let inner) = from.source { collect(inner) }
        }
        for expression in select.columns + [select.where].compactMap({ $0 }) + select.groupBy + select.orderBy.map(\.expression)
            + [select.limit, select.offset].compactMap({ $0 }) {
            collect(expression)
        }
    }
}
