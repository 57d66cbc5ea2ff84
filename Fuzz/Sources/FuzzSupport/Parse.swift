import Foundation
import Sift

/// fuzz-parse: any bytes as a format string. The parser returns a predicate — every node's
/// source range inside the input, its canonical form printable — or a ``ParseError`` whose
/// offset lies within the input. A `%@` with no argument is given one (strings, numbers,
/// nil, arrays, dates, ...: the argument conversions), up to eight; `$variables` are then
/// substituted.
public enum ParseHarness {
    nonisolated(unsafe) static let argumentPool: [Any?] = [
        "name", 1, 2.5, true, nil, ["a", 2, nil] as [Any?], Date(timeIntervalSinceReferenceDate: 1e9),
        UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, Decimal(string: "12.5")!, Int64.min,
    ]

    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: data, as: UTF8.self)
        let length = text.utf8.count
        _ = InputCompleteness.isUnfinished(text)
        var arguments: [Any?] = []
        while true {
            do {
                let predicate = try PredicateNode(format: text, arguments: arguments)
                ASTWalk.checkRanges(predicate, length: length, input: text)
                _ = predicate.description
                let names = predicate.variableNames
                if !names.isEmpty {
                    var values: [String: Any?] = [:]
                    for (index, name) in names.enumerated() { values[name] = argumentPool[index % argumentPool.count] }
                    if let substituted = try? predicate.substituting(variables: values) { _ = substituted.description }
                }
                return
            } catch {
                fuzzCheck(error.offset >= 0 && error.offset <= length,
                          "error offset \(error.offset) outside the input (\(length) bytes) for \(quoted(text)): \(error)")
                _ = error.rendered()
                guard error.code == .missingArgument, arguments.count < 8 else { return }
                arguments.append(argumentPool[arguments.count % argumentPool.count])
            }
        }
    }
}

/// Walks every node of a tree without recursion.
public enum ASTWalk {
    public enum Node {
        case predicate(PredicateNode)
        case expression(ExpressionNode)

        var range: SourceRange? {
            switch self {
            case .predicate(let p): p.range
            case .expression(let e): e.range
            }
        }
    }

    public static func forEach(_ root: Node, _ body: (Node) -> Void) {
        var stack = [root]
        while let node = stack.popLast() {
            body(node)
            switch node {
            case .predicate(let p):
                switch p.kind {
                case .constant: break
                case .comparison(let c): stack += [.expression(c.left), .expression(c.right)]
                case .and(let operands), .or(let operands): stack += operands.map(Node.predicate)
                case .not(let operand): stack.append(.predicate(operand))
                }
            case .expression(let e):
                switch e.kind {
                case .constant, .evaluatedObject, .variable: break
                case .keyPath(let base, _): if let base { stack.append(.expression(base)) }
                case .aggregate(let elements), .function(_, let elements): stack += elements.map(Node.expression)
                case .dictionary(let entries): stack += entries.map { Node.expression($0.value) }
                case .index(let base, let position):
                    stack.append(.expression(base))
                    if case .expression(let index) = position { stack.append(.expression(index)) }
                case .functionExpression(let receiver, _, let arguments):
                    stack.append(.expression(receiver))
                    stack += arguments.map(Node.expression)
                case .subquery(let collection, _, let predicate): stack += [.expression(collection), .predicate(predicate)]
                case .ternary(let condition, let then, let otherwise): stack += [.predicate(condition), .expression(then), .expression(otherwise)]
                case .cast(let value, _), .assignment(_, let value), .unary(_, let value): stack.append(.expression(value))
                case .binary(_, let left, let right): stack += [.expression(left), .expression(right)]
                }
            }
        }
    }

    /// Every node's range lies within the input.
    public static func checkRanges(_ predicate: PredicateNode, length: Int, input: String) {
        forEach(.predicate(predicate)) { node in
            guard let range = node.range else { return }
            fuzzCheck(range.start >= 0 && range.start <= range.end && range.end <= length,
                      "a node's range \(range) is outside the input (\(length) bytes): \(quoted(input))")
        }
    }
}

/// Whether a tree calls a function whose value changes from one call to the next (`now()`,
/// `random()`, `random:(n)`): two engines, or two readings, may then rightly differ.
public enum Determinism {
    static let changing: Set<String> = ["now", "random", "random:"]

    public static func isDeterministic(_ roots: [ASTWalk.Node]) -> Bool {
        var deterministic = true
        for root in roots {
            ASTWalk.forEach(root) { node in
                guard case .expression(let e) = node else { return }
                switch e.kind {
                case .function(let name, _) where changing.contains(name): deterministic = false
                case .functionExpression(_, let selector, _) where changing.contains(selector): deterministic = false
                default: break
                }
            }
        }
        return deterministic
    }

    /// The trees of a statement: its predicates and expressions.
    public static func isDeterministic(_ statement: FuzzStatement) -> Bool {
        switch statement {
        case .fetch(let s):
            isDeterministic([s.predicate, s.having].compactMap { $0.map(ASTWalk.Node.predicate) }
                + (s.properties.map(\.expression) + s.groupBy).map(ASTWalk.Node.expression))
        case .update(let s):
            isDeterministic([s.predicate].compactMap { $0.map(ASTWalk.Node.predicate) } + s.assignments.map { .expression($0.value) })
        case .delete(let s):
            isDeterministic([s.predicate].compactMap { $0.map(ASTWalk.Node.predicate) })
        }
    }
}
