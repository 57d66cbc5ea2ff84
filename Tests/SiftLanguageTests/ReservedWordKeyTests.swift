import Testing
@testable import SiftLanguage

/// A reserved word where a key is meant is an error, as in Apple's parser, and the error says
/// how to write the key (`#size`), with the caret on the word; real syntax that starts with
/// the same words still parses.
@Suite("Reserved words as keys")
struct ReservedWordKeyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let format: String
        let word: String
        let column: Int
        var testDescription: String { format }
    }

    static let keyCases: [Case] = [
        // Words no expression starts with.
        Case(format: "size > 3", word: "size", column: 1),
        Case(format: "first == 1", word: "first", column: 1),
        Case(format: "LAST < 1", word: "LAST", column: 1),
        Case(format: "ci == 1", word: "ci", column: 1),
        Case(format: "caseInsensitive == 1", word: "caseInsensitive", column: 1),
        Case(format: "a.b == first", word: "first", column: 8),
        Case(format: "a + size > 3", word: "size", column: 5),
        Case(format: "SUBQUERY(items, $i, size > 1).@count > 0", word: "size", column: 21),
        // Words that start a construct, without its parenthesis.
        Case(format: "cast.name == 1", word: "cast", column: 1),
        Case(format: "a == CAST.b", word: "CAST", column: 6),
        Case(format: "subquery.x == 1", word: "subquery", column: 1),
        Case(format: "ternary == 1", word: "ternary", column: 1),
        Case(format: "function[0] == 1", word: "function", column: 1),
        Case(format: "fetch > 2", word: "fetch", column: 1),
        Case(format: "anykey.x == 1", word: "anykey", column: 1),
        // Prefixes followed by what only follows a key.
        Case(format: "not == 1", word: "not", column: 1),
        Case(format: "NOT.x == 1", word: "NOT", column: 1),
        Case(format: "a == 1 AND not IN {1}", word: "not", column: 12),
        Case(format: "any == 1", word: "any", column: 1),
        Case(format: "all.x == 1", word: "all", column: 1),
        Case(format: "none[0] == 1", word: "none", column: 1),
        Case(format: "some * 2 > 1", word: "some", column: 1),
        Case(format: "truepredicate.x == 1", word: "truepredicate", column: 1),
        Case(format: "FALSEPREDICATE == 0", word: "FALSEPREDICATE", column: 1),
        // Operator words standing where an operand is.
        Case(format: "in == 2", word: "in", column: 1),
        Case(format: "like == 'x'", word: "like", column: 1),
        Case(format: "contains.x == 1", word: "contains", column: 1),
        Case(format: "between - 1 > 0", word: "between", column: 1),
        Case(format: "a == b AND or == 1", word: "or", column: 12),
        Case(format: "x == 1 OR and > 2", word: "and", column: 11),
    ]

    @Test(arguments: keyCases)
    func sayHowToWriteTheKey(_ c: Case) {
        guard let error = parseError(c.format) else { return }
        #expect(error.message == "'\(c.word)' is a reserved word; write #\(c.word) to use it as a key", "\(error.rendered())")
        #expect(error.code == .invalidKey, "\(error.rendered())")
        #expect(error.column == c.column, "\(error.rendered())")
        #expect(error.token == c.word, "\(error.rendered())")
        #expect(error.suggestion == nil, "\(error.rendered())")
    }

    @Test func theCaretIsOnTheWord() {
        guard let error = parseError("cast.name == 1") else { return }
        #expect(error.rendered() == """
            cast.name == 1
            ^
            error: column 1: 'cast' is a reserved word; write #cast to use it as a key
            """)
    }

    /// The same words as keys, written as the message says, and the syntax they start.
    @Test(arguments: [
        "#size > 3", "#cast.name == 1", "#first == 1", "#not == 1", "#in == 2", "a + #size > 3",
        "x.in == 2", "x.size == 1", "$x.first == 1",
        "a IN b", "ANY x == 1", "SOME x == 1", "ALL x > 1", "NONE x > 1", "ANY -x > 0", "NOT -x > 0", "NOT a == 1",
        "TRUEPREDICATE", "FALSEPREDICATE OR a == 1", "CAST(x, 'NSDate') == a", "SUBQUERY(a, $x, $x.b == 1).@count > 0",
        "FUNCTION(a, 'uppercase:') == 'A'", "TERNARY(a == 1, 2, 3) == 2", "items[FIRST] == items[LAST]", "items[SIZE] > 1",
    ])
    func realSyntaxStillParses(_ format: String) throws {
        _ = try parse(format)
    }

    /// Where the word cannot be a key, the errors are what they were.
    @Test(arguments: [
        ("a == AND", ParseError.Code.unexpectedToken, "expected an expression, found the keyword 'AND'"),
        ("a IN in", .unexpectedToken, "expected an expression, found the keyword 'in'"),
        ("a == CAST", .unexpectedEnd, "expected '(' after CAST, found the end of the format string"),
        ("FETCH(a, b, NO) == 1", .unsupported, "FETCH(...) expressions are not supported (use SUBQUERY over a relationship)"),
        ("ANYKEY == 1", .unsupported, "ANYKEY is not supported"),
        ("NOT", .unexpectedEnd, "the format string ends where an expression was expected"),
    ])
    func otherErrorsAreUnchanged(_ format: String, _ code: ParseError.Code, _ message: String) {
        guard let error = parseError(format) else { return }
        #expect(error.code == code, "\(error.rendered())")
        #expect(error.message == message, "\(error.rendered())")
    }

    /// Statements read keys with the same parser: the same error in every clause.
    @Test(arguments: [
        ("SELECT size FROM Note", "size", 8),
        ("Note WHERE first == 1", "first", 12),
        ("SELECT title FROM Note HAVING last > 1", "last", 31),
        ("SELECT title FROM Note GROUP BY cast SORT BY title", "cast", 33),
    ])
    func statementsSayTheSame(_ text: String, _ word: String, _ column: Int) {
        do {
            let statement = try FetchStatement(parsing: text)
            Issue.record("parsed: \(statement)")
        } catch {
            #expect(error.message == "'\(word)' is a reserved word; write #\(word) to use it as a key")
            #expect(error.column == column)
        }
    }
}
