import Foundation
import Testing
@testable import SiftLanguage

/// Dictionaries: what a Swift dictionary (or, in the CLI and JSON fetch requests, a JSON
/// object) bound to `%@` becomes, and the literal they print as — `{"key": value, ...}`, `{:}`
/// for the empty one — which reads back as the same dictionary.
@Suite("Dictionary expressions")
struct DictionaryExpressionTests {
    static func dict(_ entries: (String, ExpressionNode)...) -> ExpressionNode {
        .dictionary(entries.map { DictionaryEntry($0.0, $0.1) })
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let format: String
        let expected: ExpressionNode
        var testDescription: String { format }
    }

    /// Literals parse to dictionaries and print back as written (canonically).
    static let literals: [Case] = [
        Case(format: #"{"a": 1}"#, expected: dict(("a", int(1)))),
        Case(format: #"{"b": 2, "a": "x"}"#, expected: dict(("b", int(2)), ("a", str("x")))),
        Case(format: "{:}", expected: dict()),
        Case(format: #"{"": nil, "with \"quote\"": {1, 2}}"#, expected: dict(("", null), (#"with "quote""#, agg(int(1), int(2))))),
        Case(format: #"{"n": {"m": {:}}}"#, expected: dict(("n", dict(("m", dict()))))),
        Case(format: #"{"sum": a + 1, "k": $v}"#, expected: dict(("sum", bin(.add, key("a"), int(1))), ("k", variable("v")))),
        Case(format: #"{"a": 1}["a"]"#, expected: ExpressionNode(.index(base: dict(("a", int(1))), subscript: .expression(str("a"))))),
    ]

    @Test(arguments: literals)
    func literalsReadAndPrintBack(_ c: Case) throws {
        let parsed = try ExpressionNode(format: c.format)
        #expect(parsed == c.expected)
        #expect(parsed.description == c.format)
        #expect(try ExpressionNode(format: parsed.description) == parsed)
    }

    @Test func theEmptyDictionaryIsNotTheEmptyAggregate() throws {
        #expect(try ExpressionNode(format: "{:}") != ExpressionNode(format: "{}"))
        #expect(try ExpressionNode(format: "{}").description == "{}")
    }

    /// A Swift dictionary bound to `%@` (or a variable) is a dictionary, keys sorted.
    @Test func swiftDictionariesBind() throws {
        let p = try parse("SELF IN %@ AND a == %@['k']", ["z": 1, "k": "v"] as [String: Any], ["k": [1, 2]])
        let keyRead = ExpressionNode(.index(base: Self.dict(("k", agg(int(1), int(2)))), subscript: .expression(str("k"))))
        #expect(p == .and([cmp(.evaluatedObject, .in, Self.dict(("k", str("v")), ("z", int(1)))), cmp(key("a"), .equalTo, keyRead)]))
        #expect(p.description == #"SELF IN {"k": "v", "z": 1} AND a == {"k": {1, 2}}["k"]"#)
        #expect(try PredicateNode(format: p.description) == p)
        let bound = try parse("x IN $d").substituting(variables: ["d": ["a": nil, "b": ["c": true]] as [String: Any?]])
        #expect(bound.description == #"x IN {"a": nil, "b": {"c": 1}}"#)
        #expect(try parse("x IN %@", [String: Int]()).description == "x IN {:}")
    }

    @Test func keysMustBeStrings() {
        guard let error = parseError("x IN %@", [[1: "a"]]) else { return }
        #expect(error.code == .invalidArgument)
        #expect(error.message == "argument 1 for %@: a dictionary's keys must be strings, not Int")
        #expect(error.column == 6)
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let format: String
        let code: ParseError.Code
        let column: Int
        let message: String
        var testDescription: String { format }
    }

    static let errors: [ErrorCase] = [
        ErrorCase(format: #"x IN {"a": 1, "a": 2}"#, code: .invalidKey, column: 15, message: #"the key "a" is in the dictionary twice"#),
        ErrorCase(format: #"x IN {"a": 1, 2}"#, code: .unexpectedToken, column: 15, message: "expected a string key in the dictionary, found '2'"),
        ErrorCase(format: #"x IN {"a": 1, b: 2}"#, code: .unexpectedToken, column: 15, message: "expected a string key in the dictionary, found 'b'"),
        ErrorCase(format: #"x IN {"a": 1 "b": 2}"#, code: .unexpectedToken, column: 14, message: #"expected ',' or '}' in the dictionary, found '"b"'"#),
        ErrorCase(format: #"x IN {"a": 1"#, code: .unexpectedEnd, column: 13, message: "expected ',' or '}' in the dictionary, found the end of the format string"),
        ErrorCase(format: #"x IN {"a": }"#, code: .unexpectedToken, column: 12, message: "expected an expression, found '}'"),
        ErrorCase(format: #"x IN {"a": 1 == 1}"#, code: .notAnExpression, column: 12, message: "expected an expression, found the predicate '1 == 1'"),
        ErrorCase(format: "x IN {:", code: .unexpectedEnd, column: 8, message: "expected '}' after '{:' (the empty dictionary), found the end of the format string"),
        ErrorCase(format: "x IN {: 1}", code: .unexpectedToken, column: 9, message: "expected '}' after '{:' (the empty dictionary), found '1'"),
    ]

    @Test(arguments: errors)
    func malformedLiteralsAreErrorsAtTheColumn(_ c: ErrorCase) {
        guard let error = parseError(c.format) else { return }
        #expect(error.code == c.code, "\(error.rendered())")
        #expect(error.column == c.column, "\(error.rendered())")
        #expect(error.message == c.message, "\(error.rendered())")
    }

    /// A dictionary is one level above its deepest value, as an aggregate is.
    @Test func nestingCountsTheValues() throws {
        #expect(try ExpressionNode(format: "{:}").nestingHeight == 1)
        #expect(try ExpressionNode(format: #"{"a": {"b": 1}}"#).nestingHeight == 3)
        #expect(parseError(#"x IN {"a": {"b": 1}}"#, options: ParserOptions(maximumNestingLevel: 3))?.code == .nestingTooDeep)
        #expect(try PredicateNode(format: #"x IN {"a": {"b": 1}}"#, arguments: [], options: ParserOptions(maximumNestingLevel: 4)).nestingHeight == 4)
    }

    @Test func theJSONFormKeepsTheKeysInOrder() throws {
        let node = Self.dict(("b", int(1)), ("a", str("x")))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(node), as: UTF8.self)
        #expect(json == #"{"elements":[{"type":"constant","value":1,"valueType":"integer"},{"type":"constant","value":"x","valueType":"string"}],"keys":["b","a"],"type":"dictionary"}"#)
        #expect(try JSONDecoder().decode(ExpressionNode.self, from: Data(json.utf8)) == node)
        for bad in [#"{"type":"dictionary","keys":["a"],"elements":[]}"#,
                    #"{"type":"dictionary","keys":["a","a"],"elements":[{"type":"self"},{"type":"self"}]}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExpressionNode.self, from: Data(bad.utf8)) }
        }
    }

    @Test func variablesInsideAreSubstituted() throws {
        let p = try parse(#"x IN {"a": $v, "b": SUBQUERY(s, $v, $v == 1)}"#)
        #expect(p.variableNames == ["v"])
        #expect(try p.substituting(variables: ["v": 5]).description == #"x IN {"a": 5, "b": SUBQUERY(s, $v, $v == 1)}"#)
    }
}
