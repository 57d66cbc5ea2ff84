import Foundation
import Testing
@testable import SiftLanguage

/// LANGUAGE.md §8: every error names what is wrong, the column, the token, and helps.
@Suite("Parse errors")
struct ErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let format: String
        let code: ParseError.Code
        let column: Int
        let token: String
        let suggestion: String?
        let messageContains: String
        var testDescription: String { format }
        init(_ format: String, _ code: ParseError.Code, column: Int, token: String, suggestion: String? = nil, _ messageContains: String) {
            self.format = format; self.code = code; self.column = column; self.token = token
            self.suggestion = suggestion; self.messageContains = messageContains
        }
    }

    static let cases: [Case] = [
        // Misspelt operators and keywords: did you mean ...?
        Case("name BEGINSWTH 'a'", .unexpectedToken, column: 6, token: "BEGINSWTH", suggestion: "BEGINSWITH", "expected a comparison operator"),
        Case("name contians 'a'", .unexpectedToken, column: 6, token: "contians", suggestion: "CONTAINS", "expected a comparison operator"),
        Case("name LIEK 'a'", .unexpectedToken, column: 6, token: "LIEK", suggestion: "LIKE", "expected a comparison operator"),
        Case("ANY tags BEGINSWTH 'a'", .unexpectedToken, column: 10, token: "BEGINSWTH", suggestion: "BEGINSWITH", "after 'ANY tags'"),
        Case("a == 1 ADN b == 2", .unexpectedToken, column: 8, token: "ADN", suggestion: "AND", "expected AND, OR"),
        Case("a == 1 ro b == 2", .unexpectedToken, column: 8, token: "ro", suggestion: "OR", "expected AND, OR"),
        Case("TRUEPREDICAT", .notAPredicate, column: 1, token: "TRUEPREDICAT", suggestion: "TRUEPREDICATE", "is not a predicate"),
        Case("name ==[x] 'a'", .unknownOption, column: 9, token: "x", "unknown option 'x'"),
        Case("name BEGINSWITH[cx] 'a'", .unknownOption, column: 18, token: "x", "unknown option 'x'"),
        Case("name ==[i] 'a'", .unknownOption, column: 9, token: "i", suggestion: "c", "unknown option 'i'"),
        Case("name ==[] 'a'", .unknownOption, column: 8, token: "[", "empty options"),
        Case("sume(a) == 1", .unknownFunction, column: 1, token: "sume", suggestion: "sum", "functions are written name:(arguments)"),
        Case("a == uppercse(b)", .unknownFunction, column: 6, token: "uppercse", suggestion: "uppercase", "unknown function"),
        Case("a == foo:bar:(b)", .unknownFunction, column: 6, token: "foo:bar:", "unknown function 'foo:bar:'"),
        Case("add:to:(1) == 2", .wrongArgumentCount, column: 1, token: "add:to:", "add:to: takes 2 arguments, but 1 was given"),
        Case("now(1) == 2", .wrongArgumentCount, column: 1, token: "now", "now takes 0 arguments"),
        Case("CAST(a, 'NSDat') == 1", .unknownCastType, column: 9, token: "'NSDat'", suggestion: "NSDate", "unknown CAST type"),
        Case("CAST(a, b) == 1", .unexpectedToken, column: 9, token: "b", "must be a string constant"),
        // Lexical errors.
        Case("a ? 1", .unexpectedCharacter, column: 3, token: "?", "'?' is not allowed"),
        Case("a === 1", .unexpectedToken, column: 3, token: "===", suggestion: "==", "'===' is not an operator"),
        Case("a == 'abc", .unterminatedString, column: 6, token: "'", "unterminated string"),
        Case(#"a == "abc"#, .unterminatedString, column: 6, token: "\"", "unterminated string"),
        Case(#"a == "\q""#, .invalidEscape, column: 7, token: #"\q"#, "unknown escape"),
        Case(#"a == "\u12""#, .invalidEscape, column: 7, token: #"\u"#, "four hex digits"),
        Case(#"a == "\ud800""#, .invalidEscape, column: 7, token: #"\ud800"#, "surrogate"),
        Case("a == 0x", .invalidNumber, column: 6, token: "0x", "malformed"),
        Case("a == 0b102", .invalidNumber, column: 6, token: "0b102", "malformed"),
        Case("a == 1e", .invalidNumber, column: 6, token: "1e", "exponent"),
        Case("a == 12abc", .invalidNumber, column: 6, token: "12abc", suggestion: "#12abc", "cannot run into a name"),
        Case("é == 1", .unexpectedCharacter, column: 1, token: "é", "keys are ASCII"),
        Case("a == 1 AND é == 1", .unexpectedCharacter, column: 12, token: "é", "keys are ASCII"),
        Case("\"é\" == 1 AND ü", .unexpectedCharacter, column: 14, token: "ü", "keys are ASCII"),
        Case("a == $", .unexpectedCharacter, column: 6, token: "$", "variable name"),
        Case("# == 1", .unexpectedCharacter, column: 1, token: "#", "expected a key after '#'"),
        Case("@ == 1", .unexpectedCharacter, column: 1, token: "@", "expected a key after '@'"),
        Case("a ; b", .unexpectedCharacter, column: 3, token: ";", "unexpected ';'"),
        Case("a == %k", .invalidFormatSpecifier, column: 6, token: "%k", suggestion: "%K", "not a format specifier"),
        Case("a == %y", .invalidFormatSpecifier, column: 6, token: "%y", "unknown format specifier"),
        Case("a == %%", .invalidFormatSpecifier, column: 6, token: "%%", "literal percent sign"),
        Case("a == %", .invalidFormatSpecifier, column: 6, token: "%", "lone '%'"),
        // Grammar errors.
        Case("name", .notAPredicate, column: 1, token: "name", "a bare expression is not a predicate"),
        Case("\"1\"", .notAPredicate, column: 1, token: "\"1\"", "a bare expression is not a predicate"),
        Case("1 + 2", .notAPredicate, column: 1, token: "1 + 2", "a bare expression is not a predicate"),
        Case("NOT a", .notAPredicate, column: 5, token: "a", "expected a predicate"),
        Case("a AND b == 1", .notAPredicate, column: 1, token: "a", "expected a predicate"),
        Case("a == 1 AND b", .notAPredicate, column: 12, token: "b", "expected a predicate"),
        Case("a + (b == 1) == 1", .notAnExpression, column: 5, token: "(b == 1)", "must be an expression"),
        Case("(a == 1) == 1", .notAnExpression, column: 1, token: "(a == 1)", "expected an expression, found the predicate 'a == 1'"),
        Case("a < b < c", .chainedComparison, column: 7, token: "<", "comparisons do not chain"),
        Case("a ==", .unexpectedEnd, column: 5, token: "", "ends where an expression was expected"),
        Case("a == 1 AND", .unexpectedEnd, column: 11, token: "", "ends where an expression was expected"),
        Case("(a == 1", .unexpectedEnd, column: 8, token: "", "expected AND, OR or ')'"),
        Case("(a + 1 == 2", .unexpectedEnd, column: 12, token: "", "expected AND, OR or ')'"),
        Case("a == 1)", .unexpectedToken, column: 7, token: ")", "expected AND, OR or the end"),
        Case("a == 1 b == 2", .unexpectedToken, column: 8, token: "b", "expected AND, OR or the end"),
        Case("a == {1, 2", .unexpectedEnd, column: 11, token: "", "expected ',' or '}'"),
        Case("a == {1,}", .unexpectedToken, column: 9, token: "}", "expected an expression"),
        Case("a[1 == 1", .notAnExpression, column: 3, token: "1 == 1", "expected an expression, found the predicate"),
        Case("a[1 + 1 b] == 1", .unexpectedToken, column: 9, token: "b", "expected ']'"),
        Case("a. == 1", .unexpectedToken, column: 4, token: "==", "expected a key after '.'"),
        Case("a BETWEEN {1} ", .unexpectedToken, column: 11, token: "{1}", "two bounds"),
        Case("a BETWEEN {1, 2, 3}", .unexpectedToken, column: 11, token: "{1, 2, 3}", "two bounds"),
        Case("ANY a", .unexpectedEnd, column: 6, token: "", "expected a comparison operator after 'ANY a'"),
        Case("a NOT IN {1}", .unexpectedToken, column: 3, token: "NOT", "negate the whole comparison"),
        Case("size == 1", .invalidKey, column: 1, token: "size", "'size' is a reserved word; write #size to use it as a key"),
        Case("a.b == first", .invalidKey, column: 8, token: "first", "'first' is a reserved word; write #first to use it as a key"),
        Case("a == AND", .unexpectedToken, column: 6, token: "AND", "found the keyword 'AND'"),
        Case("FETCH(a, b, NO) == 1", .unsupported, column: 1, token: "FETCH", "not supported"),
        Case("ANYKEY == 1", .unsupported, column: 1, token: "ANYKEY", "not supported"),
        Case("SUBQUERY(a, x, TRUEPREDICATE) == 1", .unexpectedToken, column: 13, token: "x", "$variable"),
        Case("SUBQUERY(a, $x, $x) == 1", .notAPredicate, column: 17, token: "$x", "expected a predicate"),
        Case("TERNARY(a, 1, 2) == 1", .notAPredicate, column: 9, token: "a", "expected a predicate"),
        Case("a := 1", .unexpectedToken, column: 3, token: ":=", "expected a comparison operator"),
        Case("a == b:(1)", .unknownFunction, column: 6, token: "b:", "unknown function"),
        Case("a == -", .unexpectedEnd, column: 7, token: "", "ends where an expression was expected"),
        Case("", .unexpectedEnd, column: 1, token: "", "ends where an expression was expected"),
    ]

    @Test(arguments: cases)
    func reportsWhatAndWhere(_ c: Case) {
        guard let error = parseError(c.format) else { return }
        #expect(error.code == c.code, "\(error.rendered())")
        #expect(error.column == c.column, "\(error.rendered())")
        #expect(error.token == c.token, "\(error.rendered())")
        #expect(error.suggestion == c.suggestion, "\(error.rendered())")
        #expect(error.message.contains(c.messageContains), "\(error.rendered())")
        // The byte offset and the column agree on ASCII prefixes.
        if c.format.utf8.prefix(error.offset).allSatisfy({ $0 < 0x80 }) {
            #expect(error.offset == c.column - 1)
        }
    }

    @Test func columnsCountCharactersNotBytes() {
        guard let error = parseError("\"ééé\" == x ?") else { return }
        #expect(error.column == 12)
        #expect(error.offset == 14)
    }

    @Test func expectedListsWhatWouldFit() {
        #expect(parseError("a == 1 xyz")?.expected == ["AND", "OR", "the end"])
        #expect(parseError("name ==[q] 'a'")?.expected == ["c", "d", "n", "l"])
        #expect(parseError("(a == 1 xyz")?.expected == ["AND", "OR", "')'"])
    }

    @Test func renderedShowsCaretUnderColumn() {
        guard let error = parseError("name BEGINSWTH 'a'") else { return }
        #expect(error.rendered() == """
            name BEGINSWTH 'a'
                 ^
            error: column 6: expected a comparison operator, found 'BEGINSWTH'; did you mean 'BEGINSWITH'?
            """)
        #expect(error.description == "column 6: expected a comparison operator, found 'BEGINSWTH'; did you mean 'BEGINSWITH'?")
    }

    @Test func renderedPutsMultiLineInputOnOneLine() {
        guard let error = parseError("a == 1\nAND ?") else { return }
        #expect(error.rendered().split(separator: "\n").prefix(2) == ["a == 1 AND ?", "           ^"])
    }

    @Test func renderedCutsLongInputToAWindow() {
        let format = "a == 1 AND " + String(repeating: "b == 2 AND ", count: 100) + "c == ?"
        guard let error = parseError(format) else { return }
        let lines = error.rendered().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].count <= DiagnosticWindow.width + 2)
        #expect(lines[0].hasPrefix("…"))
        // The caret still points at the '?'.
        let caretColumn = lines[1].count
        #expect(Array(lines[0])[caretColumn - 1] == "?")
    }

    @Test func suggestionsNeedToBeClose() {
        #expect(Suggestions.closest(to: "BEGINSWTH", in: ["BEGINSWITH", "ENDSWITH"]) == "BEGINSWITH")
        #expect(Suggestions.closest(to: "zzz", in: ["AND", "OR"]) == nil)
        #expect(Suggestions.closest(to: "ADN", in: ["AND", "OR"]) == "AND")
        #expect(Suggestions.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestions.editDistance(Array("ab"), Array("ba")) == 1)
    }
}

/// Format arguments: missing, left over, wrong types.
@Suite("Format argument errors")
struct ArgumentErrorTests {
    @Test func missingArgumentIsAParseErrorAtTheSpecifier() {
        let error = parseError("a == %@ AND b == %@", [1])
        #expect(error?.code == .missingArgument)
        #expect(error?.column == 18)
        #expect(error?.token == "%@")
    }

    @Test func leftoverArgumentsAreAnError() {
        let error = parseError("a == %@", [1, 2, 3])
        #expect(error?.code == .unusedArguments)
        #expect(error?.message.contains("3 arguments were given but the format string uses 1") == true)
    }

    @Test func keyPathArgumentMustBeAString() {
        #expect(parseError("%K == 1", [1])?.code == .invalidArgument)
        #expect(parseError("%K == 1", ["a..b"])?.code == .invalidKey)
        #expect(parseError("%K == 1", [""])?.code == .invalidKey)
    }

    @Test func printfSpecifiersCheckTheirArgumentTypes() {
        #expect(parseError("a == %d", ["x"])?.code == .invalidArgument)
        #expect(parseError("a == %f", ["x"])?.code == .invalidArgument)
        #expect(parseError("a == %s", [1])?.code == .invalidArgument)
        #expect(parseError("a == %d", [2.5])?.code == .invalidArgument)
    }

    @Test func unsupportedValuesAreAnError() {
        struct Opaque {}
        #expect(parseError("a == %@", [Opaque()])?.message.contains("cannot be used in a predicate") == true)
        #expect(parseError("a == %@", [Double.nan])?.message.contains("NaN") == true)
    }
}
