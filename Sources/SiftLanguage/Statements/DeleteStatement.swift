/// A batch delete written as one statement (`sift delete`; Core Data's `NSBatchDeleteRequest`):
/// delete every object of an entity that a predicate matches, with the model's delete rules.
///
///     [DELETE [FROM]] Entity [WHERE predicate]
///
/// Keywords are case-insensitive; `%@`, `%K`, `%d` arguments bind in order. The grammar is in
/// `Grammar/statement.ebnf`.
///
///     let s = try DeleteStatement(parsing: "Movie WHERE rating < %@", arguments: [7.5])
///     print(s)   // DELETE FROM Movie WHERE rating < 7.5
public struct DeleteStatement: Sendable, Hashable {
    public var entityName: String
    /// Which objects are deleted; nil: every object of the entity.
    public var predicate: PredicateNode?

    public init(entityName: String, predicate: PredicateNode? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// Parses a statement; `arguments` bind `%@`, `%K`, `%d` in order. A `;` may end it, as
    /// in sqlite3.
    public init(parsing text: String, arguments: [Any?] = [], options: ParserOptions = ParserOptions()) throws(ParseError) {
        self = try Parser.parse(Parser.withoutFinalSemicolons(text), arguments: arguments, options: options) { (parser) throws(ParseError) in
            try parser.parseDeleteStatement()
        }
    }
}

extension DeleteStatement: CustomStringConvertible {
    /// The statement in canonical form: `DELETE FROM Entity WHERE predicate`.
    public var description: String {
        var out = "DELETE FROM \(ChangeStatementText.entity(entityName))"
        if let predicate { out += " WHERE \(predicate)" }
        return out
    }
}
