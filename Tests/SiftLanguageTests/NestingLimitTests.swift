import Foundation
import Testing
@testable import SiftLanguage

/// The printer and the parser agree on the nesting limit (issue 13): the limit bounds the
/// tree's height and, separately, the nesting of parentheses, so the canonical form of any
/// predicate the parser accepts — parentheses added by the printer included — parses back.
/// And parsing is linear in the input's length however long a key path, chain or list is.
@Suite("Nesting limit")
struct NestingLimitTests {
    static let limit = ParserOptions.defaultMaximumNestingLevel

    /// Deep inputs of every shape, `n` levels of the same construct. The first two are the
    /// hostile run's findings: the printer added parentheses (`-(-1)`, `$v := ($v := 1)`)
    /// that took the canonical form over the limit.
    static let deepInputs: [(name: String, make: @Sendable (Int) -> String)] = [
        ("minus signs before a number", { "a == " + String(repeating: "-", count: $0) + "1" }),
        ("an assignment chain", { "a == " + String(repeating: "$v := ", count: $0) + "1" }),
        ("NOT NOT ...", { String(repeating: "NOT ", count: $0) + "a == 1" }),
        ("negated assignments", { "a == " + String(repeating: "-$x := ", count: $0) + "1" }),
        ("assignments as right operands", { "a == 1" + String(repeating: " + $x := 1", count: $0) }),
        ("a left-nested sum in parentheses", { "a == " + String(repeating: "(", count: $0) + "1" + String(repeating: " + 1)", count: $0) }),
        ("a left-associative chain", { "a == 1" + String(repeating: " - 1", count: $0) }),
        ("a power chain", { "a == 2" + String(repeating: " ** 2", count: $0) }),
        ("OR over AND over OR", { n in
            (0..<n).reduce("c == 1") { inner, _ in "a == 1 OR b == 1 AND (\(inner))" }
        }),
        ("subscripts", { "a == b" + String(repeating: "[0]", count: $0) }),
        ("nested subscripts", { "a == " + String(repeating: "b[", count: $0) + "0" + String(repeating: "]", count: $0) }),
        ("aggregates", { "a == " + String(repeating: "{", count: $0) + String(repeating: "}", count: $0) }),
        ("function calls", { "a == " + String(repeating: "abs(", count: $0) + "1" + String(repeating: ")", count: $0) }),
        ("casts of key paths", { "a == " + String(repeating: "CAST(", count: $0) + "x" + String(repeating: ", 'NSString')", count: $0) }),
        ("SUBQUERY", { String(repeating: "SUBQUERY(x, $y, ", count: $0) + "TRUEPREDICATE" + String(repeating: ").@count == 1", count: $0) }),
        ("TERNARY", { "a == " + String(repeating: "TERNARY(TRUEPREDICATE, ", count: $0) + "1" + String(repeating: ", 2)", count: $0) }),
        ("key paths on subscripts", { "a == b" + String(repeating: "[0].c", count: $0) }),
        ("negated parentheses", { "a == " + String(repeating: "-(", count: $0) + "1" + String(repeating: ")", count: $0) }),
    ]

    /// Whether `format` parses; any other error than the nesting limit is a failure.
    static func accepts(_ format: String) -> Bool {
        do {
            _ = try PredicateNode(format: format)
            return true
        } catch {
            #expect(error.code == .nestingTooDeep, "\(error.rendered())")
            return false
        }
    }

    @Test(arguments: deepInputs.indices)
    func atTheLimitTheCanonicalFormParsesBack(_ index: Int) throws {
        let (name, make) = Self.deepInputs[index]
        // The deepest n accepted (nesting grows with n).
        var low = 1, high = 4 * Self.limit
        #expect(Self.accepts(make(low)), "\(name)")
        #expect(!Self.accepts(make(high)), "\(name)")
        while high - low > 1 {
            let middle = (low + high) / 2
            if Self.accepts(make(middle)) { low = middle } else { high = middle }
        }
        for n in max(1, low - 3)...low {
            let p = try PredicateNode(format: make(n))
            #expect(p.nestingHeight <= Self.limit, "\(name)")
            do {
                let reparsed = try PredicateNode(format: p.description)
                #expect(reparsed == p, "\(name), n = \(n)")
            } catch {
                Issue.record("\(name), n = \(n): the canonical form does not parse back: \(error.message)")
            }
        }
    }

    @Test func treesOfEveryShapeAtTheLimitPrintAndParseBack() throws {
        var builder = SpineBuilder(seed: 0x13_0003)
        for case_ in 0..<150 {
            let p = builder.predicate(height: Self.limit)
            #expect(p.nestingHeight == Self.limit)
            let text = p.description
            do {
                let reparsed = try PredicateNode(format: text)
                #expect(reparsed == p, "case \(case_): \(text)")
            } catch {
                Issue.record("case \(case_): \(error.message)\n\(text)")
            }
            // One level more is refused, with the nesting error.
            let deeper = PredicateNode(.not(p))
            #expect(parseError(deeper.description)?.code == .nestingTooDeep)
        }
    }

    @Test func parenthesesHaveALimitOfTheirOwn() throws {
        // Parentheses add no height: 200 of them around a comparison are fine, and so are 256.
        for n in [200, Self.limit] {
            let format = String(repeating: "(", count: n) + "a == 1" + String(repeating: ")", count: n)
            #expect(try PredicateNode(format: format) == PredicateNode(format: "a == 1"))
        }
        let error = parseError(String(repeating: "(", count: Self.limit + 1) + "a == 1" + String(repeating: ")", count: Self.limit + 1))
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.message == "parentheses are nested deeper than the limit of 256 levels")
        #expect(error?.column == Self.limit + 1)
    }

    @Test func theHeightIsWhatTheLimitCounts() throws {
        #expect(try parse("TRUEPREDICATE").nestingHeight == 1)
        #expect(try parse("a.b.c == 1").nestingHeight == 2)
        #expect(try parse("((a == 1))").nestingHeight == 2)
        #expect(try parse("a == 1 + 2 * 3").nestingHeight == 4)
        #expect(try parse("NOT (a == 1 AND b == {1, -2})").nestingHeight == 5)
        let nested = try parse("a == %@", [[1]] as [Any])
        #expect(nested.nestingHeight == 4, "\(nested)")
        // A tree exactly at a small limit parses; one level more does not.
        let options = ParserOptions(maximumNestingLevel: 4)
        #expect(throws: Never.self) { try PredicateNode(format: "a == 1 + 2 * 3", arguments: [], options: options) }
        let error = parseError("a == 1 + 2 * 3 ** 4", options: options)
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.message == "nesting is deeper than the limit of 4 levels")
    }

    // MARK: Linear work

    @Test func aMillionComponentKeyPathParses() throws {
        let count = 1_000_000
        var format = "a"
        format.reserveCapacity(2 * count + 8)
        for _ in 1..<count { format += ".b" }
        format += " == 1"
        let p = try parse(format)
        guard case .comparison(let c) = p.kind, case .keyPath(nil, let keys) = c.left.kind else {
            Issue.record("unexpected shape")
            return
        }
        #expect(keys.count == count)
        #expect(p.nestingHeight == 2)
        // After a base, too: `$v.b.b...` and `SELF.b.b...`.
        let fromVariable = try ExpressionNode(format: "$v" + String(repeating: ".b", count: 100_000))
        guard case .keyPath(let base?, let more) = fromVariable.kind else {
            Issue.record("unexpected shape")
            return
        }
        #expect(base == .variable("v") && more.count == 100_000)
    }

    @Test func longChainsListsAndAssignmentsParse() throws {
        let terms = 100_000
        let list = try parse("a IN {" + (0..<terms).map(String.init).joined(separator: ", ") + "}")
        #expect(list.nestingHeight == 3)
        let ands = try parse((0..<terms).map { "a == \($0)" }.joined(separator: " AND "))
        guard case .and(let parts) = ands.kind else {
            Issue.record("expected AND")
            return
        }
        #expect(parts.count == terms)
        let arguments = try parse("FUNCTION(SELF, 'f:', " + (0..<terms).map(String.init).joined(separator: ", ") + ") == 1")
        #expect(arguments.nestingHeight == 3)
        let update = try UpdateStatement(parsing: "Note SET " + (0..<20_000).map { "k\($0) = \($0)" }.joined(separator: ", "))
        #expect(update.assignments.count == 20_000)
    }
}

/// Builds trees of an exact height: a spine of random constructs, each one level above the
/// last, with leaves beside it. Every tree is one the parser could have made (no CAST of a
/// constant, no key path on a key path, BETWEEN with two bounds).
struct SpineBuilder {
    var generator: ASTGenerator

    init(seed: UInt64) { generator = ASTGenerator(seed: seed) }

    private mutating func leaf() -> ExpressionNode {
        generator.expression(depth: 0)
    }

    private mutating func leafPredicate() -> PredicateNode {
        generator.chance(50) ? PredicateNode(.constant(generator.chance(50)))
            : PredicateNode(.comparison(Comparison(leaf(), .equalTo, leaf())))
    }

    /// A predicate exactly `height` high (at least 2).
    mutating func predicate(height: Int) -> PredicateNode {
        if height <= 2 { return PredicateNode(.comparison(Comparison(.keyPath("k"), .lessThan, leaf()))) }
        switch generator.int(0...4) {
        case 0: return PredicateNode(.not(predicate(height: height - 1)))
        case 1:
            var operands = [predicate(height: height - 1), leafPredicate()]
            if generator.chance(50) { operands.reverse() }
            return PredicateNode(generator.chance(50) ? .and(operands) : .or(operands))
        default:
            let e = expression(height: height - 1)
            let op = generator.pick(ComparisonOperator.allCases.filter { $0 != .between })
            let modifier = generator.pick(ComparisonModifier.allCases)
            return generator.chance(50)
                ? PredicateNode(.comparison(Comparison(e, op, leaf(), modifier: modifier)))
                : PredicateNode(.comparison(Comparison(leaf(), op, e, modifier: modifier)))
        }
    }

    /// An expression exactly `height` high (at least 1).
    mutating func expression(height: Int) -> ExpressionNode {
        if height <= 1 { return leaf() }
        if height == 2, generator.chance(30) {
            return ExpressionNode(.unary(.negate, ExpressionNode(.constant(.int(Int64(generator.int(-9...9)))))))
        }
        let h = height - 1
        switch generator.int(0...12) {
        case 0: return ExpressionNode(.unary(generator.pick(UnaryOperator.allCases), expression(height: h)))
        case 1:
            let op = generator.pick(BinaryOperator.allCases)
            return generator.chance(50) ? .binary(op, expression(height: h), leaf()) : .binary(op, leaf(), expression(height: h))
        case 2: return ExpressionNode(.assignment(variable: generator.name(), value: expression(height: h)))
        case 3:
            var value = expression(height: h)
            if case .constant = value.kind { value = .keyPath("x") }
            return ExpressionNode(.cast(value: value, type: generator.pick(CastType.all)))
        case 4: return ExpressionNode(.function(name: "abs:", arguments: [expression(height: h)]))
        case 5: return ExpressionNode(.function(name: "add:to:", arguments: generator.chance(50) ? [expression(height: h), leaf()] : [leaf(), expression(height: h)]))
        case 6: return ExpressionNode(.functionExpression(receiver: expression(height: h), selector: "f:", arguments: [leaf()]))
        case 7:
            return generator.chance(50)
                ? ExpressionNode(.index(base: expression(height: h), subscript: generator.pick([.first, .last, .size])))
                : ExpressionNode(.index(base: leaf(), subscript: .expression(expression(height: h))))
        case 8: return ExpressionNode(.aggregate([leaf(), expression(height: h)]))
        case 9:
            // Keys after a key path would join it: put a subscript between.
            var base = expression(height: h)
            if case .keyPath = base.kind {
                base = h < 2 ? .evaluatedObject : ExpressionNode(.index(base: expression(height: h - 1), subscript: .first))
            }
            return ExpressionNode(.keyPath(base: base, keys: ["k"]))
        case 10:
            if h < 2 { return ExpressionNode(.aggregate([expression(height: h)])) }
            return ExpressionNode(.subquery(collection: leaf(), variable: generator.name(), predicate: predicate(height: h)))
        case 11:
            if h < 2 { return ExpressionNode(.aggregate([expression(height: h)])) }
            return ExpressionNode(.ternary(condition: predicate(height: h), then: leaf(), else: leaf()))
        default:
            let condition = h < 2 ? PredicateNode(.constant(generator.chance(50))) : leafPredicate()
            return ExpressionNode(.ternary(condition: condition, then: expression(height: h), else: leaf()))
        }
    }
}
