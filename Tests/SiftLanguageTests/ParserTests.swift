import Foundation
import Testing
@testable import SiftLanguage

/// LANGUAGE.md §1–2: every lexical form and grammar row parses to the expected AST.
@Suite("Parser: exact ASTs")
struct ParserASTTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let format: String
        let expected: PredicateNode
        var testDescription: String { format }
        init(_ format: String, _ expected: PredicateNode) { self.format = format; self.expected = expected }
    }

    static let literalCases: [Case] = [
        // Numbers (§1): decimal, negative, double, exponent, hex, octal, binary, overflow to double.
        Case("a == 42", cmp(key("a"), .equalTo, int(42))),
        Case("a == -7", cmp(key("a"), .equalTo, int(-7))),
        Case("a == 3.14", cmp(key("a"), .equalTo, dbl(3.14))),
        Case("a == 9.2e-5", cmp(key("a"), .equalTo, dbl(9.2e-5))),
        Case("a == 1E3", cmp(key("a"), .equalTo, dbl(1000))),
        Case("a == 0x1F", cmp(key("a"), .equalTo, int(31))),
        Case("a == 0o17", cmp(key("a"), .equalTo, int(15))),
        Case("a == 0b101", cmp(key("a"), .equalTo, int(5))),
        Case("a == 9223372036854775807", cmp(key("a"), .equalTo, int(.max))),
        Case("a == -9223372036854775808", cmp(key("a"), .equalTo, int(.min))),
        Case("a == 9223372036854775808", cmp(key("a"), .equalTo, dbl(9223372036854775808.0))),
        Case("a == 1e999", cmp(key("a"), .equalTo, dbl(.infinity))),
        // Strings: both quotes, one kind does not end the other, escapes.
        Case(#"a == "x""#, cmp(key("a"), .equalTo, str("x"))),
        Case("a == 'x'", cmp(key("a"), .equalTo, str("x"))),
        Case(#"a == "it's""#, cmp(key("a"), .equalTo, str("it's"))),
        Case(#"a == 'say "hi"'"#, cmp(key("a"), .equalTo, str("say \"hi\""))),
        Case(#"a == "\"\'\\\n\t\r\0""#, cmp(key("a"), .equalTo, str("\"'\\\n\t\r\0"))),
        Case(#"a == "\u00e9\u00DF""#, cmp(key("a"), .equalTo, str("éß"))),
        Case(#"a == "\ud83d\ude00""#, cmp(key("a"), .equalTo, str("😀"))),
        Case(#"a == "straße ✓ 😀""#, cmp(key("a"), .equalTo, str("straße ✓ 😀"))),
        Case(#"a == "%@ %K $x""#, cmp(key("a"), .equalTo, str("%@ %K $x"))),
        // Literals.
        Case("a == nil", cmp(key("a"), .equalTo, null)),
        Case("a == NULL", cmp(key("a"), .equalTo, null)),
        Case("a == TRUE", cmp(key("a"), .equalTo, bool(true))),
        Case("a == yes", cmp(key("a"), .equalTo, bool(true))),
        Case("a == False", cmp(key("a"), .equalTo, bool(false))),
        Case("a == NO", cmp(key("a"), .equalTo, bool(false))),
        Case("SELF == 1", cmp(.evaluatedObject, .equalTo, int(1))),
        // Aggregates.
        Case("a IN {1, 2, 3}", cmp(key("a"), .in, agg(int(1), int(2), int(3)))),
        Case("a == {}", cmp(key("a"), .equalTo, agg())),
        Case("a IN {b, 1 + 2, {3}}", cmp(key("a"), .in, agg(key("b"), bin(.add, int(1), int(2)), agg(int(3))))),
        // Variables.
        Case("a == $x", cmp(key("a"), .equalTo, variable("x"))),
        // Truth constants.
        Case("TRUEPREDICATE", .truePredicate),
        Case("falsepredicate", .falsePredicate),
    ]

    static let keyCases: [Case] = [
        Case("a.b.c == 1", cmp(key("a.b.c"), .equalTo, int(1))),
        Case("#size == 1", cmp(.keyPath(keys: ["size"]), .equalTo, int(1))),
        Case("#in == 1", cmp(.keyPath(keys: ["in"]), .equalTo, int(1))),
        Case("#name == 1", cmp(.keyPath(keys: ["name"]), .equalTo, int(1))),
        Case("a.#size == 1", cmp(.keyPath(keys: ["a", "size"]), .equalTo, int(1))),
        Case("a.size == 1", cmp(.keyPath(keys: ["a", "size"]), .equalTo, int(1))),
        Case("@count > 1", cmp(.keyPath(keys: ["@count"]), .greaterThan, int(1))),
        Case("tags.@count > 1", cmp(.keyPath(keys: ["tags", "@count"]), .greaterThan, int(1))),
        Case("items.@sum.price > 1", cmp(.keyPath(keys: ["items", "@sum", "price"]), .greaterThan, int(1))),
        Case("SELF.a == 1", cmp(ExpressionNode(.keyPath(base: .evaluatedObject, keys: ["a"])), .equalTo, int(1))),
        Case("$x.name == 1", cmp(ExpressionNode(.keyPath(base: variable("x"), keys: ["name"])), .equalTo, int(1))),
        Case(#"caf\u00e9 == 1"#, cmp(.keyPath(keys: ["café"]), .equalTo, int(1))),
        Case("_a1 == 1", cmp(key("_a1"), .equalTo, int(1))),
        // Index forms.
        Case("tags[FIRST] == 1", cmp(ExpressionNode(.index(base: key("tags"), subscript: .first)), .equalTo, int(1))),
        Case("tags[last] == 1", cmp(ExpressionNode(.index(base: key("tags"), subscript: .last)), .equalTo, int(1))),
        Case("tags[SIZE] == 1", cmp(ExpressionNode(.index(base: key("tags"), subscript: .size)), .equalTo, int(1))),
        Case("tags[2] == 1", cmp(ExpressionNode(.index(base: key("tags"), subscript: .expression(int(2)))), .equalTo, int(1))),
        Case("d['k'] == 1", cmp(ExpressionNode(.index(base: key("d"), subscript: .expression(str("k")))), .equalTo, int(1))),
        Case("tags[FIRST].name == 1", cmp(ExpressionNode(.keyPath(base: ExpressionNode(.index(base: key("tags"), subscript: .first)), keys: ["name"])), .equalTo, int(1))),
    ]

    static let operatorCases: [Case] = [
        // Comparison spellings.
        Case("a = 1", cmp(key("a"), .equalTo, int(1))),
        Case("a == 1", cmp(key("a"), .equalTo, int(1))),
        Case("a != 1", cmp(key("a"), .notEqualTo, int(1))),
        Case("a <> 1", cmp(key("a"), .notEqualTo, int(1))),
        Case("a < 1", cmp(key("a"), .lessThan, int(1))),
        Case("a <= 1", cmp(key("a"), .lessThanOrEqualTo, int(1))),
        Case("a =< 1", cmp(key("a"), .lessThanOrEqualTo, int(1))),
        Case("a > 1", cmp(key("a"), .greaterThan, int(1))),
        Case("a >= 1", cmp(key("a"), .greaterThanOrEqualTo, int(1))),
        Case("a => 1", cmp(key("a"), .greaterThanOrEqualTo, int(1))),
        Case("a BEGINSWITH 'x'", cmp(key("a"), .beginsWith, str("x"))),
        Case("a endswith 'x'", cmp(key("a"), .endsWith, str("x"))),
        Case("a Contains 'x'", cmp(key("a"), .contains, str("x"))),
        Case("a LIKE 'x*'", cmp(key("a"), .like, str("x*"))),
        Case("a MATCHES '.*'", cmp(key("a"), .matches, str(".*"))),
        Case("a IN b", cmp(key("a"), .in, key("b"))),
        Case("a BETWEEN {1, 2}", cmp(key("a"), .between, agg(int(1), int(2)))),
        Case("a UTI-CONFORMS-TO 'public.text'", cmp(key("a"), .utiConformsTo, str("public.text"))),
        Case("a uti-equals 'public.text'", cmp(key("a"), .utiEquals, str("public.text"))),
        // Options.
        Case("a BEGINSWITH[c] 'x'", cmp(key("a"), .beginsWith, str("x"), .direct, [.caseInsensitive])),
        Case("a ==[d] 'x'", cmp(key("a"), .equalTo, str("x"), .direct, [.diacriticInsensitive])),
        Case("a LIKE[cd] 'x'", cmp(key("a"), .like, str("x"), .direct, [.caseInsensitive, .diacriticInsensitive])),
        Case("a CONTAINS[DC] 'x'", cmp(key("a"), .contains, str("x"), .direct, [.caseInsensitive, .diacriticInsensitive])),
        Case("a MATCHES[n] 'x'", cmp(key("a"), .matches, str("x"), .direct, [.normalized])),
        Case("a !=[l] 'x'", cmp(key("a"), .notEqualTo, str("x"), .direct, [.localeSensitive])),
        Case("a IN[c] {'x'}", cmp(key("a"), .in, agg(str("x")), .direct, [.caseInsensitive])),
        Case("a ==[cdnl] 'x'", cmp(key("a"), .equalTo, str("x"), .direct, [.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive])),
        // Qualifiers.
        Case("ANY a > 1", cmp(key("a"), .greaterThan, int(1), .any)),
        Case("some a > 1", cmp(key("a"), .greaterThan, int(1), .any)),
        Case("ALL a > 1", cmp(key("a"), .greaterThan, int(1), .all)),
        Case("NONE a > 1", cmp(key("a"), .greaterThan, int(1), .none)),
        Case("ANY tags.name BEGINSWITH[cd] 'x'", cmp(key("tags.name"), .beginsWith, str("x"), .any, [.caseInsensitive, .diacriticInsensitive])),
        // Compound predicates and precedence.
        Case("a == 1 AND b == 2", .and([cmp(key("a"), .equalTo, int(1)), cmp(key("b"), .equalTo, int(2))])),
        Case("a == 1 && b == 2", .and([cmp(key("a"), .equalTo, int(1)), cmp(key("b"), .equalTo, int(2))])),
        Case("a == 1 or b == 2", .or([cmp(key("a"), .equalTo, int(1)), cmp(key("b"), .equalTo, int(2))])),
        Case("a == 1 || b == 2", .or([cmp(key("a"), .equalTo, int(1)), cmp(key("b"), .equalTo, int(2))])),
        Case("a == 1 AND b == 2 AND c == 3", .and([cmp(key("a"), .equalTo, int(1)), cmp(key("b"), .equalTo, int(2)), cmp(key("c"), .equalTo, int(3))])),
        Case("a == 1 OR b == 2 AND c == 3", .or([cmp(key("a"), .equalTo, int(1)), .and([cmp(key("b"), .equalTo, int(2)), cmp(key("c"), .equalTo, int(3))])])),
        Case("(a == 1 OR b == 2) AND c == 3", .and([.or([cmp(key("a"), .equalTo, int(1)), cmp(key("b"), .equalTo, int(2))]), cmp(key("c"), .equalTo, int(3))])),
        Case("a == 1 AND (b == 2 AND c == 3)", .and([cmp(key("a"), .equalTo, int(1)), .and([cmp(key("b"), .equalTo, int(2)), cmp(key("c"), .equalTo, int(3))])])),
        Case("NOT a == 1", .not(cmp(key("a"), .equalTo, int(1)))),
        Case("!a == 1", .not(cmp(key("a"), .equalTo, int(1)))),
        Case("NOT a == 1 AND b == 2", .and([.not(cmp(key("a"), .equalTo, int(1))), cmp(key("b"), .equalTo, int(2))])),
        Case("NOT (a == 1 AND b == 2)", .not(.and([cmp(key("a"), .equalTo, int(1)), cmp(key("b"), .equalTo, int(2))]))),
        Case("NOT NOT TRUEPREDICATE", .not(.not(.truePredicate))),
        Case("((a == 1))", cmp(key("a"), .equalTo, int(1))),
        // Arithmetic precedence: unary > ** > * / > + - > bitwise.
        Case("a + b * c == 1", cmp(bin(.add, key("a"), bin(.multiply, key("b"), key("c"))), .equalTo, int(1))),
        Case("(a + b) * c == 1", cmp(bin(.multiply, bin(.add, key("a"), key("b")), key("c")), .equalTo, int(1))),
        Case("a - b - c == 1", cmp(bin(.subtract, bin(.subtract, key("a"), key("b")), key("c")), .equalTo, int(1))),
        Case("a / b * c == 1", cmp(bin(.multiply, bin(.divide, key("a"), key("b")), key("c")), .equalTo, int(1))),
        Case("a ** b ** c == 1", cmp(bin(.power, key("a"), bin(.power, key("b"), key("c"))), .equalTo, int(1))),
        Case("a * b ** c == 1", cmp(bin(.multiply, key("a"), bin(.power, key("b"), key("c"))), .equalTo, int(1))),
        Case("-a ** 2 == 1", cmp(bin(.power, ExpressionNode(.unary(.negate, key("a"))), int(2)), .equalTo, int(1))),
        Case("-2 ** 2 == 4", cmp(bin(.power, int(-2), int(2)), .equalTo, int(4))),
        Case("-(2) == a", cmp(ExpressionNode(.unary(.negate, int(2))), .equalTo, key("a"))),
        Case("~a == 1", cmp(ExpressionNode(.unary(.bitwiseNot, key("a"))), .equalTo, int(1))),
        Case("a - -1 == 1", cmp(bin(.subtract, key("a"), int(-1)), .equalTo, int(1))),
        Case("a-1 == 1", cmp(bin(.subtract, key("a"), int(1)), .equalTo, int(1))),
        Case("a + 1 & b == 1", cmp(bin(.bitwiseAnd, bin(.add, key("a"), int(1)), key("b")), .equalTo, int(1))),
        Case("a & b | c ^ d << 1 >> 2 == 1", cmp(bin(.rightShift, bin(.leftShift, bin(.bitwiseXor, bin(.bitwiseOr, bin(.bitwiseAnd, key("a"), key("b")), key("c")), key("d")), int(1)), int(2)), .equalTo, int(1))),
        Case("a + 1 == b * 2", cmp(bin(.add, key("a"), int(1)), .equalTo, bin(.multiply, key("b"), int(2)))),
    ]

    static let formCases: [Case] = [
        // Functions, with and without trailing colons.
        Case("sum(a) == 1", cmp(fn("sum:", key("a")), .equalTo, int(1))),
        Case("sum:(a) == 1", cmp(fn("sum:", key("a")), .equalTo, int(1))),
        Case("add:to:(1, 2) == 3", cmp(fn("add:to:", int(1), int(2)), .equalTo, int(3))),
        Case("add:to(1, 2) == 3", cmp(fn("add:to:", int(1), int(2)), .equalTo, int(3))),
        Case("now() > a", cmp(fn("now"), .greaterThan, key("a"))),
        Case("random() > a", cmp(fn("random"), .greaterThan, key("a"))),
        Case("random:(5) > a", cmp(fn("random:", int(5)), .greaterThan, key("a"))),
        Case("UPPERCASE(a) == 'X'", cmp(fn("uppercase:", key("a")), .equalTo, str("X"))),
        Case("raise:toPower:(a, 2) == 4", cmp(fn("raise:toPower:", key("a"), int(2)), .equalTo, int(4))),
        Case("FUNCTION(price, 'multiply:by:', 2) > 3",
             cmp(ExpressionNode(.functionExpression(receiver: key("price"), selector: "multiply:by:", arguments: [int(2)])), .greaterThan, int(3))),
        Case("FUNCTION(SELF, 'now') > 3",
             cmp(ExpressionNode(.functionExpression(receiver: .evaluatedObject, selector: "now", arguments: [])), .greaterThan, int(3))),
        // SUBQUERY.
        Case("SUBQUERY(items, $x, $x.price > 5).@count > 0",
             cmp(ExpressionNode(.keyPath(base: ExpressionNode(.subquery(collection: key("items"), variable: "x",
                                                                             predicate: cmp(ExpressionNode(.keyPath(base: variable("x"), keys: ["price"])), .greaterThan, int(5)))),
                                         keys: ["@count"])), .greaterThan, int(0))),
        Case("SUBQUERY(items, $x, TRUEPREDICATE)[SIZE] == 0",
             cmp(ExpressionNode(.index(base: ExpressionNode(.subquery(collection: key("items"), variable: "x", predicate: .truePredicate)), subscript: .size)), .equalTo, int(0))),
        // TERNARY, CAST, assignment.
        Case("TERNARY(a > 1, 'x', 'y') == 'x'",
             cmp(ExpressionNode(.ternary(condition: cmp(key("a"), .greaterThan, int(1)), then: str("x"), else: str("y"))), .equalTo, str("x"))),
        Case("CAST(a, 'NSString') == '1'", cmp(ExpressionNode(.cast(value: key("a"), type: "NSString")), .equalTo, str("1"))),
        Case("CAST(a, 'nsnumber') == 1", cmp(ExpressionNode(.cast(value: key("a"), type: "NSNumber")), .equalTo, int(1))),
        Case("a > CAST(0, 'NSDate')", cmp(key("a"), .greaterThan, ExpressionNode(.constant(.date(Date(timeIntervalSinceReferenceDate: 0)))))),
        Case("a > CAST(-86400.5, 'NSDate')", cmp(key("a"), .greaterThan, ExpressionNode(.constant(.date(Date(timeIntervalSinceReferenceDate: -86400.5)))))),
        Case("a > CAST('2001-01-02T00:00:00Z', 'NSDate')", cmp(key("a"), .greaterThan, ExpressionNode(.constant(.date(Date(timeIntervalSinceReferenceDate: 86400)))))),
        Case("a > CAST('not a date', 'NSDate')", cmp(key("a"), .greaterThan, ExpressionNode(.cast(value: str("not a date"), type: "NSDate")))),
        Case("a == CAST('1.25', 'NSDecimalNumber')", cmp(key("a"), .equalTo, ExpressionNode(.constant(.decimal(Decimal(string: "1.25")!))))),
        Case("a == CAST('AAEC', 'NSData')", cmp(key("a"), .equalTo, ExpressionNode(.constant(.data(Data([0, 1, 2])))))),
        Case("a == CAST('E621E1F8-C36C-495A-93FC-0C247A3E6E5F', 'NSUUID')",
             cmp(key("a"), .equalTo, ExpressionNode(.constant(.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))))),
        Case("$x := a + 1 == 2", cmp(ExpressionNode(.assignment(variable: "x", value: bin(.add, key("a"), int(1)))), .equalTo, int(2))),
        Case("($x := 1) + 1 == 2", cmp(bin(.add, ExpressionNode(.assignment(variable: "x", value: int(1))), int(1)), .equalTo, int(2))),
    ]

    @Test(arguments: literalCases + keyCases + operatorCases + formCases)
    func parsesToTheExpectedAST(_ c: Case) throws {
        let parsed = try parse(c.format)
        #expect(parsed == c.expected, "\(c.format) parsed as \(parsed)")
        // The canonical form reads back as the same AST.
        #expect(try PredicateNode(format: parsed.description) == parsed)
    }

    @Test func keywordsAreCaseInsensitive() throws {
        let spellings = ["a == 1 AND b == 2", "a == 1 and b == 2", "a == 1 aNd b == 2"]
        let parsed = try spellings.map { try parse($0) }
        #expect(Set(parsed).count == 1)
    }

    @Test func whitespaceIsInsignificant() throws {
        #expect(try parse("a==1&&b<=2") == parse("  a  ==  1\n\t&&\r\nb <= 2  "))
    }

    @Test func nodesKeepTheirSourceRanges() throws {
        let p = try parse("name BEGINSWITH 'x' AND (age + 1) > 2")
        guard case .and(let parts) = p.kind, case .comparison(let first) = parts[0].kind, case .comparison(let second) = parts[1].kind else {
            Issue.record("unexpected shape \(p)")
            return
        }
        #expect(p.range == SourceRange(start: 0, end: 37))
        #expect(parts[0].range == SourceRange(start: 0, end: 19))
        #expect(first.left.range == SourceRange(start: 0, end: 4))
        #expect(first.right.range == SourceRange(start: 16, end: 19))
        #expect(second.left.range == SourceRange(start: 24, end: 33))
        #expect(parts[1].range == SourceRange(start: 24, end: 37))
    }

    @Test func equalityIgnoresRanges() throws {
        let a = try parse("a == 1")
        let b = try parse("   a    ==     1")
        #expect(a.range != b.range)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    @Test func expressionsParseAlone() throws {
        #expect(try ExpressionNode(format: "items.@sum.price * 2") == bin(.multiply, .keyPath(keys: ["items", "@sum", "price"]), int(2)))
        #expect(try ExpressionNode(format: "%K", arguments: ["a.b"]) == key("a.b"))
        #expect(throws: ParseError.self) { try ExpressionNode(format: "a == 1") }
    }
}
