import Foundation
import Testing
@testable import SiftLanguage

// Short builders for expected ASTs.
func key(_ path: String) -> ExpressionNode { .keyPath(path) }
func int(_ value: Int64) -> ExpressionNode { ExpressionNode(.constant(.int(value))) }
func dbl(_ value: Double) -> ExpressionNode { ExpressionNode(.constant(.double(value))) }
func str(_ value: String) -> ExpressionNode { ExpressionNode(.constant(.string(value))) }
func bool(_ value: Bool) -> ExpressionNode { ExpressionNode(.constant(.bool(value))) }
let null = ExpressionNode(.constant(.null))
func variable(_ name: String) -> ExpressionNode { .variable(name) }
func agg(_ elements: ExpressionNode...) -> ExpressionNode { .aggregate(elements) }
func fn(_ name: String, _ args: ExpressionNode...) -> ExpressionNode { ExpressionNode(.function(name: name, arguments: args)) }
func bin(_ op: BinaryOperator, _ l: ExpressionNode, _ r: ExpressionNode) -> ExpressionNode { .binary(op, l, r) }
func cmp(
    _ l: ExpressionNode, _ op: ComparisonOperator, _ r: ExpressionNode,
    _ modifier: ComparisonModifier = .direct, _ options: ComparisonOptions = []
) -> PredicateNode {
    .comparison(l, op, r, modifier: modifier, options: options)
}

/// Parses or records the error as a test failure.
func parse(_ format: String, _ arguments: Any?..., sourceLocation: SourceLocation = #_sourceLocation) throws -> PredicateNode {
    do {
        return try PredicateNode(format: format, arguments: arguments)
    } catch {
        Issue.record("\(format): \(error.rendered())", sourceLocation: sourceLocation)
        throw error
    }
}

/// The error parsing `format` throws, or nil (recorded as a failure) if it parses.
func parseError(_ format: String, _ arguments: [Any?] = [], options: ParserOptions = ParserOptions(), sourceLocation: SourceLocation = #_sourceLocation) -> ParseError? {
    do {
        let p = try PredicateNode(format: format, arguments: arguments, options: options)
        Issue.record("expected an error for \(format), parsed \(p)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// A deterministic random number generator: SplitMix64 (Steele, Lea, Flood 2014).
struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
