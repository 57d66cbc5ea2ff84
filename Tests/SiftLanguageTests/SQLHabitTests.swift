import Foundation
import Testing
@testable import SiftLanguage

/// Issue 28: the errors a user of sqlite3 or psql meets first say what to write, with the
/// column and the user's own operands — and valid input that looks alike still parses.
@Suite("SQL habits")
struct SQLHabitTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let column: Int
        let token: String
        let suggestion: String?
        let messageContains: String
        var testDescription: String { text }
        init(_ text: String, column: Int, token: String, suggestion: String?, _ messageContains: String) {
            self.text = text; self.column = column; self.token = token; self.suggestion = suggestion; self.messageContains = messageContains
        }
    }

    static let predicates: [Case] = [
        // IS NULL and its relatives.
        Case("deathYear IS NULL", column: 11, token: "IS NULL", suggestion: "deathYear == nil", "this language compares with nil: == nil"),
        Case("deathYear is not null", column: 11, token: "is not null", suggestion: "deathYear != nil", "'IS NOT NULL' is SQL's"),
        Case("a == 1 AND player.deathYear IS NOT NULL", column: 29, token: "IS NOT NULL", suggestion: "player.deathYear != nil", "!= nil"),
        Case("(a + b) IS NULL OR c == 1", column: 9, token: "IS NULL", suggestion: "(a + b) == nil", "== nil"),
        Case("ANY tags.name IS NULL", column: 15, token: "IS NULL", suggestion: "ANY tags.name == nil", "== nil"),
        Case("flag IS TRUE", column: 6, token: "IS TRUE", suggestion: "flag == TRUE", "compares with =="),
        Case("flag IS NOT 3", column: 6, token: "IS NOT 3", suggestion: "flag != 3", "compares with !="),
        Case("deathYear ISNULL", column: 11, token: "ISNULL", suggestion: "deathYear == nil", "SQLite's"),
        Case("deathYear NOTNULL", column: 11, token: "NOTNULL", suggestion: "deathYear != nil", "SQLite's"),
        // Other operators.
        Case("name ILIKE 'a*'", column: 6, token: "ILIKE", suggestion: "LIKE[c]", "PostgreSQL's"),
        Case("name REGEXP '^a'", column: 6, token: "REGEXP", suggestion: "MATCHES", "MATCHES"),
        Case("name GLOB 'a*'", column: 6, token: "GLOB", suggestion: "LIKE", "SQLite's"),
        Case("name ~ '^a'", column: 6, token: "~", suggestion: "MATCHES", "regular expression"),
        Case("year BETWEEN 1900 AND 1910", column: 14, token: "1900 AND 1910", suggestion: "{1900, 1910}", "one pair"),
        Case("year BETWEEN 1900 AND 1900 + 10 OR a == 1", column: 14, token: "1900 AND 1900 + 10", suggestion: "{1900, 1900 + 10}", "one pair"),
        Case("d BETWEEN '2021-01-01' AND '2021-01-31'", column: 11, token: "'2021-01-01' AND '2021-01-31'",
             suggestion: #"{'2021-01-01', '2021-01-31'}"#, "{low, high}"),
        Case("name IN ('Hank', 'Babe')", column: 16, token: ",", suggestion: "{'Hank', 'Babe'}", "written in braces"),
        Case("weight % 2 == 0", column: 8, token: "%", suggestion: nil, "modulus:by:(x, y)"),
        // Functions: the call to write, with the arguments as written.
        Case("lower(nameFirst) == 'hank'", column: 1, token: "lower", suggestion: "lowercase:(nameFirst)", "SQL's lower(x) is lowercase:(x) here"),
        Case("UPPER(a.b) == 'X'", column: 1, token: "UPPER", suggestion: "uppercase:(a.b)", "uppercase:(x)"),
        Case("avg(scores) > 3", column: 1, token: "avg", suggestion: "average:(scores)", "average:(x)"),
        Case("power(x, 2) > 3", column: 1, token: "power", suggestion: "raise:toPower:(x, 2)", "raise:toPower:"),
        Case("coalesce(a, b, 0) > 0", column: 1, token: "coalesce", suggestion: "TERNARY(a != nil, a, TERNARY(b != nil, b, 0))", "TERNARY(x != nil, x, y)"),
        Case("ifnull(a, 0) > 0", column: 1, token: "ifnull", suggestion: "TERNARY(a != nil, a, 0)", "TERNARY"),
        Case("iif(a > 1, 1, 2) == 1", column: 1, token: "iif", suggestion: "TERNARY(a > 1, 1, 2)", "TERNARY(p, x, y)"),
        Case("d > date('now')", column: 5, token: "date", suggestion: "now()", "now()"),
        Case("d > datetime(\"now\")", column: 5, token: "datetime", suggestion: "now()", "now()"),
        Case("d > date(x)", column: 5, token: "date", suggestion: nil, "ISO 8601"),
        Case("length(name) > 10", column: 1, token: "length", suggestion: nil, "MATCHES"),
        Case("substr(name, 1, 2) == 'ab'", column: 1, token: "substr", suggestion: nil, "BEGINSWITH"),
        Case("round(x) == 2", column: 1, token: "round", suggestion: nil, "floor:(x + 0.5)"),
        Case("max(a, b) > 2", column: 1, token: "max", suggestion: "max:({a, b})", "SQLite's max(a, b)"),
        Case("count(*) > 2", column: 1, token: "count(*)", suggestion: nil, "COUNT Entity"),
        Case("frobnicate(x) == 2", column: 1, token: "frobnicate", suggestion: nil, "functions are written name:(arguments)"),
        Case("CAST(weight AS TEXT) == '3'", column: 13, token: "AS", suggestion: #"CAST(weight, "NSString")"#, "CAST(x, \"NSString\")"),
        Case("CAST(d AS INTEGER) == 3", column: 8, token: "AS", suggestion: #"CAST(d, "NSNumber")"#, "after a comma"),
        // Quotes and names.
        Case("name == “Hank”", column: 9, token: "“", suggestion: #""Hank""#, "use straight quotes"),
        Case("name == ‘O\"Neil’", column: 9, token: "‘", suggestion: #""O\"Neil""#, "curly quote"),
        Case("name == “Hank", column: 9, token: "“", suggestion: "\"", "curly quote"),
        Case("name == \"Hank” AND a == 1", column: 14, token: "”", suggestion: #""Hank""#, "does not end it"),
        Case("`2B` > 3", column: 1, token: "`", suggestion: "#2B", "backticks"),
        Case("2B > 3", column: 1, token: "2B", suggestion: "#2B", "written #2B"),
    ]

    @Test(arguments: predicates)
    func predicateErrorsSayWhatToWrite(_ c: Case) {
        guard let error = parseError(c.text) else { return }
        #expect(error.column == c.column, "\(error.rendered())")
        #expect(error.token == c.token, "\(error.rendered())")
        #expect(error.suggestion == c.suggestion, "\(error.rendered())")
        #expect(error.message.contains(c.messageContains), "\(error.rendered())")
    }

    /// A suggested rewrite of the whole comparison is itself valid: put in place, it parses.
    @Test(arguments: ["deathYear IS NULL", "deathYear IS NOT NULL", "deathYear ISNULL", "flag IS NOT 3", "ANY tags.name IS NULL"])
    func rewrittenComparisonsParse(_ text: String) throws {
        guard let error = parseError(text), let suggestion = error.suggestion else {
            Issue.record("no suggestion for \(text)")
            return
        }
        _ = try PredicateNode(format: suggestion)
    }

    @Test(arguments: [
        ("lower(nameFirst) == 'hank'", "lower(nameFirst)"), ("coalesce(a, b, 0) > 0", "coalesce(a, b, 0)"),
        ("power(x, 2) > 3", "power(x, 2)"), ("max(a, b) > 2", "max(a, b)"), ("d > date('now')", "date('now')"),
        ("CAST(weight AS TEXT) == '3'", "CAST(weight AS TEXT)"),
    ])
    func rewrittenCallsParse(_ text: String, _ call: String) throws {
        guard let suggestion = parseError(text)?.suggestion else {
            Issue.record("no suggestion for \(text)")
            return
        }
        _ = try PredicateNode(format: text.replacingOccurrences(of: call, with: suggestion))
    }

    static let statements: [Case] = [
        Case("People LIMIT 10, 20", column: 16, token: ",", suggestion: "LIMIT 20 OFFSET 10", "SQLite's LIMIT 10, 20"),
        Case("People SORT BY deathYear NULLS LAST", column: 26, token: "NULLS LAST", suggestion: nil, "nil sorts first in ascending order"),
        Case("People SORT BY deathYear DESC NULLS FIRST", column: 31, token: "NULLS FIRST", suggestion: nil, "last in descending order"),
        Case("People SORT BY deathYear NULLS", column: 31, token: "", suggestion: nil, "expected FIRST or LAST"),
        Case("Teams SORT BY \"2B\" DESC", column: 15, token: "\"2B\"", suggestion: "#2B", "double quotes make a string"),
        Case("Teams SORT BY 2", column: 15, token: "2", suggestion: nil, "column number"),
        Case("Teams SORT BY SELF", column: 15, token: "SELF", suggestion: nil, "SORT BY takes a key path"),
        Case("People SORT BY nameLast COLLATE NOCASE DESC", column: 25, token: "COLLATE NOCASE", suggestion: "USING caseInsensitiveCompare", "COLLATE is SQL's"),
        Case("People SORT BY nameLast DESC COLLATE BINARY", column: 30, token: "COLLATE BINARY", suggestion: "USING compare", "USING compare"),
        Case("SELECT *, a FROM Teams", column: 8, token: "*", suggestion: nil, "SELECT * stands alone"),
        Case("SELECT count(*) FROM Teams", column: 8, token: "count(*)", suggestion: nil, "COUNT Entity"),
        Case("SELECT a AS FROM Teams", column: 18, token: "Teams", suggestion: nil, "expected FROM"),
        Case("COUNT Teams; x", column: 12, token: ";", suggestion: nil, "unexpected ';'"),
    ]

    @Test(arguments: statements)
    func statementErrorsSayWhatToWrite(_ c: Case) {
        do {
            let statement = try FetchStatement(parsing: c.text)
            Issue.record("parsed \(c.text) as \(statement)")
        } catch {
            #expect(error.column == c.column, "\(error.rendered())")
            #expect(error.token == c.token, "\(error.rendered())")
            #expect(error.suggestion == c.suggestion, "\(error.rendered())")
            #expect(error.message.contains(c.messageContains), "\(error.rendered())")
        }
    }

    /// What SQL writes and this language means the same way is accepted.
    static let accepted: [(String, String)] = [
        ("People WHERE nameFirst = 'Hank' AND nameLast <> 'Aaron'", #"FETCH People WHERE nameFirst == "Hank" AND nameLast != "Aaron""#),
        ("SELECT * FROM People", "SELECT * FROM People"),
        ("SELECT DISTINCT * FROM People WHERE a > 1", "SELECT DISTINCT * FROM People WHERE a > 1"),
        ("People SORT BY deathYear DESC NULLS LAST", "FETCH People SORT BY deathYear DESC"),
        ("People ORDER BY deathYear ASC NULLS FIRST, nameLast", "FETCH People SORT BY deathYear ASC, nameLast ASC"),
        ("COUNT People WHERE weight > 200;", "COUNT People WHERE weight > 200"),
        ("People LIMIT 3 ; ; ", "FETCH People LIMIT 3"),
        ("SELECT nameFirst AS first, nameLast AS size FROM People SORT BY first, #size DESC",
         "SELECT nameFirst AS #first, nameLast AS #size FROM People SORT BY #first ASC, #size DESC"),
        ("SELECT a AS in FROM T", "SELECT a AS #in FROM T"),
        ("Teams SORT BY #2B DESC SECTION BY size", "FETCH Teams SORT BY #2B DESC SECTION BY #size"),
        ("Teams SORT BY first.name", "FETCH Teams SORT BY #first.name ASC"),
    ]

    @Test(arguments: accepted)
    func acceptedAsSQLWritesIt(_ text: String, _ canonical: String) throws {
        let statement = try FetchStatement(parsing: text)
        #expect(statement.description == canonical)
        #expect(try FetchStatement(parsing: statement.description) == statement)
    }

    @Test func aReservedWordAfterASIsTheResultName() throws {
        let statement = try FetchStatement(parsing: "SELECT nameFirst AS first, count:(x) AS size FROM People")
        #expect(statement.properties.map(\.name) == ["first", "size"])
        #expect(try FetchStatement(parsing: "SELECT nameFirst AS #first FROM People").properties.map(\.name) == ["first"])
    }

    @Test func selectStarFetchesEveryAttribute() throws {
        let statement = try FetchStatement(parsing: "SELECT * FROM People WHERE a == 1")
        #expect(statement.kind == .select && statement.properties.isEmpty)
    }

    /// Valid predicates that look like the habits read as they always did.
    @Test(arguments: [
        ("x BETWEEN $range AND flag == 1", "x BETWEEN $range AND flag == 1"),
        ("x BETWEEN {1, 2} AND y == 3", "x BETWEEN {1, 2} AND y == 3"),
        ("x BETWEEN 0 AND flag == 1", "x BETWEEN 0 AND flag == 1"),
        ("x BETWEEN 'a' AND (y + 1 > 2 OR z == 1)", #"x BETWEEN "a" AND (y + 1 > 2 OR z == 1)"#),
        ("is == 1 AND isnull == 2", "is == 1 AND isnull == 2"),
        ("name IN {'a', 'b'}", #"name IN {"a", "b"}"#),
        ("(a + 1) * 2 == 4", "(a + 1) * 2 == 4"),
        ("name == \"it’s\"", "name == \"it’s\""),
        ("lowercase:(name) == 'x' AND max:({a, b}) > 1", #"lowercase:(name) == "x" AND max:({a, b}) > 1"#),
    ])
    func validLookAlikesStillParse(_ text: String, _ canonical: String) throws {
        #expect(try PredicateNode(format: text).description == canonical)
    }

    /// `;` ends a statement only at its end; a predicate has no statement end.
    @Test func semicolonsOnlyEndStatements() throws {
        #expect(parseError("a == 1;")?.message.contains("unexpected ';'") == true)
        #expect(try UpdateStatement(parsing: "Note SET a = 1;").description == "UPDATE Note SET a = 1")
        #expect(try DeleteStatement(parsing: "DELETE FROM Note WHERE a == 1 ;").description == "DELETE FROM Note WHERE a == 1")
        #expect(Parser.withoutFinalSemicolons("a == 'x;'") == "a == 'x;'")
        #expect(Parser.withoutFinalSemicolons(";") == "")
    }
}
