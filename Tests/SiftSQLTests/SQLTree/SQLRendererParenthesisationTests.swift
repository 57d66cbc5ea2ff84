@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import Testing

/// The proof that minimal parentheses keep a tree's meaning: random trees of SQLite's
/// operators over small numbers, rendered by ``SQLRenderer`` and fully parenthesised, must give
/// SQLite the same value. A precedence wrong in the dialect's table (`||` below `+`, `<` level
/// with `=`, COLLATE below `-`) makes some tree parse differently, and this test fails.
@Suite struct SQLRendererParenthesisationTests {
    /// A reproducible generator (SplitMix64).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let binaries: [SQLBinaryOperator] = [
        .concatenate, .multiply, .divide, .remainder, .add, .subtract, .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift,
        .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .equal, .notEqual, .is, .isNot,
    ]

    static func tree(_ g: inout Generator, depth: Int) -> SQLExpression {
        if depth == 0 || g.below(5) == 0 {
            switch g.below(6) {
            case 0: return .null
            case 1: return .integer(Int64(g.below(7)) - 3)
            default: return .integer(Int64(g.below(4)))
            }
        }
        func sub(_ g: inout Generator) -> SQLExpression { tree(&g, depth: depth - 1) }
        switch g.below(12) {
        case 0: return .unary([.negate, .plus, .bitwiseNot][g.below(3)], sub(&g))
        case 1: return .and([sub(&g), sub(&g)])
        case 2: return .or([sub(&g), sub(&g)])
        case 3: return .not(sub(&g))
        case 4: return .isNull(sub(&g), negated: g.below(2) == 0)
        case 5: return .between(sub(&g), sub(&g), sub(&g))
        case 6: return .in(sub(&g), [sub(&g), sub(&g)])
        case 7: return .collate(sub(&g), "BINARY")
        default: return .binary(binaries[g.below(binaries.count)], sub(&g), sub(&g))
        }
    }

    /// Every operand of every operator in parentheses.
    static func fullyParenthesised(_ e: SQLExpression) -> String {
        let d = SQLiteDialect()
        func p(_ e: SQLExpression) -> String { "(" + fullyParenthesised(e) + ")" }
        switch e {
        case .null: return "NULL"
        case .integer(let v): return "(\(v))"
        case .unary(let op, let x): return (op == .negate ? "-" : op == .plus ? "+" : "~") + p(x)
        case .binary(let op, let x, let y): return p(x) + " " + d.spelling(of: op) + " " + p(y)
        case .and(let parts): return parts.map(p).joined(separator: " AND ")
        case .or(let parts): return parts.map(p).joined(separator: " OR ")
        case .not(let x): return "NOT " + p(x)
        case .isNull(let x, let negated): return p(x) + (negated ? " IS NOT NULL" : " IS NULL")
        case .between(let x, let low, let high): return p(x) + " BETWEEN " + p(low) + " AND " + p(high)
        case .in(let x, let list): return p(x) + " IN (" + list.map(p).joined(separator: ", ") + ")"
        case .collate(let x, let name): return p(x) + " COLLATE " + name
        default: return "?"
        }
    }

    @Test func minimalParenthesesKeepTheMeaning() throws {
        let database = try SQLiteDatabase.inMemory()
        var g = Generator(state: 17)
        var withoutParentheses = 0
        for _ in 0..<3000 {
            let tree = Self.tree(&g, depth: 4)
            let minimal = SQLRenderer(SQLiteDialect()).render(tree)
            let full = Self.fullyParenthesised(tree)
            let expected = try database.scalar("SELECT " + full)
            let actual = try database.scalar("SELECT " + minimal)
            #expect(actual == expected, "\(minimal)  vs  \(full)")
            if !minimal.contains("(") { withoutParentheses += 1 }
        }
        // The trees are not all trivially parenthesised: many render with no parentheses at all.
        #expect(withoutParentheses > 300)
    }
}
