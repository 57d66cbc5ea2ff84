import Foundation
import Testing
@testable import SiftLanguage

/// Format arguments are bound while parsing, from typed Swift values.
@Suite("Format arguments")
struct ArgumentTests {
    @Test func everyTypedValueBecomesAConstant() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12.5)
        let uuid = UUID()
        let cases: [(Any?, ConstantValue)] = [
            ("x", .string("x")), (Substring("x"), .string("x")), (Character("é"), .string("é")),
            (42, .int(42)), (Int8(-8), .int(-8)), (Int16(16), .int(16)), (Int32(32), .int(32)), (Int64(64), .int(64)),
            (UInt8(8), .int(8)), (UInt16(16), .int(16)), (UInt32(32), .int(32)), (UInt64(64), .int(64)), (UInt(1), .int(1)),
            (UInt64.max, .double(Double(UInt64.max))),
            (2.5, .double(2.5)), (Float(0.5), .double(0.5)), (true, .bool(true)), (false, .bool(false)),
            (Decimal(string: "1.25")!, .decimal(Decimal(string: "1.25")!)), (date, .date(date)), (uuid, .uuid(uuid)),
            (Data([1, 2]), .data(Data([1, 2]))), (nil, .null), (NSNull(), .null), (Optional<Int>.some(3) as Any, .int(3)),
            (Optional<Int>.none as Any, .null), (ConstantValue.int(9), .int(9)),
        ]
        for (value, expected) in cases {
            let p = try PredicateNode(format: "a == %@", arguments: [value])
            guard case .comparison(let c) = p.kind else { Issue.record("shape"); continue }
            #expect(c.right.constantValue == expected, "\(String(describing: value))")
            #expect(c.right.range == SourceRange(start: 5, end: 7))
        }
    }

    @Test func arraysAndSetsBecomeAggregates() throws {
        #expect(try parse("a IN %@", [1, "x", nil, [2.5]] as [Any?]) == cmp(key("a"), .in, agg(int(1), str("x"), null, agg(dbl(2.5)))))
        #expect(try parse("a IN %@", ["x", "y"]) == cmp(key("a"), .in, agg(str("x"), str("y"))))
        let fromSet = try parse("a IN %@", Set([7]))
        #expect(fromSet == cmp(key("a"), .in, agg(int(7))))
        #expect(try parse("a IN %@", [Int]()) == cmp(key("a"), .in, agg()))
    }

    @Test func keyPathArgumentsAreKeyPaths() throws {
        #expect(try parse("%K == %@", "title", "x") == cmp(key("title"), .equalTo, str("x")))
        #expect(try parse("%K.@count > 1", "a.tags") == cmp(.keyPath(keys: ["a", "tags", "@count"]), .greaterThan, int(1)))
        // A key that needs escaping in a format string is fine through %K, and prints escaped.
        let p = try parse("%K == 1", "first name")
        #expect(p == cmp(.keyPath(keys: ["first name"]), .equalTo, int(1)))
        #expect(p.description == #"first\u0020name == 1"#)
        #expect(try parse("%K == 1", "size").description == "#size == 1")
        #expect(try parse("%K == 1", ConstantValue.string("a.b")) == cmp(key("a.b"), .equalTo, int(1)))
        #expect(try parse("%K == 1", Substring("a")) == cmp(key("a"), .equalTo, int(1)))
    }

    @Test func printfSpecifiers() throws {
        #expect(try parse("a == %d AND b == %i AND c == %ld AND d == %lld AND e == %u AND f == %lu", 1, 2, 3, 4, 5, 6)
                == .and([cmp(key("a"), .equalTo, int(1)), cmp(key("b"), .equalTo, int(2)), cmp(key("c"), .equalTo, int(3)),
                         cmp(key("d"), .equalTo, int(4)), cmp(key("e"), .equalTo, int(5)), cmp(key("f"), .equalTo, int(6))]))
        #expect(try parse("a == %f AND b == %lf AND c == %g AND d == %e", 1.5, 2, 3.0, Float(4))
                == .and([cmp(key("a"), .equalTo, dbl(1.5)), cmp(key("b"), .equalTo, dbl(2)), cmp(key("c"), .equalTo, dbl(3)), cmp(key("d"), .equalTo, dbl(4))]))
        #expect(try parse("a == %s", "x") == cmp(key("a"), .equalTo, str("x")))
    }

    @Test func specifiersInsideQuotesArePlainText() throws {
        #expect(try parse("a == '%@ %K %d' AND b == %@", 1) == .and([cmp(key("a"), .equalTo, str("%@ %K %d")), cmp(key("b"), .equalTo, int(1))]))
        #expect(try parse("a LIKE '100%%'") == cmp(key("a"), .like, str("100%%")))
    }

    @Test func variadicAndArrayFormsAgree() throws {
        #expect(try PredicateNode(format: "a == %@ AND b == %@", 1, "x") == PredicateNode(format: "a == %@ AND b == %@", arguments: [1, "x"]))
    }
}

/// Variables are bound after parsing.
@Suite("Variable substitution")
struct SubstitutionTests {
    @Test func substitutesFreeVariables() throws {
        let p = try parse("a == $x AND b IN $list AND c == $missing")
        #expect(p.variableNames == ["x", "list", "missing"])
        let bound = try p.substituting(variables: ["x": 1, "list": ["p", "q"], "unused": 3])
        #expect(bound == .and([cmp(key("a"), .equalTo, int(1)), cmp(key("b"), .in, agg(str("p"), str("q"))), cmp(key("c"), .equalTo, variable("missing"))]))
        #expect(bound.description == #"a == 1 AND b IN {"p", "q"} AND c == $missing"#)
        #expect(bound.variableNames == ["missing"])
    }

    @Test func subqueryVariablesAreNotSubstituted() throws {
        let p = try parse("SUBQUERY(items, $x, $x.price > $min).@count > $x")
        #expect(p.variableNames == ["min", "x"])
        let bound = try p.substituting(variables: ["x": 2, "min": 5])
        #expect(bound.description == "SUBQUERY(items, $x, $x.price > 5).@count > 2")
    }

    @Test func nilAndDatesBind() throws {
        let p = try parse("a == $v AND b > $d")
        let bound = try p.substituting(variables: ["v": nil, "d": Date(timeIntervalSinceReferenceDate: 60)])
        #expect(bound.description == #"a == nil AND b > CAST(60.0, "NSDate")"#)
    }

    @Test func aKeyPathVariableContinuesAKeyPath() throws {
        let p = try parse("$k.name == 1")
        let bound = try p.substituting(variables: ["k": ExpressionNode.keyPath("a.b")])
        #expect(bound == cmp(key("a.b.name"), .equalTo, int(1)))
    }

    @Test func unsupportedValuesAreAnErrorNamingTheVariable() throws {
        struct Opaque {}
        let p = try parse("a == $v")
        #expect(throws: ArgumentConversion.Failure.self) { try p.substituting(variables: ["v": Opaque()]) }
        do {
            _ = try p.substituting(variables: ["v": Opaque()])
        } catch {
            #expect(error.description.contains("$v"))
        }
    }
}

/// Builders make the same AST as the parser.
@Suite("Builders")
struct BuilderTests {
    @Test func buildersMatchTheParser() throws {
        let built = PredicateNode.and([
            .comparison(.keyPath("title"), .beginsWith, .constant("star"), options: [.caseInsensitive, .diacriticInsensitive]),
            .comparison(.keyPath("tags.name"), .equalTo, .constant("sci-fi"), modifier: .any),
            .not(.or([.comparison(.keyPath("year"), .lessThan, .constant(1970)), .comparison(.keyPath("rating"), .greaterThan, .constant(4.5))])),
        ])
        #expect(built == (try parse(#"title BEGINSWITH[cd] "star" AND ANY tags.name == "sci-fi" AND NOT (year < 1970 OR rating > 4.5)"#)))
        #expect(built.description == #"title BEGINSWITH[cd] "star" AND ANY tags.name == "sci-fi" AND (NOT (year < 1970 OR rating > 4.5))"#)
    }

    @Test func compoundsOfOneOrNone() {
        let p = PredicateNode.comparison(.keyPath("a"), .equalTo, .null)
        #expect(PredicateNode.and([p]) == p)
        #expect(PredicateNode.or([p]) == p)
        #expect(PredicateNode.and([]) == .truePredicate)
        #expect(PredicateNode.or([]) == .falsePredicate)
    }

    @Test func expressionBuilders() throws {
        #expect(ExpressionNode.function("sum", [.keyPath("x")]) == (try ExpressionNode(format: "sum(x)")))
        #expect(ExpressionNode.keyPath(["name"], of: .variable("x")) == (try ExpressionNode(format: "$x.name")))
        #expect(ExpressionNode.keyPath(["c"], of: .keyPath("a.b")) == (try ExpressionNode(format: "a.b.c")))
        #expect(ExpressionNode.binary(.add, .constant(1), .constant(2)).description == "1 + 2")
        #expect(ExpressionNode.aggregate([.null, .evaluatedObject, .constant(true)]).description == "{nil, SELF, 1}")
    }
}
