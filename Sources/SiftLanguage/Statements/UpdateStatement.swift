/// A batch update written as one statement (`sift update`; Core Data's `NSBatchUpdateRequest`):
/// set attributes of every object of an entity that a predicate matches.
///
///     [UPDATE] Entity SET key = expression, ... [WHERE predicate]
///
/// A key is an attribute of the entity (a reserved word is written `#size`); `==` may stand
/// for `=`. A value is an expression of the predicate language, evaluated on each object
/// before any of them changes: a constant, a key path, arithmetic, `FUNCTION(...)`,
/// `%@`. Keywords are case-insensitive; `%@`, `%K`, `%d` arguments bind in order across the
/// SET values and the WHERE clause. The grammar is in `Grammar/statement.ebnf`.
///
///     let s = try UpdateStatement(parsing: "Movie SET popularity = popularity * 2 WHERE rating > %@", arguments: [8])
///     print(s)   // UPDATE Movie SET popularity = popularity * 2 WHERE rating > 8
public struct UpdateStatement: Sendable, Hashable {
    public var entityName: String
    /// The assignments in written order; each key at most once.
    public var assignments: [(key: String, value: ExpressionNode)]
    /// Which objects change; nil: every object of the entity.
    public var predicate: PredicateNode?

    public init(entityName: String, assignments: [(key: String, value: ExpressionNode)], predicate: PredicateNode? = nil) {
        self.entityName = entityName
        self.assignments = assignments
        self.predicate = predicate
    }

    /// Parses a statement; `arguments` bind `%@`, `%K`, `%d` in order. A `;` may end it, as
    /// in sqlite3.
    public init(parsing text: String, arguments: [Any?] = [], options: ParserOptions = ParserOptions()) throws(ParseError) {
        self = try Parser.parse(Parser.withoutFinalSemicolons(text), arguments: arguments, options: options) { (parser) throws(ParseError) in
            try parser.parseUpdateStatement()
        }
    }

    /// The assignments by key (a batch update's `set:`).
    public var values: [String: ExpressionNode] {
        Dictionary(assignments.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    public static func == (a: UpdateStatement, b: UpdateStatement) -> Bool {
        a.entityName == b.entityName && a.predicate == b.predicate
            && a.assignments.elementsEqual(b.assignments) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entityName)
        hasher.combine(assignments.count)
        for assignment in assignments {
            hasher.combine(assignment.key)
            hasher.combine(assignment.value)
        }
        hasher.combine(predicate)
    }
}

extension UpdateStatement: CustomStringConvertible {
    /// The statement in canonical form: `UPDATE Entity SET key = value, ... WHERE predicate`,
    /// keywords upper-case, expressions and the predicate canonical.
    public var description: String {
        var out = "UPDATE \(ChangeStatementText.entity(entityName)) SET "
        out += assignments.map { "\(CanonicalPrinter.formatKey($0.key)) = \(CanonicalPrinter.format($0.value))" }
            .joined(separator: ", ")
        if let predicate { out += " WHERE \(predicate)" }
        return out
    }
}

/// Printing the parts of statements.
enum ChangeStatementText {
    /// An entity name (or a SELECT alias) as the statement parser reads it back: with `#` when
    /// it is a reserved word or does not start like an identifier (`#NO`, `#1st`, written so).
    static func entity(_ name: String) -> String {
        guard let first = name.unicodeScalars.first, first.isASCII, first == "_" || first.properties.isAlphabetic,
              !Keyword.isReserved(name) else { return "#" + name }
        return name
    }
}
