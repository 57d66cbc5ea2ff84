/// A fetch written as one statement (the CLI's and the REPL's query language); each statement
/// is exactly one fetch request:
///
///     [FETCH] Entity [WHERE predicate] [SORT BY key [ASC|DESC] [USING comparator], ...]
///         [SECTION BY keypath] [LIMIT n] [OFFSET n]
///     COUNT Entity [WHERE predicate]
///     SELECT [DISTINCT] * | expression [AS name], ... FROM Entity [WHERE predicate]
///         [GROUP BY expression, ...] [HAVING predicate] [SORT BY ...] [LIMIT n] [OFFSET n]
///
/// `ORDER BY` is a synonym of `SORT BY`; keywords are case-insensitive. The grammar is in
/// `Grammar/statement.ebnf`. `%@`, `%K`, `%d` arguments bind in order across the clauses.
public struct FetchStatement: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// Objects (`FETCH` or a bare entity name).
        case fetch
        /// The number of objects (`COUNT`).
        case count
        /// Dictionaries of chosen properties (`SELECT`).
        case select
    }

    /// A property of a SELECT: an expression and the name its value gets in the result.
    public struct SelectItem: Sendable, Hashable {
        public var expression: ExpressionNode
        /// The `AS` name; nil when none was given (the expression's text names it).
        public var alias: String?

        public init(_ expression: ExpressionNode, alias: String? = nil) {
            self.expression = expression
            self.alias = alias
        }

        /// The result key: the alias; for a key path its keys joined by dots, without the
        /// statement's escapes (`title`, `category.name`, `2B` for `#2B`); else the expression as
        /// written canonically (`count:(title)`).
        public var name: String { alias ?? FetchStatement.resultName(of: expression) }
    }

    /// `key [ASC|DESC] [USING comparator]`.
    public struct SortItem: Sendable, Hashable {
        /// The key path as the statement writes it, canonically (`#2B`, `artist.name`).
        public var keyPath: String
        public var ascending: Bool
        /// One of ``FetchStatement/comparatorNames``; nil for the default (`compare`).
        public var comparator: String?

        public init(keyPath: String, ascending: Bool = true, comparator: String? = nil) {
            self.keyPath = keyPath
            self.ascending = ascending
            self.comparator = comparator
        }

        /// The key path as a fetch request's sort descriptor names it (``FetchStatement/requestKeyPath(_:)``:
        /// `2B` for `#2B`).
        public var requestKeyPath: String { FetchStatement.requestKeyPath(keyPath) }
    }

    public var kind: Kind
    public var entityName: String
    public var predicate: PredicateNode?
    public var sort: [SortItem]
    /// The section key path as the statement writes it, canonically (`#size`, `category.name`).
    public var sectionKeyPath: String?
    public var limit: Int?
    public var offset: Int?
    public var distinct: Bool
    public var properties: [SelectItem]
    public var groupBy: [ExpressionNode]
    public var having: PredicateNode?

    public init(kind: Kind, entityName: String, predicate: PredicateNode? = nil, sort: [SortItem] = [],
                sectionKeyPath: String? = nil, limit: Int? = nil, offset: Int? = nil, distinct: Bool = false,
                properties: [SelectItem] = [], groupBy: [ExpressionNode] = [], having: PredicateNode? = nil) {
        self.kind = kind
        self.entityName = entityName
        self.predicate = predicate
        self.sort = sort
        self.sectionKeyPath = sectionKeyPath
        self.limit = limit
        self.offset = offset
        self.distinct = distinct
        self.properties = properties
        self.groupBy = groupBy
        self.having = having
    }

    /// The section key path as a fetch request names it (``requestKeyPath(_:)``).
    public var requestSectionKeyPath: String? { sectionKeyPath.map(Self.requestKeyPath) }

    /// A key path written as a statement writes it (`#2B`, `a.#size`, `SELF.a`) as fetch
    /// requests and sort descriptors name key paths, Core Data's way: its keys joined by dots,
    /// each as the data names it (`2B`, `a.size`, `a`). Text that is not a key path is
    /// returned as it is.
    public static func requestKeyPath(_ text: String) -> String {
        guard let expression = try? ExpressionNode(format: text) else { return text }
        return keys(of: expression)?.joined(separator: ".") ?? text
    }

    /// The keys of a key path read from the evaluated object (`a.b`, `SELF.a`); nil for any
    /// other expression.
    package static func keys(of expression: ExpressionNode) -> [String]? {
        guard case .keyPath(let base, let keys) = expression.kind, base == nil || base?.kind == .evaluatedObject else { return nil }
        return keys
    }

    /// The result key of a property or group written without AS: a key path's keys joined by
    /// dots (`2B`, `category.name`), any other expression's canonical text (`count:(title)`).
    public static func resultName(of expression: ExpressionNode) -> String {
        keys(of: expression)?.joined(separator: ".") ?? CanonicalPrinter.format(expression)
    }

    /// The sort comparators `USING` accepts (FETCH.md §3).
    public static let comparatorNames = [
        "compare", "caseInsensitiveCompare", "localizedCompare", "localizedCaseInsensitiveCompare", "localizedStandardCompare",
    ]

    /// Parses a statement; `arguments` bind `%@`, `%K`, `%d` in order. A `;` may end it, as
    /// in sqlite3.
    public init(parsing text: String, arguments: [Any?] = [], options: ParserOptions = ParserOptions()) throws(ParseError) {
        self = try Parser.parse(Parser.withoutFinalSemicolons(text), arguments: arguments, options: options) { (parser) throws(ParseError) in
            try parser.parseFetchStatement()
        }
    }
}

extension FetchStatement: CustomStringConvertible {
    /// The statement in canonical form: keywords upper-case, predicates canonical.
    public var description: String {
        var out: String
        switch kind {
        case .fetch: out = "FETCH \(ChangeStatementText.entity(entityName))"
        case .count: out = "COUNT \(ChangeStatementText.entity(entityName))"
        case .select:
            out = "SELECT " + (distinct ? "DISTINCT " : "")
            if properties.isEmpty { out += "*" }
            out += properties.map { item in
                let text = CanonicalPrinter.format(item.expression)
                return item.alias.map { "\(text) AS \(ChangeStatementText.entity($0))" } ?? text
            }.joined(separator: ", ")
            out += " FROM \(ChangeStatementText.entity(entityName))"
        }
        if let predicate { out += " WHERE \(predicate)" }
        if !groupBy.isEmpty { out += " GROUP BY " + groupBy.map(CanonicalPrinter.format).joined(separator: ", ") }
        if let having { out += " HAVING \(having)" }
        if !sort.isEmpty {
            out += " SORT BY " + sort.map { item in
                var text = item.keyPath + (item.ascending ? " ASC" : " DESC")
                if let comparator = item.comparator { text += " USING \(comparator)" }
                return text
            }.joined(separator: ", ")
        }
        if let sectionKeyPath { out += " SECTION BY \(sectionKeyPath)" }
        if let limit { out += " LIMIT \(limit)" }
        if let offset { out += " OFFSET \(offset)" }
        return out
    }
}
