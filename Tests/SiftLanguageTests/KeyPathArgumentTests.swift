import Testing
@testable import SiftLanguage

/// `%K` stands anywhere a key may (after a dot too: `%K.%K`, `a.%K`, `$x.%K`, `%K[FIRST].%K`),
/// and a dotted argument splices all its keys in. The printed form holds the keys, and reads
/// back as the same predicate.
@Suite("%K in key paths")
struct KeyPathArgumentTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [String]
        let expected: PredicateNode
        let printed: String
        var testDescription: String { "\(format) \(arguments)" }
    }

    static let cases: [Case] = [
        Case(format: "%K.%K BEGINSWITH 'a'", arguments: ["objectCol", "stringCol"],
             expected: cmp(.keyPath(keys: ["objectCol", "stringCol"]), .beginsWith, str("a")),
             printed: #"objectCol.stringCol BEGINSWITH "a""#),
        Case(format: "a.%K == 1", arguments: ["author.name"],
             expected: cmp(.keyPath(keys: ["a", "author", "name"]), .equalTo, int(1)),
             printed: "a.author.name == 1"),
        Case(format: "%K.%K == 1", arguments: ["a.b", "c.d"],
             expected: cmp(.keyPath(keys: ["a", "b", "c", "d"]), .equalTo, int(1)),
             printed: "a.b.c.d == 1"),
        Case(format: "$x.%K == 1", arguments: ["name"],
             expected: cmp(.keyPath(["name"], of: variable("x")), .equalTo, int(1)),
             printed: "$x.name == 1"),
        Case(format: "%K[FIRST].%K == 1", arguments: ["items", "price"],
             expected: cmp(.keyPath(["price"], of: ExpressionNode(.index(base: key("items"), subscript: .first))), .equalTo, int(1)),
             printed: "items[FIRST].price == 1"),
        Case(format: "SUBQUERY(items, $i, $i.%K == 1).@count > 0", arguments: ["price"],
             expected: cmp(.keyPath(["@count"], of: ExpressionNode(.subquery(collection: key("items"), variable: "i",
                                                                             predicate: cmp(.keyPath(["price"], of: variable("i")), .equalTo, int(1))))),
                           .greaterThan, int(0)),
             printed: "SUBQUERY(items, $i, $i.price == 1).@count > 0"),
        Case(format: "SELF.%K == 1", arguments: ["a"],
             expected: cmp(.keyPath(["a"], of: .evaluatedObject), .equalTo, int(1)),
             printed: "SELF.a == 1"),
        Case(format: "a.%K.c == 1", arguments: ["b"],
             expected: cmp(.keyPath(keys: ["a", "b", "c"]), .equalTo, int(1)),
             printed: "a.b.c == 1"),
        Case(format: "tags.%K > 1", arguments: ["@count"],
             expected: cmp(.keyPath(keys: ["tags", "@count"]), .greaterThan, int(1)),
             printed: "tags.@count > 1"),
        // Keys that need writing: a reserved word after a dot is a key as it is; others get
        // `#` or escapes, as the printer writes them.
        Case(format: "a.%K == 1", arguments: ["size"],
             expected: cmp(.keyPath(keys: ["a", "size"]), .equalTo, int(1)),
             printed: "a.size == 1"),
        Case(format: "a.%K == 1", arguments: ["1st"],
             expected: cmp(.keyPath(keys: ["a", "1st"]), .equalTo, int(1)),
             printed: "a.#1st == 1"),
        Case(format: "a.%K == 1", arguments: ["first name"],
             expected: cmp(.keyPath(keys: ["a", "first name"]), .equalTo, int(1)),
             printed: #"a.first\u0020name == 1"#),
        Case(format: "%K.%K == 1", arguments: ["in", "café"],
             expected: cmp(.keyPath(keys: ["in", "café"]), .equalTo, int(1)),
             printed: #"#in.caf\u00E9 == 1"#),
    ]

    @Test(arguments: cases)
    func splicesTheKeys(_ c: Case) throws {
        let parsed = try PredicateNode(format: c.format, arguments: c.arguments)
        #expect(parsed == c.expected)
        #expect(parsed.description == c.printed)
        #expect(try PredicateNode(format: parsed.description) == parsed)
    }

    /// The key path spans every key, the `%K`s after the dot included.
    @Test func theKeyPathsRangeCoversTheArguments() throws {
        let parsed = try PredicateNode(format: "%K.%K == 1", arguments: ["a", "b"])
        guard case .comparison(let c) = parsed.kind else { Issue.record("not a comparison"); return }
        #expect(c.left.range == SourceRange(start: 0, end: 5))
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [String?]
        let code: ParseError.Code
        let column: Int
        let message: String
        var testDescription: String { format }
    }

    static let errors: [ErrorCase] = [
        ErrorCase(format: "a.%K == 1", arguments: [], code: .missingArgument, column: 3,
                  message: "no argument for %K (argument 1; 0 given)"),
        ErrorCase(format: "%K.%K == 1", arguments: ["a"], code: .missingArgument, column: 4,
                  message: "no argument for %K (argument 2; 1 given)"),
        ErrorCase(format: "$x.%K == 1", arguments: [nil], code: .invalidArgument, column: 4,
                  message: "argument 1 for %K: %K needs a key path string, got nil"),
        ErrorCase(format: "a.b.%K == 1", arguments: ["c..d"], code: .invalidKey, column: 5,
                  message: "argument 1 for %K: 'c..d' is not a key path (empty key)"),
        ErrorCase(format: "a.%K == 1", arguments: [""], code: .invalidKey, column: 3,
                  message: "argument 1 for %K: '' is not a key path (empty key)"),
        ErrorCase(format: "a.%@ == 1", arguments: ["b"], code: .unexpectedToken, column: 3,
                  message: "expected a key after '.', found '%@' (a key is bound with %K)"),
        ErrorCase(format: "a.%d == 1", arguments: ["b"], code: .unexpectedToken, column: 3,
                  message: "expected a key after '.', found '%d' (a key is bound with %K)"),
    ]

    @Test(arguments: errors)
    func errorsPointAtTheSpecifier(_ c: ErrorCase) {
        guard let error = parseError(c.format, c.arguments) else { return }
        #expect(error.code == c.code, "\(error.rendered())")
        #expect(error.column == c.column, "\(error.rendered())")
        #expect(error.message == c.message, "\(error.rendered())")
    }

    /// Arguments bind in the order their specifiers are written, across dots.
    @Test func argumentsBindInOrder() throws {
        let parsed = try PredicateNode(format: "%K.%K == %@ AND %K == %d", arguments: ["a", "b", "x", "c", 2])
        #expect(parsed == .and([cmp(.keyPath(keys: ["a", "b"]), .equalTo, str("x")), cmp(key("c"), .equalTo, int(2))]))
    }

    /// An expression (a sort key, a fetched property) takes `%K` after a dot too.
    @Test func expressionsTakeThemToo() throws {
        #expect(try ExpressionNode(format: "items.%K.@sum.%K", arguments: ["lines", "price"])
                == .keyPath(keys: ["items", "lines", "@sum", "price"]))
    }
}
