import Foundation
import Testing
@testable import SiftLanguage

/// ``UpdateStatement`` and ``DeleteStatement``: statement text to parsed parts and canonical
/// form, and errors to message and column.
@Suite struct ChangeStatementTests {
    struct UpdateCase: Sendable, CustomTestStringConvertible {
        let input: String
        let entity: String
        /// Each assignment as `key = value` with the value canonical.
        let assignments: [String]
        let predicate: String?
        let canonical: String
        var testDescription: String { input }
    }

    static let updates: [UpdateCase] = [
        UpdateCase(input: "Movie SET watched = YES", entity: "Movie", assignments: ["watched = 1"], predicate: nil,
                   canonical: "UPDATE Movie SET watched = 1"),
        UpdateCase(input: "update Movie set popularity = popularity * 2, rating == rating + 0.5 where rating > 8",
                   entity: "Movie", assignments: ["popularity = popularity * 2", "rating = rating + 0.5"], predicate: "rating > 8",
                   canonical: "UPDATE Movie SET popularity = popularity * 2, rating = rating + 0.5 WHERE rating > 8"),
        UpdateCase(input: "UPDATE Note SET title = uppercase:(title), updatedAt = now() WHERE category == nil",
                   entity: "Note", assignments: ["title = uppercase:(title)", "updatedAt = now()"], predicate: "category == nil",
                   canonical: "UPDATE Note SET title = uppercase:(title), updatedAt = now() WHERE category == nil"),
        UpdateCase(input: "Item SET b = 1 + 2 * 3, a = {1, 'x'}, c = -price, d = nil", entity: "Item",
                   assignments: ["b = 1 + 2 * 3", #"a = {1, "x"}"#, "c = -price", "d = nil"], predicate: nil,
                   canonical: #"UPDATE Item SET b = 1 + 2 * 3, a = {1, "x"}, c = -price, d = nil"#),
        UpdateCase(input: "Item SET a = b WHERE c == 1 AND NOT d == 2", entity: "Item", assignments: ["a = b"], predicate: "c == 1 AND (NOT d == 2)",
                   canonical: "UPDATE Item SET a = b WHERE c == 1 AND (NOT d == 2)"),
        UpdateCase(input: "Item SET a = $x, n = count WHERE name == $name", entity: "Item", assignments: ["a = $x", "n = count"],
                   predicate: "name == $name", canonical: "UPDATE Item SET a = $x, n = count WHERE name == $name"),
        UpdateCase(input: "Item SET #size = #size + 1, caf\\u00E9 = 'x'", entity: "Item", assignments: ["size = #size + 1", #"café = "x""#],
                   predicate: nil, canonical: #"UPDATE Item SET #size = #size + 1, caf\u00E9 = "x""#),
        UpdateCase(input: "Item SET a = ternary(x > 1, 'big', 'small')", entity: "Item", assignments: [#"a = TERNARY(x > 1, "big", "small")"#],
                   predicate: nil, canonical: #"UPDATE Item SET a = TERNARY(x > 1, "big", "small")"#),
        // The clause words are names too: an entity or an attribute may be called Update, Set, Where.
        UpdateCase(input: "UPDATE Update SET set = 1", entity: "Update", assignments: ["set = 1"], predicate: nil,
                   canonical: "UPDATE Update SET set = 1"),
        UpdateCase(input: "Update SET where = 'x' WHERE where != 'x'", entity: "Update", assignments: [#"where = "x""#],
                   predicate: #"where != "x""#, canonical: #"UPDATE Update SET where = "x" WHERE where != "x""#),
        UpdateCase(input: "UPDATE SET SET a = 1", entity: "SET", assignments: ["a = 1"], predicate: nil, canonical: "UPDATE SET SET a = 1"),
        UpdateCase(input: "UPDATE #in SET a = 1", entity: "in", assignments: ["a = 1"], predicate: nil, canonical: "UPDATE #in SET a = 1"),
    ]

    @Test(arguments: updates)
    func updateStatementsParse(_ c: UpdateCase) throws {
        let statement = try UpdateStatement(parsing: c.input)
        #expect(statement.entityName == c.entity)
        #expect(statement.assignments.map { "\($0.key) = \(CanonicalPrinter.format($0.value))" } == c.assignments)
        #expect(statement.predicate?.description == c.predicate)
        #expect(statement.description == c.canonical)
        let again = try UpdateStatement(parsing: statement.description)
        #expect(again == statement)
        #expect(again.hashValue == statement.hashValue)
        #expect(again.description == statement.description)
    }

    struct DeleteCase: Sendable, CustomTestStringConvertible {
        let input: String
        let entity: String
        let predicate: String?
        var testDescription: String { input }
    }

    static let deletes: [DeleteCase] = [
        DeleteCase(input: "Movie", entity: "Movie", predicate: nil),
        DeleteCase(input: "delete Movie where rating < 7", entity: "Movie", predicate: "rating < 7"),
        DeleteCase(input: "DELETE FROM Character WHERE movie.title ==[c] 'alien'", entity: "Character", predicate: #"movie.title ==[c] "alien""#),
        DeleteCase(input: "Movie WHERE ANY #cast.name BEGINSWITH 'C' OR rating == nil", entity: "Movie",
                   predicate: #"ANY #cast.name BEGINSWITH "C" OR rating == nil"#),
        DeleteCase(input: "Delete WHERE x == 1", entity: "Delete", predicate: "x == 1"),
        DeleteCase(input: "DELETE From WHERE x == 1", entity: "From", predicate: "x == 1"),
        DeleteCase(input: "delete from from", entity: "from", predicate: nil),
        DeleteCase(input: "From WHERE a == 1", entity: "From", predicate: "a == 1"),
        DeleteCase(input: "DELETE DELETE", entity: "DELETE", predicate: nil),
        DeleteCase(input: "DELETE #size", entity: "size", predicate: nil),
    ]

    @Test(arguments: deletes)
    func deleteStatementsParse(_ c: DeleteCase) throws {
        let statement = try DeleteStatement(parsing: c.input)
        #expect(statement.entityName == c.entity)
        #expect(statement.predicate?.description == c.predicate)
        let expected = "DELETE FROM \(Keyword.isReserved(c.entity) ? "#" : "")\(c.entity)" + (c.predicate.map { " WHERE \($0)" } ?? "")
        #expect(statement.description == expected)
        #expect(try DeleteStatement(parsing: statement.description) == statement)
    }

    @Test func argumentsBindInOrderAcrossSetAndWhere() throws {
        let update = try UpdateStatement(parsing: "Movie SET rating = %@, duration = %d, title = %@ WHERE %K == %@ AND rating > %f",
                                         arguments: [7.5, 120, "New", "title", "Old", 2])
        #expect(update.description == #"UPDATE Movie SET rating = 7.5, duration = 120, title = "New" WHERE title == "Old" AND rating > 2.0"#)
        #expect(update.values == ["rating": ExpressionNode(.constant(.double(7.5))), "duration": ExpressionNode(.constant(.int(120))),
                                  "title": ExpressionNode(.constant(.string("New")))])
        let delete = try DeleteStatement(parsing: "Movie WHERE %K BEGINSWITH %@", arguments: ["title", "Star"])
        #expect(delete.description == #"DELETE FROM Movie WHERE title BEGINSWITH "Star""#)
        #expect(throws: ParseError.self) { try UpdateStatement(parsing: "Movie SET a = %@", arguments: [1, 2]) }
        #expect(throws: ParseError.self) { try DeleteStatement(parsing: "Movie", arguments: [1]) }
    }

    @Test func statementsBuiltInCodePrint() throws {
        let update = UpdateStatement(entityName: "Note", assignments: [("title", ExpressionNode(.constant(.string("x")))),
                                                                        ("size", try ExpressionNode(format: "#size * 2"))],
                                     predicate: try PredicateNode(format: "title == nil"))
        #expect(update.description == #"UPDATE Note SET title = "x", #size = #size * 2 WHERE title == nil"#)
        #expect(try UpdateStatement(parsing: update.description) == update)
        #expect(DeleteStatement(entityName: "Note").description == "DELETE FROM Note")
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let input: String
        let message: String
        let column: Int
        var suggestion: String? = nil
        var testDescription: String { input }
    }

    static let updateErrors: [ErrorCase] = [
        ErrorCase(input: "", message: "expected UPDATE or an entity name, found the end", column: 1),
        ErrorCase(input: "'Note' SET a = 1", message: "expected UPDATE or an entity name, found ''Note''", column: 1),
        ErrorCase(input: "Note", message: "expected SET after the entity name, found the end", column: 5),
        ErrorCase(input: "UPDATE Note title = 1", message: "expected SET after the entity name, found 'title'", column: 13),
        ErrorCase(input: "Note SETT title = 1", message: "expected SET after the entity name", column: 6, suggestion: "SET"),
        ErrorCase(input: "Note WHERE a == 1", message: "expected SET after the entity name, found 'WHERE'", column: 6),
        ErrorCase(input: "Note SET", message: "expected an attribute name, found the end", column: 9),
        ErrorCase(input: "Note SET title 'x'", message: "expected '=' after 'title', found ''x''", column: 16),
        ErrorCase(input: "Note SET title := 'x'", message: "expected '=' after 'title', found ':='", column: 16, suggestion: "="),
        ErrorCase(input: "Note SET 'title' = 'x'", message: "expected an attribute name, found ''title''", column: 10),
        ErrorCase(input: "Note SET %K = 'x'", message: "the keys of SET are written out, not bound", column: 10),
        ErrorCase(input: "Note SET category.name = 'x'", message: "SET takes an attribute name, not the key path 'category.name'", column: 10),
        ErrorCase(input: "Note SET size = 1", message: "'size' is a reserved word; write #size to use it as a key", column: 10),
        ErrorCase(input: "Note SET title = 'a', title = 'b'", message: "'title' is set twice", column: 23),
        ErrorCase(input: "Note SET title = 'a',", message: "expected an attribute name, found the end", column: 22),
        ErrorCase(input: "Note SET title =", message: "ends where an expression was expected", column: 17),
        ErrorCase(input: "Note SET title = 'a' AND done = YES", message: "assignments are separated by commas, not 'AND'", column: 22, suggestion: ","),
        ErrorCase(input: "Note SET done = a == b", message: "a value is an expression, not a comparison", column: 19),
        ErrorCase(input: "Note SET done = (a == b)", message: "expected an expression, found the predicate 'a == b'", column: 17),
        ErrorCase(input: "Note SET title = 'a' WHRE a == 1", message: "expected ',', WHERE or the end of the statement, found 'WHRE'", column: 22, suggestion: "WHERE"),
        ErrorCase(input: "Note SET title = 'a' SORT BY title", message: "SORT cannot come here (an update statement takes SET, then WHERE)", column: 22),
        ErrorCase(input: "Note SET title = 'a' WHERE", message: "ends where an expression was expected", column: 27),
        ErrorCase(input: "Note SET title = 'a' WHERE title", message: "a bare expression is not a predicate", column: 28),
        ErrorCase(input: "Note SET title = 'a' WHERE a == 1 LIMIT 1", message: "LIMIT cannot come here (an update statement ends with its WHERE clause)", column: 35),
        ErrorCase(input: "Note SET title = 'a' WHERE a == 1 ADN b == 2", message: "expected AND, OR or the end of the statement, found 'ADN'", column: 35, suggestion: "AND"),
        ErrorCase(input: "Note SET title = %@", message: "no argument for %@", column: 18),
        ErrorCase(input: "Note SET title = 'a' WHERE a == %@", message: "no argument for %@", column: 33),
    ]

    @Test(arguments: updateErrors)
    func updateErrorsPointAtTheColumn(_ c: ErrorCase) {
        do {
            let statement = try UpdateStatement(parsing: c.input)
            Issue.record("parsed: \(statement)")
        } catch {
            #expect(error.message.contains(c.message), "\(error.message)")
            #expect(error.column == c.column, "\(error.message)")
            #expect(error.suggestion == c.suggestion, "\(error.message)")
        }
    }

    static let deleteErrors: [ErrorCase] = [
        ErrorCase(input: "", message: "expected DELETE or an entity name, found the end", column: 1),
        ErrorCase(input: "DELETE 5", message: "expected an entity name, found '5'", column: 8),
        ErrorCase(input: "DELETE FROM Note WHRE a == 1", message: "expected WHERE or the end of the statement, found 'WHRE'", column: 18, suggestion: "WHERE"),
        ErrorCase(input: "Note WHERE", message: "ends where an expression was expected", column: 11),
        ErrorCase(input: "Note SET a = 1", message: "SET cannot come here (a delete statement takes only WHERE)", column: 6),
        ErrorCase(input: "DELETE FROM Note WHERE a == 1 SORT BY a", message: "SORT cannot come here (a delete statement ends with its WHERE clause)", column: 31),
        ErrorCase(input: "Note WHERE a == 1 b", message: "expected AND, OR or the end of the statement, found 'b'", column: 19),
        ErrorCase(input: "Note WHERE a == %@", message: "no argument for %@", column: 17),
        ErrorCase(input: "Note WHERE a BEGINSWTH 'x'", message: "expected a comparison operator", column: 14, suggestion: "BEGINSWITH"),
    ]

    @Test(arguments: deleteErrors)
    func deleteErrorsPointAtTheColumn(_ c: ErrorCase) {
        do {
            let statement = try DeleteStatement(parsing: c.input)
            Issue.record("parsed: \(statement)")
        } catch {
            #expect(error.message.contains(c.message), "\(error.message)")
            #expect(error.column == c.column, "\(error.message)")
            #expect(error.suggestion == c.suggestion, "\(error.message)")
        }
    }
}
