import CSiftSupport
import Foundation

/// How the parser behaves.
public struct ParserOptions: Sendable, Hashable {
    /// The deepest nesting accepted. It bounds two things: the height of the parsed tree (a
    /// leaf — a constant, a key path, a variable — is one level; each operator, comparison,
    /// compound, function call, subscript, aggregate, CAST, SUBQUERY or TERNARY adds one above
    /// its deepest operand), and how deeply parentheses nest. Parentheses themselves add no
    /// level to the tree, so the canonical form of a predicate (whose parentheses never nest
    /// deeper than its tree) always parses back under the same limit. Deeper input is a
    /// ``ParseError`` with code `.nestingTooDeep`, never a stack overflow. At least 1; the
    /// default is 256.
    public var maximumNestingLevel: Int

    public static let defaultMaximumNestingLevel = 256

    /// The longest format string or statement accepted, in UTF-8 bytes; a longer one is a
    /// ``ParseError`` with code `.tooLong` before any of it is read (values that long belong in
    /// arguments: `%@`). The default is 16 MiB.
    public var maximumLength = ParserOptions.defaultMaximumLength

    public static let defaultMaximumLength = 16 << 20

    public init(maximumNestingLevel: Int = ParserOptions.defaultMaximumNestingLevel) {
        self.maximumNestingLevel = max(1, maximumNestingLevel)
    }
}

extension PredicateNode {
    /// Parses a format string, binding `%@`, `%K` and printf-style specifiers to `arguments` in order.
    ///
    ///     let p = try PredicateNode(format: "title BEGINSWITH[cd] %@ AND year > %d", "star", 1970)
    ///     print(p)   // title BEGINSWITH[cd] "star" AND year > 1970
    public init(format: String, _ arguments: Any?...) throws(ParseError) {
        try self.init(format: format, arguments: arguments)
    }

    /// Parses a format string with an argument array and parser options.
    public init(format: String, arguments: [Any?], options: ParserOptions = ParserOptions()) throws(ParseError) {
        self = try Parser.parse(format, arguments: arguments, options: options) { (parser) throws(ParseError) in
            try parser.parsePredicateSentence()
        }
    }
}

extension ExpressionNode {
    /// Parses an expression alone (a sort key, a property to fetch): `items.@sum.price * 2`.
    public init(format: String, arguments: [Any?] = [], options: ParserOptions = ParserOptions()) throws(ParseError) {
        self = try Parser.parse(format, arguments: arguments, options: options) { (parser) throws(ParseError) in
            try parser.parseExpressionSentence()
        }
    }
}

/// A Pratt parser over the lexer's tokens, driven by the one ``Precedence`` table.
///
/// Predicates and expressions are parsed by the same loop (a parenthesis may hold either);
/// each operator checks that its operands are the right sort. Every recursion goes through
/// ``enter(parenthesized:)``, which bounds it, every node made checks the tree's height
/// (``checkedHeight(_:at:)``, from the height each parsing function returns with its node,
/// ``Parsed``), and every loop consumes a token per turn (``LoopProgress``), so the work is
/// linear in the input.
struct Parser {
    private(set) var lexer: Lexer
    var current: Token
    var previousEnd = 0
    let arguments: [Any?]
    var argumentIndex = 0
    private let options: ParserOptions
    /// Calls of ``parseTree(_:parenthesized:)`` under way, not counting those for parentheses.
    private var depth = 0
    /// Parentheses open around the current token.
    private var parenthesisDepth = 0

    /// A node just parsed and the height of its tree (a leaf is 1), which the node its caller
    /// builds on it adds one to.
    struct Parsed<Value> {
        var node: Value
        var height: Int

        init(_ node: Value, height: Int) {
            self.node = node
            self.height = height
        }

        func map<T>(_ transform: (Value) -> T) -> Parsed<T> { Parsed<T>(transform(node), height: height) }
    }

    /// A parsed piece: an expression or a predicate.
    enum Node {
        case expression(ExpressionNode)
        case predicate(PredicateNode)

        var range: SourceRange? {
            switch self {
            case .expression(let e): e.range
            case .predicate(let p): p.range
            }
        }
    }

    static func parse<T>(
        _ source: String, arguments: [Any?], options: ParserOptions,
        _ body: (inout Parser) throws(ParseError) -> T
    ) throws(ParseError) -> T {
        var source = source
        // Native strings are contiguous UTF-8; bridged ones are made so once.
        source.makeContiguousUTF8()
        guard source.utf8.count <= options.maximumLength else { throw tooLong(source, limit: options.maximumLength) }
        let result: Result<T, ParseError> = source.utf8.withContiguousStorageIfAvailable { bytes in
            do throws(ParseError) {
                var parser = try Parser(lexer: Lexer(bytes: bytes, source: source), arguments: arguments, options: options)
                return .success(try body(&parser))
            } catch {
                return .failure(error)
            }
        } ?? .failure(ParseError(.unexpectedCharacter, "the format string could not be read as UTF-8", source: source, offset: 0, length: 0))
        return try result.get()
    }

    /// The error for a text longer than `limit` bytes (placed at its start: counting its
    /// characters to the limit would read what is refused).
    private static func tooLong(_ source: String, limit: Int) -> ParseError {
        func size(_ bytes: Int) -> String {
            bytes >= 1 << 20 ? "\(bytes >> 20) MB" : bytes >= 1 << 10 ? "\(bytes >> 10) KB" : "\(bytes) bytes"
        }
        return ParseError(.tooLong, "the text is \(size(source.utf8.count)) long, more than the \(size(limit)) the parser reads; "
                          + "pass long values as arguments (%@) instead of writing them in it", source: source, offset: 0, length: 0)
    }

    private init(lexer: Lexer, arguments: [Any?], options: ParserOptions) throws(ParseError) {
        self.lexer = lexer
        self.arguments = arguments
        self.options = options
        self.current = try self.lexer.next()
    }

    // MARK: - Sentences

    mutating func parsePredicateSentence() throws(ParseError) -> PredicateNode {
        let node = try parse(.or)
        try expectEnd(after: node)
        let predicate = try requirePredicate(node)
        try checkArgumentsUsed()
        return predicate
    }

    mutating func parseExpressionSentence() throws(ParseError) -> ExpressionNode {
        let node = try parse(.or)
        try expectEnd(after: node)
        let expression = try requireExpression(node)
        try checkArgumentsUsed()
        return expression
    }

    func checkArgumentsUsed() throws(ParseError) {
        guard argumentIndex < arguments.count else { return }
        let unused = arguments.count - argumentIndex
        throw ParseError(
            .unusedArguments,
            "\(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given but the format string uses \(argumentIndex) (\(unused) left over)",
            source: lexer.source, offset: lexer.bytes.count, length: 0)
    }

    // MARK: - Tokens

    mutating func advance() throws(ParseError) {
        previousEnd = current.end
        current = try lexer.next()
    }

    func peek() throws(ParseError) -> Token {
        var copy = lexer
        return try copy.next()
    }

    func text(_ token: Token) -> String {
        String(decoding: lexer.bytes[token.start..<token.end], as: UTF8.self)
    }

    func describe(_ token: Token) -> String {
        token.kind == .end ? "the end of the format string" : "'\(text(token))'"
    }

    func error(
        _ code: ParseError.Code, _ message: String, at token: Token, expected: [String] = [], suggestion: String? = nil
    ) -> ParseError {
        ParseError(code, message, source: lexer.source, offset: token.start, length: token.end - token.start,
                   expected: expected, suggestion: suggestion)
    }

    func error(_ code: ParseError.Code, _ message: String, at range: SourceRange?, suggestion: String? = nil) -> ParseError {
        let range = range ?? SourceRange(start: current.start, end: current.end)
        return ParseError(code, message, source: lexer.source, offset: range.start, length: range.end - range.start, suggestion: suggestion)
    }

    mutating func expect(_ kind: Token.Kind, _ spelling: String, context: String) throws(ParseError) {
        guard current.kind == kind else {
            let code: ParseError.Code = current.kind == .end ? .unexpectedEnd : .unexpectedToken
            throw error(code, "expected '\(spelling)' \(context), found \(describe(current))", at: current, expected: [spelling])
        }
        try advance()
    }

    func range(from start: Int) -> SourceRange { SourceRange(start: start, end: previousEnd) }

    // MARK: - Nesting
    //
    // Two measures keep nesting bounded, both at `options.maximumNestingLevel`: the height of
    // the tree being built (checked by ``checkedHeight(_:at:)`` as each node is made) and the nesting
    // of parentheses (checked in ``parseParenthesized()``). The recursion itself is bounded
    // too, before any node is built: every call of `parseTree` other than a parenthesis's parses
    // an operand one level below the node it will join, so more than one call per level (plus
    // one, for a folded CAST's value) cannot lead to a tree within the limit. And each call
    // checks that the thread has the stack for it.

    /// Stack kept free below the parser: what one nesting level and an error need, with room
    /// to spare for the caller.
    static let stackReserve = 96 * 1024

    /// One call of `parse` deeper: checks the bound on the recursion, and that the thread has
    /// the stack for it (a thread with a small stack gets the same clean error, earlier).
    private mutating func enter(parenthesized: Bool) throws(ParseError) {
        if !parenthesized {
            depth += 1
            if depth > options.maximumNestingLevel + 1 { throw nestingError(at: current) }
        }
        if sift_stack_remaining() < Parser.stackReserve {
            throw error(.nestingTooDeep, "nesting is too deep for this thread's stack (\(depth + parenthesisDepth) levels)", at: current)
        }
    }

    private mutating func leave(parenthesized: Bool) {
        if !parenthesized { depth -= 1 }
    }

    private func nestingError(at token: Token) -> ParseError {
        error(.nestingTooDeep, "nesting is deeper than the limit of \(options.maximumNestingLevel) levels", at: token)
    }

    /// The height of a node just made (one more than its highest operand's, passed in); a
    /// node higher than the limit is an error at `token`, where the node's last part was read.
    private func checkedHeight(_ nodeHeight: Int, at token: Token) throws(ParseError) -> Int {
        if nodeHeight > options.maximumNestingLevel { throw nestingError(at: token) }
        return nodeHeight
    }

    // MARK: - Sorts

    func requirePredicate(_ node: Node) throws(ParseError) -> PredicateNode {
        switch node {
        case .predicate(let p): return p
        case .expression(let e):
            var message = "expected a predicate, found the expression '\(CanonicalPrinter.format(e))'; a bare expression is not a predicate (compare it with ==, <, BEGINSWITH, ...)"
            var suggestion: String?
            if case .keyPath(nil, let keys) = e.kind, keys.count == 1 {
                suggestion = Suggestions.closest(to: keys[0], in: Keyword.spellings(.truePredicate, .falsePredicate))
                if suggestion != nil { message = "'\(keys[0])' is not a predicate" }
            }
            throw error(.notAPredicate, message, at: e.range, suggestion: suggestion)
        }
    }

    func requireExpression(_ node: Node) throws(ParseError) -> ExpressionNode {
        switch node {
        case .expression(let e): return e
        case .predicate(let p):
            throw error(.notAnExpression, "expected an expression, found the predicate '\(CanonicalPrinter.format(p))'", at: p.range)
        }
    }

    private static let comparisonSpellings = ComparisonOperator.common.map(\.symbol)

    /// The error for a token that cannot follow `node` (a misspelt operator or keyword, a stray token).
    func unexpected(after node: Node, closer: String?) throws(ParseError) -> Never {
        let found = describe(current)
        var expected: [String]
        var suggestion: String?
        let word = text(current)
        switch node {
        case .expression:
            expected = ["a comparison operator", "an arithmetic operator"]
            if case .identifier = current.kind {
                suggestion = Suggestions.closest(to: word, in: Parser.comparisonSpellings)
            }
            if current.kind == .keyword(.not), let next = try? peek(), case .keyword(let k) = next.kind, k.comparisonOperator != nil {
                throw error(.unexpectedToken, "'NOT \(k.spelling)' is not an operator; negate the whole comparison: NOT (a \(k.spelling) b)", at: current)
            }
        case .predicate:
            expected = Keyword.spellings(.and, .or)
            if case .identifier = current.kind { suggestion = Suggestions.closest(to: word, in: expected) }
            if current.kind.isComparisonToken {
                throw error(.chainedComparison, "comparisons do not chain: \(found) cannot follow a comparison (combine comparisons with AND)", at: current)
            }
        }
        if let closer { expected.append("'\(closer)'") } else { expected.append("the end") }
        let what: String
        switch (node, closer) {
        case (.expression, nil): what = "a comparison operator"
        case (.predicate, nil): what = "AND, OR or the end of the format string"
        case (.expression, let c?): what = "an operator or '\(c)'"
        case (.predicate, let c?): what = "AND, OR or '\(c)'"
        }
        throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken, "expected \(what), found \(found)",
                    at: current, expected: expected, suggestion: suggestion)
    }

    private func expectEnd(after node: Node) throws(ParseError) {
        guard current.kind == .end else { try unexpected(after: node, closer: nil) }
    }

    // MARK: - The Pratt loop
    //
    // The functions on the recursive path (parse, parsePrefix, parsePrimary and the forms that
    // recurse) are kept small and hand their bulky cases to @inline(never) helpers: a debug
    // build gives every local of a function a stack slot, so one fat switch would multiply
    // the stack used per nesting level.

    /// Parses everything that binds at least as tightly as `minimum`.
    mutating func parse(_ minimum: Precedence) throws(ParseError) -> Node {
        try parseTree(minimum).node
    }

    /// ``parse(_:)``, with the height of the tree parsed. `parenthesized` is set for the inside
    /// of parentheses, which count toward their own limit.
    private mutating func parseTree(_ minimum: Precedence, parenthesized: Bool = false) throws(ParseError) -> Parsed<Node> {
        try enter(parenthesized: parenthesized)
        defer { leave(parenthesized: parenthesized) }
        var lhs = try parsePrefix()
        var progress = LoopProgress()
        while progress.moved(to: current.start) {
            switch current.kind {
            case .keyword(.or), .pipePipe:
                guard Precedence.or >= minimum else { return lhs }
                lhs = try parseCompound(lhs, isOr: true)
            case .keyword(.and), .ampAmp:
                guard Precedence.and >= minimum else { return lhs }
                lhs = try parseCompound(lhs, isOr: false)
            case let kind where kind.isComparisonToken:
                guard Precedence.comparison >= minimum else { return lhs }
                lhs = try parseComparison(after: lhs)
            default:
                guard let op = current.kind.binaryOperator, Precedence.of(op) >= minimum else {
                    // A SQL operator (`IS NULL`, `ILIKE`) where a comparison could follow.
                    if current.kind == .identifier || current.kind == .tilde, Precedence.comparison >= minimum,
                       case .expression(let left) = lhs.node, let habit = try sqlOperatorError(after: left) {
                        throw habit
                    }
                    return lhs
                }
                lhs = try parseBinary(lhs, op)
            }
        }
        return lhs
    }

    /// `lhs AND p AND q ...` or `lhs OR p OR q ...`, flat.
    @inline(never)
    private mutating func parseCompound(_ lhs: Parsed<Node>, isOr: Bool) throws(ParseError) -> Parsed<Node> {
        let start = lhs.node.range?.start ?? current.start
        let level: Precedence = isOr ? .or : .and
        var operands = [try requirePredicate(lhs.node)]
        var highest = lhs.height
        var last = current
        var progress = LoopProgress()
        while progress.moved(to: current.start), isOr ? (current.kind == .keyword(.or) || current.kind == .pipePipe) : (current.kind == .keyword(.and) || current.kind == .ampAmp) {
            last = current
            try advance()
            let operand = try parseTree(level.tighter)
            operands.append(try requirePredicate(operand.node))
            highest = max(highest, operand.height)
        }
        let height = try checkedHeight(highest + 1, at: last)
        return Parsed(.predicate(PredicateNode(isOr ? .or(operands) : .and(operands), range: range(from: start))), height: height)
    }

    @inline(never)
    private mutating func parseComparison(after lhs: Parsed<Node>) throws(ParseError) -> Parsed<Node> {
        let start = lhs.node.range?.start ?? current.start
        let left = Parsed(try requireExpression(lhs.node), height: lhs.height)
        return try parseComparison(left: left, modifier: .direct, start: start).map(Node.predicate)
    }

    @inline(never)
    private mutating func parseBinary(_ lhs: Parsed<Node>, _ op: BinaryOperator) throws(ParseError) -> Parsed<Node> {
        let start = lhs.node.range?.start ?? current.start
        let left = try requireExpression(lhs.node)
        let operatorToken = current
        try advance()
        let level = Precedence.of(op)
        let rightNode = try parseTree(Precedence.isRightAssociative(op) ? level : level.tighter)
        guard case .expression(let right) = rightNode.node else {
            throw error(.notAnExpression, "the right side of '\(op.symbol)' must be an expression, not a predicate", at: rightNode.node.range)
        }
        let height = try checkedHeight(max(lhs.height, rightNode.height) + 1, at: operatorToken)
        return Parsed(.expression(ExpressionNode(.binary(op, left, right), range: range(from: start))), height: height)
    }

    private mutating func parsePrefix() throws(ParseError) -> Parsed<Node> {
        switch current.kind {
        case .keyword(.not), .bang:
            return try parseNot()
        case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
            return try parseQualified()
        case .keyword(.truePredicate), .keyword(.falsePredicate):
            return try parsePredicateConstant()
        case .minus, .tilde:
            return try parseUnary()
        case .leftParen:
            return try parseParenthesized()
        default:
            let start = current.start
            let primary = try parsePrimary()
            return try parsePostfix(primary, start: start).map(Node.expression)
        }
    }

    @inline(never)
    private mutating func parseNot() throws(ParseError) -> Parsed<Node> {
        let token = current
        if token.kind == .keyword(.not), try reservedWordStandsAsKey(takesOperand: true) { throw reservedWordAsKey(token) }
        try advance()
        let operand = try parseTree(.not)
        let height = try checkedHeight(operand.height + 1, at: token)
        return Parsed(.predicate(PredicateNode(.not(try requirePredicate(operand.node)), range: range(from: token.start))), height: height)
    }

    /// `TRUEPREDICATE`, `FALSEPREDICATE`.
    @inline(never)
    private mutating func parsePredicateConstant() throws(ParseError) -> Parsed<Node> {
        let token = current
        if try reservedWordStandsAsKey(takesOperand: false) { throw reservedWordAsKey(token) }
        try advance()
        return Parsed(.predicate(PredicateNode(.constant(token.kind == .keyword(.truePredicate)), range: token.range)), height: 1)
    }

    /// `ANY x op y`, `SOME`, `ALL`, `NONE`.
    @inline(never)
    private mutating func parseQualified() throws(ParseError) -> Parsed<Node> {
        let token = current
        if try reservedWordStandsAsKey(takesOperand: true) { throw reservedWordAsKey(token) }
        try advance()
        let modifier: ComparisonModifier = switch token.kind {
        case .keyword(.all): .all
        case .keyword(.none): .none
        default: .any
        }
        let leftTree = try parseTree(Precedence.comparison.tighter)
        let left = try requireExpression(leftTree.node)
        guard current.kind.isComparisonToken else {
            if let habit = try sqlOperatorError(after: left, qualifier: token) { throw habit }
            throw missingQualifiedOperator(token, left)
        }
        return try parseComparison(left: Parsed(left, height: leftTree.height), modifier: modifier, start: token.start).map(Node.predicate)
    }

    @inline(never)
    private func missingQualifiedOperator(_ qualifier: Token, _ left: ExpressionNode) -> ParseError {
        error(current.kind == .end ? .unexpectedEnd : .unexpectedToken,
              "expected a comparison operator after '\(text(qualifier).uppercased()) \(CanonicalPrinter.format(left))', found \(describe(current))",
              at: current, expected: ["a comparison operator"],
              suggestion: current.kind == .identifier ? Suggestions.closest(to: text(current), in: Parser.comparisonSpellings) : nil)
    }

    /// `-x`, `~x`; a minus sign directly before a number is folded into it (so
    /// `-9223372036854775808` is exact and `-7` is the constant -7).
    @inline(never)
    private mutating func parseUnary() throws(ParseError) -> Parsed<Node> {
        let token = current
        try advance()
        // Postfixes bind tighter than minus: `-1[FIRST]` is -(1[FIRST]), so no folding there.
        if token.kind == .minus, current.kind == .integer || current.kind == .double,
           !lexer.nextByteStartsPostfix {
            let number = current
            try advance()
            let value: ConstantValue = number.kind == .integer ? lexer.negativeIntegerValue(number) : .double(-lexer.doubleValue(number))
            return Parsed(.expression(ExpressionNode(.constant(value), range: range(from: token.start))), height: 1)
        }
        let operand = try parseTree(.unary)
        let height = try checkedHeight(operand.height + 1, at: token)
        let node = ExpressionNode(.unary(token.kind == .minus ? .negate : .bitwiseNot, try requireExpression(operand.node)), range: range(from: token.start))
        return Parsed(.expression(node), height: height)
    }

    /// `( predicate )` or `( expression )`, followed by postfixes if an expression. The
    /// parentheses add nothing to the tree's height; they count toward their own limit.
    @inline(never)
    private mutating func parseParenthesized() throws(ParseError) -> Parsed<Node> {
        let start = current.start
        if parenthesisDepth >= options.maximumNestingLevel {
            throw error(.nestingTooDeep, "parentheses are nested deeper than the limit of \(options.maximumNestingLevel) levels", at: current)
        }
        parenthesisDepth += 1
        try advance()
        let inner: Parsed<Node>
        do throws(ParseError) {
            inner = try parseTree(.or, parenthesized: true)
        } catch {
            parenthesisDepth -= 1
            throw error
        }
        parenthesisDepth -= 1
        guard current.kind == .rightParen else {
            if current.kind == .comma, case .expression(let first) = inner.node { throw parenthesizedListError(first: first, open: start) }
            try unexpected(after: inner.node, closer: ")")
        }
        try advance()
        switch inner.node {
        case .predicate(var p):
            p.range = range(from: start)
            return Parsed(.predicate(p), height: inner.height)
        case .expression(var e):
            e.range = range(from: start)
            return try parsePostfix(Parsed(e, height: inner.height), start: start).map(Node.expression)
        }
    }

    // MARK: - Comparisons

    @inline(never)
    private mutating func parseComparison(left leftTree: Parsed<ExpressionNode>, modifier: ComparisonModifier,
                                          start: Int) throws(ParseError) -> Parsed<PredicateNode> {
        let left = leftTree.node
        let operatorToken = current
        guard let op = current.kind.comparisonOperator else {
            throw error(.unexpectedToken, "expected a comparison operator, found \(describe(current))", at: current)
        }
        try advance()
        var options = ComparisonOptions()
        if current.kind == .leftBracket {
            options = try parseOptions()
        }
        let rightTree = try parseTree(Precedence.comparison.tighter)
        let right = try requireExpression(rightTree.node)
        let height = try checkedHeight(max(leftTree.height, rightTree.height) + 1, at: operatorToken)
        if op == .between, case .aggregate(let bounds) = right.kind, bounds.count != 2 {
            throw error(.unexpectedToken, "BETWEEN needs two bounds, {low, high}; found \(bounds.count)", at: right.range)
        }
        if op == .between, let habit = try betweenError(low: right) { throw habit }
        if current.kind.isComparisonToken {
            throw error(.chainedComparison, "comparisons do not chain: '\(text(current))' cannot follow '\(text(operatorToken))' (combine comparisons with AND)", at: current)
        }
        return Parsed(PredicateNode(.comparison(Comparison(left, op, right, modifier: modifier, options: options)), range: range(from: start)), height: height)
    }

    /// `[cdnl]` after a comparison operator.
    private mutating func parseOptions() throws(ParseError) -> ComparisonOptions {
        let open = current
        try advance()
        let word = current
        var options = ComparisonOptions()
        switch word.kind {
        case .identifier, .keyword:
            for (index, byte) in lexer.bytes[word.start..<word.end].enumerated() {
                let letters = String(Character(Unicode.Scalar(byte)))
                guard let option = ComparisonOptions(letters: letters) else {
                    let offset = word.start + index
                    throw ParseError(.unknownOption, "unknown option '\(letters)' (options are c: case-insensitive, d: diacritic-insensitive, n: normalized, l: locale)",
                                     source: lexer.source, offset: offset, length: 1, expected: ["c", "d", "n", "l"],
                                     suggestion: letters.uppercased() == "I" ? "c" : nil)
                }
                options.formUnion(option)
            }
            try advance()
        case .rightBracket:
            throw error(.unknownOption, "empty options '[]' (options are c, d, n, l)", at: open)
        default:
            throw error(.unknownOption, "expected option letters (c, d, n, l) after '[', found \(describe(word))", at: word, expected: ["c", "d", "n", "l"])
        }
        try expect(.rightBracket, "]", context: "after the options")
        return options
    }

    // MARK: - Postfix: key paths and subscripts

    /// Keys after dots and subscripts after `base` (whose height ``height`` is). The keys of a
    /// key path gather in one array, built into the node when the path ends: appending to the
    /// node's own array would copy it at every key, and make a long path quadratic.
    private mutating func parsePostfix(_ base: Parsed<ExpressionNode>, start: Int) throws(ParseError) -> Parsed<ExpressionNode> {
        var node = base.node
        var nodeHeight = base.height
        // A key path being read: its base (nil for the evaluated object) and keys so far.
        var inPath = false
        var pathBase: ExpressionNode?
        var pathKeys: [String] = []
        var progress = LoopProgress()
        while true {
            guard progress.moved(to: current.start) else { throw error(.unexpectedToken, "unexpected \(describe(current))", at: current) }
            switch current.kind {
            case .dot:
                let dot = current
                try advance()
                let keysAfterDot = try parseKeysAfterDot()
                if !inPath {
                    inPath = true
                    if case .keyPath(let keyBase, let keys) = node.kind {
                        // Keys after a key path join it: `$v.a` then `.b` is `$v.a.b`.
                        pathBase = keyBase
                        pathKeys = keys
                        node = .evaluatedObject  // (the keys array now has one owner)
                    } else {
                        pathBase = node
                        nodeHeight += 1
                        if nodeHeight > options.maximumNestingLevel { throw nestingError(at: dot) }
                    }
                }
                pathKeys.append(contentsOf: keysAfterDot)
            case .leftBracket:
                if inPath {
                    node = ExpressionNode(.keyPath(base: pathBase, keys: pathKeys), range: range(from: start))
                    inPath = false
                    pathBase = nil
                    pathKeys = []
                }
                let bracket = current
                try advance()
                let sub: IndexSubscript
                var subscriptHeight = 0
                switch current.kind {
                case .keyword(.first): sub = .first; try advance()
                case .keyword(.last): sub = .last; try advance()
                case .keyword(.size): sub = .size; try advance()
                default:
                    let index = try parseTree(.or)
                    sub = .expression(try requireExpression(index.node))
                    subscriptHeight = index.height
                }
                try expect(.rightBracket, "]", context: "to close the subscript")
                nodeHeight = max(nodeHeight, subscriptHeight) + 1
                if nodeHeight > options.maximumNestingLevel { throw nestingError(at: bracket) }
                node = ExpressionNode(.index(base: node, subscript: sub), range: range(from: start))
            default:
                if inPath { node = ExpressionNode(.keyPath(base: pathBase, keys: pathKeys), range: range(from: start)) }
                return Parsed(node, height: nodeHeight)
            }
        }
    }

    /// The keys after `.`: a name (reserved words are keys here too), `#name`, `@name`, or
    /// `%K`, whose argument may name several keys (`"author.name"`).
    private mutating func parseKeysAfterDot() throws(ParseError) -> [String] {
        let token = current
        switch token.kind {
        case .identifier, .keyword:
            try advance()
            return [try lexer.identifierText(token.start, token.end, escapes: token.hasEscapes)]
        case .escapedKey:
            try advance()
            return [try lexer.identifierText(token.start + 1, token.end, escapes: token.hasEscapes)]
        case .atKey:
            try advance()
            return [try lexer.identifierText(token.start, token.end, escapes: token.hasEscapes)]
        case .formatSpecifier where lexer.bytes[token.end - 1] == UInt8(ascii: "K"):
            try advance()
            return try keyPathArgument(for: token)
        case .formatSpecifier:
            throw error(.unexpectedToken, "expected a key after '.', found \(describe(token)) (a key is bound with %K)", at: token, expected: ["a key"])
        default:
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken, "expected a key after '.', found \(describe(token))", at: token, expected: ["a key"])
        }
    }

    // MARK: - Primaries

    private mutating func parsePrimary() throws(ParseError) -> Parsed<ExpressionNode> {
        switch current.kind {
        case .integer, .double, .string, .keyword(.nil), .keyword(.null), .keyword(.true), .keyword(.yes),
             .keyword(.false), .keyword(.no), .keyword(.self):
            return try parseLiteral()
        case .identifier:
            if lexer.nextByteStartsCall { return try parseFunctionCall() }
            return try parseKeyPathStart()
        case .escapedKey, .atKey:
            return try parseKeyPathStart()
        case .variable:
            return try parseVariable()
        case .formatSpecifier:
            // An array bound to %@ is an aggregate, as high as its nesting; the rest are leaves.
            let token = current
            let node = try bindArgument()
            return Parsed(node, height: try checkedHeight(node.nestingHeight, at: token))
        case .leftBrace:
            return try parseAggregate()
        case .keyword(.subquery):
            return try parseSubquery()
        case .keyword(.ternary):
            return try parseTernary()
        case .keyword(.cast):
            return try parseCast()
        case .keyword(.function):
            return try parseFunctionExpression()
        default:
            throw try primaryError()
        }
    }

    @inline(never)
    private mutating func parseLiteral() throws(ParseError) -> Parsed<ExpressionNode> {
        let token = current
        let value: ConstantValue
        switch token.kind {
        case .integer: value = lexer.integerValue(token)
        case .double: value = .double(lexer.doubleValue(token))
        case .string: value = .string(try lexer.stringValue(token))
        case .keyword(.true), .keyword(.yes): value = .bool(true)
        case .keyword(.false), .keyword(.no): value = .bool(false)
        case .keyword(.self):
            try advance()
            return Parsed(ExpressionNode(.evaluatedObject, range: token.range), height: 1)
        default: value = .null
        }
        try advance()
        return Parsed(ExpressionNode(.constant(value), range: token.range), height: 1)
    }

    /// The first key of a key path: `name`, `#name`, `@name`.
    @inline(never)
    private mutating func parseKeyPathStart() throws(ParseError) -> Parsed<ExpressionNode> {
        let token = current
        try advance()
        let skip = token.kind == .escapedKey ? 1 : 0
        let key = try lexer.identifierText(token.start + skip, token.end, escapes: token.hasEscapes)
        return Parsed(ExpressionNode(.keyPath(base: nil, keys: [key]), range: token.range), height: 1)
    }

    /// A key path whose first key is the reserved word that is the current token, where only
    /// a key path can stand (`SORT BY size`, `SECTION BY first.name`).
    mutating func parseKeyPathFromReservedWord() throws(ParseError) -> ExpressionNode {
        let token = current
        try advance()
        return try parsePostfix(Parsed(ExpressionNode(.keyPath(base: nil, keys: [text(token)]), range: token.range), height: 1), start: token.start).node
    }

    /// `$name` or `$name := value`.
    @inline(never)
    private mutating func parseVariable() throws(ParseError) -> Parsed<ExpressionNode> {
        let token = current
        let name = try lexer.identifierText(token.start + 1, token.end, escapes: token.hasEscapes)
        try advance()
        guard current.kind == .assign else {
            return Parsed(ExpressionNode(.variable(name), range: token.range), height: 1)
        }
        let assign = current
        try advance()
        let value = try parseTree(Precedence.assignment.tighter)
        let height = try checkedHeight(value.height + 1, at: assign)
        return Parsed(ExpressionNode(.assignment(variable: name, value: try requireExpression(value.node)), range: range(from: token.start)), height: height)
    }

    /// `{a, b, ...}`, or a dictionary: `{"key": value, ...}`, `{:}`.
    @inline(never)
    private mutating func parseAggregate() throws(ParseError) -> Parsed<ExpressionNode> {
        let open = current
        try advance()
        // `{:`, `{"key":`: a dictionary.
        if current.kind == .colon { return try parseDictionary(open: open) }
        if current.kind == .string, try peek().kind == .colon { return try parseDictionary(open: open) }
        let elements = try parseExpressionList(closer: .rightBrace, "}", context: "in the aggregate")
        let height = try checkedHeight(elements.height + 1, at: open)
        return Parsed(ExpressionNode(.aggregate(elements.node), range: range(from: open.start)), height: height)
    }

    /// The rest of a dictionary after its `{` (`open`): `"key": value, ...}`, or `:}` for the
    /// empty one. Keys are string literals, each at most once.
    private mutating func parseDictionary(open: Token) throws(ParseError) -> Parsed<ExpressionNode> {
        var entries: [DictionaryEntry] = []
        var highest = 0
        if current.kind == .colon {
            try advance()
            try expect(.rightBrace, "}", context: "after '{:' (the empty dictionary)")
        } else {
            var keys: Set<String> = []
            var progress = LoopProgress()
            while progress.moved(to: current.start) {
                let keyToken = current
                guard keyToken.kind == .string else {
                    throw error(keyToken.kind == .end ? .unexpectedEnd : .unexpectedToken,
                                "expected a string key in the dictionary, found \(describe(keyToken))", at: keyToken, expected: ["a string"])
                }
                let key = try lexer.stringValue(keyToken)
                guard keys.insert(key).inserted else {
                    throw error(.invalidKey, "the key \(CanonicalPrinter.formatString(key)) is in the dictionary twice", at: keyToken)
                }
                try advance()
                try expect(.colon, ":", context: "after the dictionary's key \(CanonicalPrinter.formatString(key))")
                let value = try parseTree(.or)
                entries.append(DictionaryEntry(key, try requireExpression(value.node)))
                highest = max(highest, value.height)
                guard current.kind == .comma else { break }
                try advance()
            }
            guard current.kind == .rightBrace else {
                throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken,
                            "expected ',' or '}' in the dictionary, found \(describe(current))", at: current, expected: [",", "}"])
            }
            try advance()
        }
        let height = try checkedHeight(highest + 1, at: open)
        return Parsed(ExpressionNode(.dictionary(entries), range: range(from: open.start)), height: height)
    }

    /// Comma-separated expressions up to `closer`, which it consumes (the opener already was),
    /// with the highest element's height (0 for none).
    private mutating func parseExpressionList(closer: Token.Kind, _ spelling: String, context: String) throws(ParseError) -> Parsed<[ExpressionNode]> {
        var elements: [ExpressionNode] = []
        var highest = 0
        if current.kind != closer {
            var progress = LoopProgress()
            while progress.moved(to: current.start) {
                let element = try parseTree(.or)
                elements.append(try requireExpression(element.node))
                highest = max(highest, element.height)
                guard current.kind == .comma else { break }
                try advance()
            }
        }
        guard current.kind == closer else {
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken,
                        "expected ',' or '\(spelling)' \(context), found \(describe(current))", at: current, expected: [",", spelling])
        }
        try advance()
        return Parsed(elements, height: highest)
    }

    /// The error for a token that cannot start an expression.
    @inline(never)
    private func primaryError() throws(ParseError) -> ParseError {
        let token = current
        switch token.kind {
        case .keyword(.fetch):
            let next = try peek().kind
            if next != .leftParen && next != .end { return reservedWordAsKey(token) }
            return error(.unsupported, "FETCH(...) expressions are not supported (use SUBQUERY over a relationship)", at: token)
        case .keyword(.anyKey):
            if try peek().kind == .dot { return reservedWordAsKey(token) }
            return error(.unsupported, "ANYKEY is not supported", at: token)
        case .keyword(let keyword):
            if keyword.comparisonOperator != nil || keyword == .and || keyword == .or || keyword == .not {
                if try reservedWordStandsAsKey(takesOperand: false) { return reservedWordAsKey(token) }
                return error(.unexpectedToken, "expected an expression, found the keyword '\(text(token))'", at: token, expected: ["an expression"])
            }
            // FIRST, LAST, SIZE, CASEINSENSITIVE, CI: no expression starts with them.
            return reservedWordAsKey(token)
        case .percentPercent:
            return error(.invalidFormatSpecifier, "'%%' is a literal percent sign; it can only appear inside a string", at: token)
        case .end:
            return error(.unexpectedEnd, "the format string ends where an expression was expected", at: token, expected: ["an expression"])
        default:
            return error(.unexpectedToken, "expected an expression, found \(describe(token))", at: token, expected: ["an expression"])
        }
    }

    /// `name(args)`, `name:(args)`, `add:to:(a, b)`.
    @inline(never)
    private mutating func parseFunctionCall() throws(ParseError) -> Parsed<ExpressionNode> {
        let nameToken = current
        var name = text(nameToken)
        try advance()
        var progress = LoopProgress()
        while progress.moved(to: current.start), current.kind == .colon {
            name += ":"
            try advance()
            if current.kind == .identifier {
                name += text(current)
                try advance()
            }
        }
        guard current.kind == .leftParen else {
            throw error(.unexpectedToken, "expected '(' after the function name '\(name)', found \(describe(current))", at: current, expected: ["("])
        }
        let nameRange = SourceRange(start: nameToken.start, end: previousEnd)
        let candidates = FunctionCatalog.candidates(named: name)
        if candidates.isEmpty {
            if let (message, suggestion) = SQLHabits.unknownFunction(name, arguments: argumentTexts()) {
                throw error(.unknownFunction, message, at: nameRange, suggestion: suggestion)
            }
            let written = FunctionCatalog.key(name)
            let suggestion = Suggestions.closest(to: written, in: FunctionCatalog.displayNames)
            throw error(.unknownFunction, "unknown function '\(name)' (functions are written name:(arguments): lowercase:(x), sum:(x), add:to:(a, b); LANGUAGE.md §6 lists them)",
                        at: nameRange, suggestion: suggestion)
        }
        try advance()
        if current.kind == .star, try peek().kind == .rightParen {
            // count(*), SQL's count of rows.
            let star = current
            throw ParseError(.unexpectedToken, FunctionCatalog.key(name) == "count" ? SQLHabits.countStar : "'*' is not an argument; name a key",
                             source: lexer.source, offset: nameToken.start, length: star.end + 1 - nameToken.start, expected: ["an expression"])
        }
        let argumentList = try parseExpressionList(closer: .rightParen, ")", context: "after the function's arguments")
        let arguments = argumentList.node
        guard let function = FunctionCatalog.lookup(name, arity: arguments.count) else {
            if ["min", "max"].contains(FunctionCatalog.key(name)), arguments.count >= 2, let selector = candidates.first?.selector {
                let (message, suggestion) = SQLHabits.scalarMinMax(selector, arguments: arguments.map(writtenText))
                throw error(.wrongArgumentCount, message, at: nameRange, suggestion: suggestion)
            }
            let arities = candidates.map { "\($0.selector) takes \($0.arity) argument\($0.arity == 1 ? "" : "s")" }.joined(separator: "; ")
            throw error(.wrongArgumentCount, "\(arities), but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given", at: nameRange)
        }
        let height = try checkedHeight(argumentList.height + 1, at: nameToken)
        return Parsed(ExpressionNode(.function(name: function.selector, arguments: arguments), range: range(from: nameToken.start)), height: height)
    }

    @inline(never)
    private mutating func parseSubquery() throws(ParseError) -> Parsed<ExpressionNode> {
        try checkParenthesisFollows()
        let start = current.start
        try advance()
        try expect(.leftParen, "(", context: "after SUBQUERY")
        let collectionTree = try parseTree(.or)
        let collection = try requireExpression(collectionTree.node)
        try expect(.comma, ",", context: "after SUBQUERY's collection")
        guard current.kind == .variable else {
            throw error(.unexpectedToken, "expected a $variable as SUBQUERY's second argument, found \(describe(current))", at: current, expected: ["$variable"])
        }
        let variable = try lexer.identifierText(current.start + 1, current.end, escapes: current.hasEscapes)
        try advance()
        try expect(.comma, ",", context: "after SUBQUERY's variable")
        let predicateTree = try parseTree(.or)
        let predicate = try requirePredicate(predicateTree.node)
        let height = try checkedHeight(max(collectionTree.height, predicateTree.height) + 1, at: current)
        try expect(.rightParen, ")", context: "to close SUBQUERY")
        return Parsed(ExpressionNode(.subquery(collection: collection, variable: variable, predicate: predicate), range: range(from: start)), height: height)
    }

    @inline(never)
    private mutating func parseTernary() throws(ParseError) -> Parsed<ExpressionNode> {
        try checkParenthesisFollows()
        let start = current.start
        try advance()
        try expect(.leftParen, "(", context: "after TERNARY")
        let conditionTree = try parseTree(.or)
        let condition = try requirePredicate(conditionTree.node)
        try expect(.comma, ",", context: "after TERNARY's condition")
        let thenTree = try parseTree(.or)
        let then = try requireExpression(thenTree.node)
        try expect(.comma, ",", context: "after TERNARY's second argument")
        let otherwiseTree = try parseTree(.or)
        let otherwise = try requireExpression(otherwiseTree.node)
        let height = try checkedHeight(max(conditionTree.height, thenTree.height, otherwiseTree.height) + 1, at: current)
        try expect(.rightParen, ")", context: "to close TERNARY")
        return Parsed(ExpressionNode(.ternary(condition: condition, then: then, else: otherwise), range: range(from: start)), height: height)
    }

    /// Before CAST, SUBQUERY, TERNARY or FUNCTION (the current token): followed by anything
    /// but its parenthesis (or the end), the word is a key meant (`cast.name`, `subquery > 1`).
    @inline(never)
    private func checkParenthesisFollows() throws(ParseError) {
        let next = try peek().kind
        if next != .leftParen && next != .end { throw reservedWordAsKey(current) }
    }

    /// A string constant argument (a literal, or `%@` bound to a string): CAST's type, FUNCTION's selector.
    private mutating func parseStringConstant(what: String) throws(ParseError) -> (String, SourceRange) {
        let token = current
        let expression = try requireExpression(try parse(.or))
        guard case .constant(.string(let value)) = expression.kind else {
            throw error(.unexpectedToken, "\(what) must be a string constant, found '\(CanonicalPrinter.format(expression))'", at: expression.range ?? token.range)
        }
        return (value, expression.range ?? token.range)
    }

    @inline(never)
    private mutating func parseCast() throws(ParseError) -> Parsed<ExpressionNode> {
        try checkParenthesisFollows()
        let start = current.start
        try advance()
        try expect(.leftParen, "(", context: "after CAST")
        let valueTree = try parseTree(.or)
        let value = try requireExpression(valueTree.node)
        if current.kind == .identifier, text(current).uppercased() == "AS" { throw try castAsError(value: value, start: start) }
        try expect(.comma, ",", context: "after the value to CAST")
        let (typeName, typeRange) = try parseStringConstant(what: "CAST's type")
        try expect(.rightParen, ")", context: "to close CAST")
        guard let type = CastType.all.first(where: { $0.caseInsensitiveCompare(typeName) }) else {
            throw error(.unknownCastType, "unknown CAST type '\(typeName)' (known types: \(CastType.all.joined(separator: ", ")))",
                        at: typeRange, suggestion: Suggestions.closest(to: typeName, in: CastType.all))
        }
        let node = CastFolding.fold(ExpressionNode(.cast(value: value, type: type), range: range(from: start)))
        // A folded CAST is a constant, a leaf.
        if case .constant = node.kind { return Parsed(node, height: 1) }
        return Parsed(node, height: try checkedHeight(valueTree.height + 1, at: current))
    }

    @inline(never)
    private mutating func parseFunctionExpression() throws(ParseError) -> Parsed<ExpressionNode> {
        try checkParenthesisFollows()
        let start = current.start
        try advance()
        try expect(.leftParen, "(", context: "after FUNCTION")
        let receiverTree = try parseTree(.or)
        let receiver = try requireExpression(receiverTree.node)
        var highest = receiverTree.height
        try expect(.comma, ",", context: "after FUNCTION's receiver")
        let (selector, _) = try parseStringConstant(what: "FUNCTION's selector")
        var arguments: [ExpressionNode] = []
        if current.kind == .comma {
            try advance()
            let list = try parseExpressionList(closer: .rightParen, ")", context: "after FUNCTION's arguments")
            arguments = list.node
            highest = max(highest, list.height)
        } else {
            try expect(.rightParen, ")", context: "to close FUNCTION")
        }
        let height = try checkedHeight(highest + 1, at: current)
        return Parsed(ExpressionNode(.functionExpression(receiver: receiver, selector: selector, arguments: arguments), range: range(from: start)), height: height)
    }

    // MARK: - Format arguments

    /// The next argument, for the specifier `token` (already read).
    private mutating func nextArgument(for token: Token) throws(ParseError) -> Any? {
        guard argumentIndex < arguments.count else {
            throw error(.missingArgument, "no argument for \(text(token)) (argument \(argumentIndex + 1); \(arguments.count) given)", at: token)
        }
        argumentIndex += 1
        return arguments[argumentIndex - 1]
    }

    /// The keys the next argument names, for the `%K` `token` (already read): a string key
    /// path, split at its dots (`"author.name"` is two keys).
    private mutating func keyPathArgument(for token: Token) throws(ParseError) -> [String] {
        let raw = try nextArgument(for: token)
        let value = Parser.keyPathString(raw) != nil ? raw : ArgumentConversion.unwrap(raw)
        guard let path = Parser.keyPathString(value) else {
            throw error(.invalidArgument, "argument \(argumentIndex) for %K: %K needs a key path string, got \(Parser.kindOfArgument(value))", at: token)
        }
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else {
            throw error(.invalidKey, "argument \(argumentIndex) for %K: '\(path)' is not a key path (empty key)", at: token)
        }
        return keys
    }

    @inline(never)
    private mutating func bindArgument() throws(ParseError) -> ExpressionNode {
        let token = current
        try advance()
        let conversion = lexer.bytes[token.end - 1]
        if conversion == UInt8(ascii: "K") {
            return ExpressionNode(.keyPath(base: nil, keys: try keyPathArgument(for: token)), range: token.range)
        }
        let raw = try nextArgument(for: token)
        func invalid(_ message: String) -> ParseError {
            error(.invalidArgument, "argument \(argumentIndex) for \(text(token)): \(message)", at: token)
        }
        if conversion == UInt8(ascii: "@") {
            var expression: ExpressionNode
            do throws(ArgumentConversion.Failure) {
                expression = try ArgumentConversion.expression(from: raw)
            } catch {
                throw invalid(error.description)
            }
            expression.range = token.range
            return expression
        }
        let value = ArgumentConversion.unwrap(raw)
        let constant: ConstantValue?
        do throws(ArgumentConversion.Failure) {
            constant = try value.flatMap { v throws(ArgumentConversion.Failure) in try ArgumentConversion.constant(from: v) }
        } catch {
            throw invalid(error.description)
        }
        let got = Parser.kindOfArgument(value)
        if FormatSpecifier.integerConversions.contains(conversion) {
            switch constant {
            case .int?, .bool?: return ExpressionNode(.constant(constant ?? .null), range: token.range)
            case .string(let s)? where conversion == UInt8(ascii: "c") && s.count == 1:
                return ExpressionNode(.constant(.string(s)), range: token.range)
            default: throw invalid("needs an integer, got \(got)")
            }
        }
        if FormatSpecifier.doubleConversions.contains(conversion) {
            switch constant {
            case .int(let i)?: return ExpressionNode(.constant(.double(Double(i))), range: token.range)
            case .bool(let b)?: return ExpressionNode(.constant(.double(b ? 1 : 0)), range: token.range)
            case .double?, .decimal?: return ExpressionNode(.constant(constant ?? .null), range: token.range)
            default: throw invalid("needs a number, got \(got)")
            }
        }
        // %s
        guard case .string? = constant else { throw invalid("needs a string, got \(got)") }
        return ExpressionNode(.constant(constant ?? .null), range: token.range)
    }
}

extension Parser {
    /// What an argument is, for a message: its Swift type, or what an expression given as an
    /// argument is (a dictionary from a JSON object).
    static func kindOfArgument(_ value: Any?) -> String {
        guard let value else { return "nil" }
        if let expression = value as? ExpressionNode {
            if case .dictionary = expression.kind { return "a dictionary" }
            return "an expression"
        }
        return "\(type(of: value))"
    }

    /// The key path a `%K` argument names: a `String`, `Substring` or string ``ConstantValue``.
    static func keyPathString(_ value: Any?) -> String? {
        switch value {
        case let s as String: s
        case let s as Substring: String(s)
        case let c as ConstantValue: if case .string(let s) = c { s } else { nil }
        default: nil
        }
    }
}

extension Token.Kind {
    var isComparisonToken: Bool { comparisonOperator != nil }

    var comparisonOperator: ComparisonOperator? {
        switch self {
        case .equal: .equalTo
        case .notEqual: .notEqualTo
        case .less: .lessThan
        case .lessEqual: .lessThanOrEqualTo
        case .greater: .greaterThan
        case .greaterEqual: .greaterThanOrEqualTo
        case .keyword(let k): k.comparisonOperator
        default: nil
        }
    }

    var binaryOperator: BinaryOperator? {
        switch self {
        case .plus: .add
        case .minus: .subtract
        case .star: .multiply
        case .slash: .divide
        case .starStar: .power
        case .amp: .bitwiseAnd
        case .pipe: .bitwiseOr
        case .caret: .bitwiseXor
        case .shiftLeft: .leftShift
        case .shiftRight: .rightShift
        default: nil
        }
    }
}

extension String {
    fileprivate func caseInsensitiveCompare(_ other: String) -> Bool { lowercased() == other.lowercased() }
}
