import Foundation
import Testing
@testable import SiftLanguage

/// LANGUAGE.md §7: canonical printing.
@Suite("Canonical printer")
struct PrinterTests {
    static let cases: [(String, String)] = [
        // Operator spellings.
        ("a = 1", "a == 1"),
        ("a <> 1", "a != 1"),
        ("a =< 1", "a <= 1"),
        ("a => 1", "a >= 1"),
        ("a beginswith 'x'", #"a BEGINSWITH "x""#),
        ("a like[dc] 'x'", #"a LIKE[cd] "x""#),
        ("a ==[ldnc] 'x'", #"a ==[cdnl] "x""#),
        ("a in {1,2}", "a IN {1, 2}"),
        ("a between {1,2}", "a BETWEEN {1, 2}"),
        ("a uti-conforms-to 'x'", #"a UTI-CONFORMS-TO "x""#),
        // Qualifiers: SOME prints as ANY.
        ("some a == 1", "ANY a == 1"),
        ("all a == 1", "ALL a == 1"),
        ("none a == 1", "NONE a == 1"),
        // Literals.
        ("a == 'x'", #"a == "x""#),
        ("a == yes", "a == 1"),
        ("a == FALSE", "a == 0"),
        ("a == NULL", "a == nil"),
        ("a == 0x10", "a == 16"),
        ("a == 2.0", "a == 2.0"),
        ("a == 0.1", "a == 0.1"),
        ("a == 1e100", "a == 1e+100"),
        ("a == 1.5e-7", "a == 1.5e-07"),
        ("a == -0.0", "a == -0.0"),
        ("a == 1e999", "a == 1e999"),
        ("a == -1e999", "a == -1e999"),
        ("a == 9223372036854775808", "a == 9.223372036854776e+18"),
        ("a == -9223372036854775808", "a == -9223372036854775808"),
        // Strings: escapes for ", \ and control characters; other characters as they are.
        (#"a == 'say "hi"'"#, #"a == "say \"hi\"""#),
        (#"a == "back\\slash""#, #"a == "back\\slash""#),
        (#"a == "\n\t\r\0\u0001""#, #"a == "\n\t\r\u0000\u0001""#),
        (#"a == "é ß 😀 \u00e9""#, #"a == "é ß 😀 é""#),
        ("a == \"it's\"", #"a == "it's""#),
        // Dates print as CAST(<seconds since 2001>, "NSDate").
        ("a > CAST('2001-01-01T00:01:00Z', 'NSDate')", #"a > CAST(60.0, "NSDate")"#),
        ("a > CAST(-1, 'NSDate')", #"a > CAST(-1.0, "NSDate")"#),
        ("a > CAST(YES, 'NSDate')", #"a > CAST(1.0, "NSDate")"#),
        ("a > CAST('2021-03-04T05:06:07.5+01:00', 'NSDate')", #"a > CAST(636523567.5, "NSDate")"#),
        ("a == CAST('1.50', 'NSDecimalNumber')", #"a == CAST("1.5", "NSDecimalNumber")"#),
        // Keys.
        ("#size == 1", "#size == 1"),
        ("#name == 1", "name == 1"),
        ("a.#in == 1", "a.in == 1"),
        ("#SELF == 1", "#SELF == 1"),
        (#"caf\u00e9 == 1"#, #"caf\u00E9 == 1"#),
        (#"\u0031st == 1"#, "#1st == 1"),
        (#"a\ud83d\ude00 == 1"#, #"a\uD83D\uDE00 == 1"#),
        ("@count == 1", "@count == 1"),
        ("SELF.a == 1", "SELF.a == 1"),
        ("SELF == 1", "SELF == 1"),
        // Compounds: sub-predicates that are compounds in parentheses, comparisons bare; flat chains.
        ("a == 1 and b == 2 and c == 3", "a == 1 AND b == 2 AND c == 3"),
        ("a == 1 || b == 2 && c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("(a == 1 or b == 2) and c == 3", "(a == 1 OR b == 2) AND c == 3"),
        ("not a == 1", "NOT a == 1"),
        ("!(a == 1 and b == 2)", "NOT (a == 1 AND b == 2)"),
        ("not a == 1 and b == 2", "(NOT a == 1) AND b == 2"),
        ("not not a == 1", "NOT (NOT a == 1)"),
        ("NOT TRUEPREDICATE", "NOT TRUEPREDICATE"),
        ("((a == 1))", "a == 1"),
        // Expressions: minimal parentheses from the precedence table.
        ("(a + b) * c == 1", "(a + b) * c == 1"),
        ("a + (b * c) == 1", "a + b * c == 1"),
        ("a - (b - c) == 1", "a - (b - c) == 1"),
        ("(a - b) - c == 1", "a - b - c == 1"),
        ("(a ** b) ** c == 1", "(a ** b) ** c == 1"),
        ("a ** (b ** c) == 1", "a ** b ** c == 1"),
        ("-(a + b) == 1", "-(a + b) == 1"),
        ("-(2) == 1", "-(2) == 1"),
        ("- -a == 1", "--a == 1"),
        ("~(a | b) == 1", "~(a | b) == 1"),
        ("(a | b) + 1 == 1", "(a | b) + 1 == 1"),
        ("(-2)[FIRST] == 1", "(-2)[FIRST] == 1"),
        ("-2[FIRST] == 1", "-2[FIRST] == 1"),
        ("-(2[FIRST]) == 1", "-2[FIRST] == 1"),
        ("(a + b).c == 1", "(a + b).c == 1"),
        ("$x := (1 + 2) == 3", "$x := 1 + 2 == 3"),
        ("($x := 1) * 2 == 2", "($x := 1) * 2 == 2"),
        // Functions print with their full selector.
        ("sum(a) == 1", "sum:(a) == 1"),
        ("add:to(1,2) == 3", "add:to:(1, 2) == 3"),
        ("NOW() > a", "now() > a"),
        ("FUNCTION(a, 'multiply:by:', 2) == 1", #"FUNCTION(a, "multiply:by:", 2) == 1"#),
        ("SUBQUERY(items, $i, $i.p > 1).@count == 0", "SUBQUERY(items, $i, $i.p > 1).@count == 0"),
        ("TERNARY(a == 1, 'x', b + 1) == 'x'", #"TERNARY(a == 1, "x", b + 1) == "x""#),
        ("CAST(a, 'NSString') == '1'", #"CAST(a, "NSString") == "1""#),
        ("d['k'] == 1", #"d["k"] == 1"#),
        ("tags[first].name == 1", "tags[FIRST].name == 1"),
    ]

    @Test(arguments: cases)
    func printsCanonically(_ input: String, _ expected: String) throws {
        let p = try parse(input)
        #expect(p.description == expected)
        // Canonical text is a fixed point and reads back as the same predicate.
        let reparsed = try parse(p.description)
        #expect(reparsed == p)
        #expect(reparsed.description == expected)
    }

    @Test func formatArgumentsPrintAsWhatTheyWereBoundTo() throws {
        let date = Date(timeIntervalSinceReferenceDate: 3600)
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let p = try parse("%K == %@ AND b IN %@ AND c > %@ AND d == %@ AND e == %@ AND f == %@ AND g == $v",
                          "x.y", "it's", [1, 2.5, "z", nil], date, uuid, Data([255, 0]), Decimal(string: "0.1")!)
        #expect(p.description == #"x.y == "it's" AND b IN {1, 2.5, "z", nil} AND c > CAST(3600.0, "NSDate") AND d == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID") AND e == CAST("/wA=", "NSData") AND f == CAST("0.1", "NSDecimalNumber") AND g == $v"#)
        #expect(try parse(p.description) == p)
    }

    @Test func objectIDArgumentsPrintAsCasts() throws {
        let p = try parse("parent == %@ AND owner == %@", ObjectID("R"), ObjectID("it's"))
        #expect(p.description == #"parent == CAST("R", "NSManagedObjectID") AND owner == CAST("it's", "NSManagedObjectID")"#)
        #expect(try parse(p.description) == p)
        guard case .comparison(let c) = try parse(#"parent == CAST('R', 'NSManagedObjectID')"#).kind else {
            Issue.record("not a comparison"); return
        }
        #expect(c.right.kind == .constant(.objectID("R")))
    }

    @Test func constantsDescribeThemselves() {
        #expect(ConstantValue.string("a\"b").description == #""a\"b""#)
        #expect(ConstantValue.double(2).description == "2.0")
        #expect(ConstantValue.bool(true).description == "1")
        #expect(ConstantValue.null.description == "nil")
    }
}
