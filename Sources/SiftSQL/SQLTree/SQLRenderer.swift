
/// Writes ``SQLExpression`` trees and ``SQLSelect``s as one statement's text in a
/// ``SQLDialect``, collecting the values they bind.
///
/// Parameters are numbered in the order the text uses them, as it is written: one statement is
/// rendered by one renderer, its parts in the order they appear, so a value bound for SQL that
/// was finally left out is never numbered nor bound, and no text is renumbered afterwards.
///
/// Parentheses are those the dialect's precedence table calls for (``SQLPrecedenceTable``):
/// an operand binding less tightly than its operator is parenthesised, and nothing else is.
package final class SQLRenderer {
    package let dialect: any SQLDialect
    private let table: SQLPrecedenceTable
    /// The bound values, in placeholder order.
    package private(set) var bindings: [SQLValue] = []
    private var numbers: [Int: Int] = [:]
    /// What the dialect could not spell (empty in SQLite): the text must not be run then.
    private(set) var unsupported: [String] = []
    /// The tables the aliases of the statements being written name, innermost statement last
    /// (the key "" holds an unaliased table).
    private var scopes: [[String: String]] = []

    package init(_ dialect: any SQLDialect) {
        self.dialect = dialect
        self.table = dialect.precedence
    }

    // MARK: Expressions

    /// The most operands of one AND or OR written one after another. SQLite's parser nests
    /// `a AND b AND c …` one level per operand and stops at 1,000 levels ("Expression tree is
    /// too large"); a longer list is written as a balanced tree of parenthesised halves, whose
    /// depth grows with the logarithm of its length.
    package static let longestFlatList = 64

    /// `parts` joined by `joiner` as a balanced tree: `(a AND b) AND (c AND d)`.
    private func balanced(_ parts: ArraySlice<SQLExpression>, joiner: String, level: Int) -> String {
        if parts.count <= Self.longestFlatList { return parts.map { render($0, atLeast: level) }.joined(separator: joiner) }
        let middle = parts.startIndex + parts.count / 2
        return "(" + balanced(parts[..<middle], joiner: joiner, level: level) + ")" + joiner
            + "(" + balanced(parts[middle...], joiner: joiner, level: level) + ")"
    }

    /// The expression's text.
    package func render(_ expression: SQLExpression) -> String {
        switch expression {
        case .column(let alias, let name):
            let text = alias.map { dialect.quoted($0) + "." + dialect.quoted(name) } ?? dialect.quoted(name)
            return dialect.column(text, table: tableOf(alias: alias ?? ""), name: name) ?? unsupported("the column \(text)")
        case .parameter(let parameter):
            // (A server infers a parameter's type from its context, which `$1 IS NULL` lacks.)
            if case .null = parameter.value, dialect.writesNullParametersAsNULL { return "NULL" }
            if let number = numbers[parameter.id] { return dialect.placeholder(number) }
            bindings.append(parameter.value)
            numbers[parameter.id] = bindings.count
            return dialect.placeholder(bindings.count)
        case .null:
            return "NULL"
        case .boolean(let value):
            return dialect.boolean(value)
        case .integer(let value):
            return String(value)
        case .literal(let text):
            return text
        case .string(let text):
            return dialect.string(text)
        case .unary(let op, let operand):
            let symbol: String
            switch op {
            case .negate: symbol = "-"
            case .plus: symbol = "+"
            case .bitwiseNot: symbol = "~"
            }
            return symbol + render(operand, atLeast: SQLPrecedenceTable.atom)
        case .binary(let op, let left, let right):
            let level = table.level(op)
            let associative = table.isAssociative(op)
            if !dialect.supports(op) { _ = unsupported("the operator \(dialect.spelling(of: op))") }
            return render(left, atLeast: associative ? level : level + 1) + " " + dialect.spelling(of: op) + " " + render(right, atLeast: level + 1)
        case .and(let parts):
            guard !parts.isEmpty else { return dialect.boolean(true) }
            if parts.count == 1 { return render(parts[0]) }
            if parts.count > Self.longestFlatList { return balanced(parts[...], joiner: " AND ", level: table.and) }
            return parts.map { render($0, atLeast: table.and) }.joined(separator: " AND ")
        case .or(let parts):
            guard !parts.isEmpty else { return dialect.boolean(false) }
            if parts.count == 1 { return render(parts[0]) }
            if parts.count > Self.longestFlatList { return balanced(parts[...], joiner: " OR ", level: table.or) }
            return parts.map { render($0, atLeast: table.or) }.joined(separator: " OR ")
        case .not(let operand):
            return "NOT " + render(operand, atLeast: table.not)
        case .isNull(let operand, let negated):
            return render(operand, atLeast: table.isNull + 1) + (negated ? " IS NOT NULL" : " IS NULL")
        case .in(let value, let list):
            let operand = render(value, atLeast: table.in + 1)
            if list.count >= JSONValueList.minimumCount, let values = Self.parameterValues(list),
               let text = dialect.membership(operand, in: values, bind: { value in
                   bindings.append(value)
                   return dialect.placeholder(bindings.count)
               }) {
                return text
            }
            return operand + " IN (" + list.map { render($0) }.joined(separator: ", ") + ")"
        case .inSubquery(let value, let select):
            return render(value, atLeast: table.in + 1) + " IN (" + render(select) + ")"
        case .between(let value, let low, let high):
            return render(value, atLeast: table.between + 1) + " BETWEEN " + render(low, atLeast: table.between + 1)
                + " AND " + render(high, atLeast: table.between + 1)
        case .function(let name, let arguments):
            let spelled = dialect.functionName(name) ?? unsupported(name.name)
            return spelled + "(" + arguments.map { render($0) }.joined(separator: ", ") + ")"
        case .countAll:
            return "count(*)"
        case .orderedAggregate(let name, let argument, let orderBy):
            let spelled = dialect.functionName(name) ?? unsupported(name.name)
            return spelled + "(" + render(argument) + " ORDER BY " + orderBy.map(render).joined(separator: ", ") + ")"
        case .endsWith(let value, let suffix, let characters):
            return dialect.endsWith(render(value), render(suffix), characters: characters)
        case .cast(let value, let type):
            return "CAST(" + render(value) + " AS " + type + ")"
        case .case(let branches, let otherwise):
            var text = "CASE"
            for branch in branches { text += " WHEN " + render(branch.when) + " THEN " + render(branch.then) }
            if let otherwise { text += " ELSE " + render(otherwise) }
            return text + " END"
        case .collate(let operand, let collation):
            return render(operand, atLeast: SQLPrecedenceTable.atom) + " COLLATE " + (dialect.collation(collation) ?? unsupported(collation))
        case .storageClassIn(let operand, let classes):
            return dialect.storageClassTest(render(operand), classes) ?? unsupported("typeof")
        case .storageClass(let operand):
            return dialect.storageClass(render(operand)) ?? unsupported("typeof")
        case .exists(let select):
            return "EXISTS (" + render(select) + ")"
        case .subquery(let select):
            return "(" + render(select) + ")"
        case .rowNumber(let orderBy):
            let name = dialect.functionName(.rowNumber) ?? unsupported(SQLStandardFunction.rowNumber.rawValue)
            return name + "() OVER (ORDER BY " + orderBy.map(render).joined(separator: ", ") + ")"
        }
    }

    /// The values of a list of parameters (a long `IN` list), or nil when one is not a parameter.
    private static func parameterValues(_ list: [SQLExpression]) -> [SQLValue]? {
        var values: [SQLValue] = []
        values.reserveCapacity(list.count)
        for expression in list {
            guard case .parameter(let parameter) = expression else { return nil }
            values.append(parameter.value)
        }
        return values
    }

    /// The expression's text, parenthesised when it binds less tightly than `level`.
    package func render(_ expression: SQLExpression, atLeast level: Int) -> String {
        let text = render(expression)
        return self.level(of: expression) < level ? "(" + text + ")" : text
    }

    /// How tightly the expression's text binds, as written in this dialect.
    package func level(of expression: SQLExpression) -> Int {
        switch expression {
        case .integer(let value) where value < 0:
            return table.unary[.negate] ?? 0
        case .literal(let text) where text.hasPrefix("-"):
            return table.unary[.negate] ?? 0
        case .unary(let op, _): return table.unary[op] ?? 0
        case .binary(let op, _, _): return table.level(op)
        case .and(let parts): return parts.count == 1 ? level(of: parts[0]) : parts.isEmpty ? SQLPrecedenceTable.atom : table.and
        case .or(let parts): return parts.count == 1 ? level(of: parts[0]) : parts.isEmpty ? SQLPrecedenceTable.atom : table.or
        case .not: return table.not
        case .isNull: return table.isNull
        case .in, .inSubquery: return table.in
        case .between: return table.between
        case .collate: return table.collate
        case .storageClassIn: return table.storageClassTest
        case .column, .parameter, .null, .boolean, .integer, .literal, .string, .function, .countAll, .case, .storageClass, .exists, .subquery,
             .rowNumber, .orderedAggregate, .cast:
            return SQLPrecedenceTable.atom
        case .endsWith: return table.level(.equal)
        }
    }

    /// The table `alias` names in the innermost statement that has it.
    private func tableOf(alias: String) -> String? {
        for scope in scopes.reversed() { if let table = scope[alias] { return table } }
        return nil
    }

    /// The aliases a FROM clause introduces, and their tables.
    private func aliases(of from: SQLFrom?) -> [String: String] {
        guard let from else { return [:] }
        var result: [String: String] = [:]
        if case .table(let table) = from.source { result[from.alias ?? ""] = table }
        for join in from.joins { result[join.alias] = join.table }
        return result
    }

    private func unsupported(_ construct: String) -> String {
        unsupported.append(construct)
        return construct
    }

    // MARK: Statements

    /// `SELECT … FROM … WHERE … GROUP BY … ORDER BY … LIMIT … OFFSET …`.
    package func render(_ select: SQLSelect) -> String {
        scopes.append(aliases(of: select.from))
        defer { scopes.removeLast() }
        var text = "SELECT " + select.columns.enumerated().map { index, column in
            let alias = index < select.aliases.count ? select.aliases[index] : nil
            return render(column) + (alias.map { " AS " + dialect.quoted($0) } ?? "")
        }.joined(separator: ", ")
        if let from = select.from { text += " FROM " + render(from) }
        if let condition = select.where { text += " WHERE " + render(condition) }
        if !select.groupBy.isEmpty { text += " GROUP BY " + select.groupBy.map { render($0) }.joined(separator: ", ") }
        if !select.orderBy.isEmpty { text += " ORDER BY " + select.orderBy.map(render).joined(separator: ", ") }
        if let limit = select.limit { text += " LIMIT " + render(limit) }
        if let offset = select.offset { text += " OFFSET " + render(offset) }
        return text
    }

    /// `"Book" AS "t0" LEFT JOIN "Author" AS "t1" ON …`.
    package func render(_ from: SQLFrom) -> String {
        var text: String
        switch from.source {
        case .table(let table): text = dialect.quoted(table)
        case .subquery(let select):
            text = "(" + render(select) + ")"
            if from.alias == nil && dialect.requiresDerivedTableAlias { text += " AS " + dialect.quoted("_") }
        }
        if let alias = from.alias { text += " AS " + dialect.quoted(alias) }
        for join in from.joins { text += " " + render(join) }
        return text
    }

    package func render(_ join: SQLJoin) -> String {
        (join.kind == .left ? "LEFT JOIN " : "JOIN ") + dialect.quoted(join.table) + " AS " + dialect.quoted(join.alias) + " ON " + render(join.on)
    }

    package func render(_ ordering: SQLOrdering) -> String {
        render(ordering.expression) + (ordering.descending ? " DESC" : "") + (ordering.isNeverNull ? "" : dialect.nullsOrder(descending: ordering.descending))
    }
}
