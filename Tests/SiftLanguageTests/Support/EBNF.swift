/// A grammar read from an EBNF file in the dialect described at the top of
/// `Grammar/predicate.ebnf` (ISO/IEC 14977 with `U+XXXX` code points and `x .. y` ranges):
/// the rules, resolved to indices, and the `(* example rule: sentence *)` annotations.
struct EBNFGrammar: Sendable {
    indirect enum Node: Sendable {
        case terminal(Terminal)
        /// One character with a code point in the closed range.
        case range(UInt32, UInt32)
        /// A reference to `rules[index]`.
        case rule(Int)
        case sequence([Node])
        /// Alternatives; `id` numbers the choice points of the grammar (0..<choiceCount), for coverage.
        case choice(id: Int, [Node])
        case optional(Node)
        case repetition(Node)
        /// `a - b`: an `a` that is not also a `b`.
        case exception(Node, Node)
    }

    struct Terminal: Sendable {
        let text: String
        let scalars: [Unicode.Scalar]
        /// One of the terminals of the rule RESERVED-WORD: matches in any letter case.
        let isKeyword: Bool
    }

    struct Rule: Sendable {
        let name: String
        let body: Node
        /// A name in capitals: the rule derives one token, without whitespace inside.
        let isLexical: Bool
        let line: Int
    }

    struct Example: Sendable {
        let production: String
        let sentence: String
        let line: Int
    }

    let rules: [Rule]
    let ruleIndex: [String: Int]
    let examples: [Example]
    let choiceCount: Int
    /// The height of the shortest derivation tree of each rule, counted in rule expansions.
    let minimumDepths: [Int]

    static let unbounded = Int.max / 4
    /// The rule whose terminals are the keywords (case-insensitive wherever they appear).
    static let keywordRule = "RESERVED-WORD"

    /// How many nested rule expansions the shortest expansion of `node` takes.
    func minimumDepth(of node: Node) -> Int {
        switch node {
        case .terminal, .range: 0
        case .rule(let index): minimumDepths[index]
        case .sequence(let nodes): nodes.map(minimumDepth(of:)).max() ?? 0
        case .choice(_, let nodes): nodes.map(minimumDepth(of:)).min() ?? EBNFGrammar.unbounded
        case .optional, .repetition: 0
        case .exception(let node, _): minimumDepth(of: node)
        }
    }

    func index(of name: String) -> Int? { ruleIndex[name] }

    /// Rules not reachable from `start`.
    func unreachableRules(from start: Int) -> [String] {
        var seen = Set([start])
        var stack = [start]
        func visit(_ node: Node) {
            switch node {
            case .terminal, .range: break
            case .rule(let i): if seen.insert(i).inserted { stack.append(i) }
            case .sequence(let nodes), .choice(_, let nodes): nodes.forEach(visit)
            case .optional(let n), .repetition(let n): visit(n)
            case .exception(let a, let b): visit(a); visit(b)
            }
        }
        while let i = stack.popLast() { visit(rules[i].body) }
        return rules.indices.filter { !seen.contains($0) }.map { rules[$0].name }
    }
}

struct EBNFError: Error, CustomStringConvertible {
    let line: Int
    let column: Int
    let message: String
    var description: String { "predicate.ebnf:\(line):\(column): \(message)" }
}

// MARK: - Reading

extension EBNFGrammar {
    /// Reads a grammar; every referenced rule must be defined, every rule must terminate.
    init(source: String) throws(EBNFError) {
        var reader = EBNFReader(source: source)
        let (rawRules, examples) = try reader.readGrammar()
        var index: [String: Int] = [:]
        for (i, raw) in rawRules.enumerated() {
            if index[raw.name] != nil {
                throw EBNFError(line: raw.line, column: 1, message: "rule '\(raw.name)' is defined twice")
            }
            index[raw.name] = i
        }
        // Keywords: the terminals of the rule RESERVED-WORD, wherever they appear.
        var keywords = Set<String>()
        func collectTerminals(_ raw: EBNFRawNode) {
            switch raw {
            case .terminal(let t): keywords.insert(t.text)
            case .choice(let nodes), .sequence(let nodes): nodes.forEach(collectTerminals)
            case .optional(let n), .repetition(let n): collectTerminals(n)
            case .exception(let a, _): collectTerminals(a)
            case .range, .reference: break
            }
        }
        if let reserved = rawRules.first(where: { $0.name == EBNFGrammar.keywordRule }) { collectTerminals(reserved.body) }
        var choiceCount = 0
        func resolve(_ raw: EBNFRawNode) throws(EBNFError) -> Node {
            switch raw {
            case .terminal(let t):
                return .terminal(Terminal(text: t.text, scalars: t.scalars, isKeyword: keywords.contains(t.text)))
            case .range(let a, let b): return .range(a, b)
            case .reference(let name, let line, let column):
                guard let i = index[name] else {
                    throw EBNFError(line: line, column: column, message: "rule '\(name)' is used but not defined")
                }
                return .rule(i)
            case .sequence(let nodes):
                var out: [Node] = []
                for n in nodes { out.append(try resolve(n)) }
                return .sequence(out)
            case .choice(let nodes):
                var out: [Node] = []
                for n in nodes { out.append(try resolve(n)) }
                defer { choiceCount += 1 }
                return .choice(id: choiceCount, out)
            case .optional(let n): return .optional(try resolve(n))
            case .repetition(let n): return .repetition(try resolve(n))
            case .exception(let a, let b): return .exception(try resolve(a), try resolve(b))
            }
        }
        var rules: [Rule] = []
        for raw in rawRules {
            let isLexical = raw.name.contains(where: \.isLetter) && raw.name == raw.name.uppercased()
            rules.append(Rule(name: raw.name, body: try resolve(raw.body), isLexical: isLexical, line: raw.line))
        }
        for example in examples where index[example.production] == nil {
            throw EBNFError(line: example.line, column: 1, message: "example for '\(example.production)', which is not a rule")
        }
        self.rules = rules
        self.ruleIndex = index
        self.examples = examples
        self.choiceCount = choiceCount

        // Minimum depths: a fixed point, starting from "unbounded".
        var depths = [Int](repeating: EBNFGrammar.unbounded, count: rules.count)
        func depth(_ node: Node) -> Int {
            switch node {
            case .terminal, .range: 0
            case .rule(let i): depths[i]
            case .sequence(let nodes): nodes.map(depth).max() ?? 0
            case .choice(_, let nodes): nodes.map(depth).min() ?? EBNFGrammar.unbounded
            case .optional, .repetition: 0
            case .exception(let n, _): depth(n)
            }
        }
        var changed = true
        while changed {
            changed = false
            for i in rules.indices {
                let d = depth(rules[i].body)
                let candidate = d >= EBNFGrammar.unbounded ? EBNFGrammar.unbounded : d + 1
                if candidate < depths[i] { depths[i] = candidate; changed = true }
            }
        }
        if let i = depths.firstIndex(of: EBNFGrammar.unbounded) {
            throw EBNFError(line: rules[i].line, column: 1, message: "rule '\(rules[i].name)' derives no finite sentence")
        }
        self.minimumDepths = depths
    }
}

/// A rule body before names are resolved.
indirect enum EBNFRawNode {
    case terminal(EBNFGrammar.Terminal)
    case range(UInt32, UInt32)
    case reference(String, line: Int, column: Int)
    case sequence([EBNFRawNode])
    case choice([EBNFRawNode])
    case optional(EBNFRawNode)
    case repetition(EBNFRawNode)
    case exception(EBNFRawNode, EBNFRawNode)
}

/// Tokenizer and recursive-descent reader for the EBNF dialect.
struct EBNFReader {
    enum TokenKind: Equatable {
        case name(String)
        case terminal(String)
        case codePoint(UInt32)
        case symbol(String)  // = ; | , ( ) [ ] { } - ..
        case end
    }

    struct Token {
        let kind: TokenKind
        let line: Int
        let column: Int
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var line = 1
    private var column = 1
    private var examples: [EBNFGrammar.Example] = []
    private var current = Token(kind: .end, line: 1, column: 1)

    init(source: String) {
        scalars = Array(source.unicodeScalars)
    }

    mutating func readGrammar() throws(EBNFError) -> ([(name: String, body: EBNFRawNode, line: Int)], [EBNFGrammar.Example]) {
        try advance()
        var rules: [(name: String, body: EBNFRawNode, line: Int)] = []
        while current.kind != .end {
            guard case .name(let name) = current.kind else { throw error("expected a rule name") }
            let line = current.line
            try advance()
            try expect("=")
            let body = try readAlternatives()
            try expect(";")
            rules.append((name, body, line))
        }
        return (rules, examples)
    }

    // MARK: Syntax

    private mutating func readAlternatives() throws(EBNFError) -> EBNFRawNode {
        var alternatives = [try readSequence()]
        while current.kind == .symbol("|") {
            try advance()
            alternatives.append(try readSequence())
        }
        return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
    }

    private mutating func readSequence() throws(EBNFError) -> EBNFRawNode {
        var items = [try readTerm()]
        while current.kind == .symbol(",") {
            try advance()
            items.append(try readTerm())
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func readTerm() throws(EBNFError) -> EBNFRawNode {
        let factor = try readFactor()
        guard current.kind == .symbol("-") else { return factor }
        try advance()
        return .exception(factor, try readFactor())
    }

    private mutating func readFactor() throws(EBNFError) -> EBNFRawNode {
        let token = current
        switch token.kind {
        case .name(let name):
            try advance()
            return .reference(name, line: token.line, column: token.column)
        case .terminal, .codePoint:
            try advance()
            if current.kind == .symbol("..") {
                try advance()
                let upperToken = current
                guard let low = singleCodePoint(token.kind), let high = singleCodePoint(upperToken.kind) else {
                    throw EBNFError(line: token.line, column: token.column, message: "a range needs one-character ends")
                }
                guard low <= high else {
                    throw EBNFError(line: token.line, column: token.column, message: "an empty range")
                }
                try advance()
                return .range(low, high)
            }
            switch token.kind {
            case .terminal(let text): return .terminal(Self.terminal(text))
            case .codePoint(let value): return .range(value, value)
            default: preconditionFailure()
            }
        case .symbol("("), .symbol("["), .symbol("{"):
            try advance()
            let inner = try readAlternatives()
            switch token.kind {
            case .symbol("("): try expect(")"); return inner
            case .symbol("["): try expect("]"); return .optional(inner)
            default: try expect("}"); return .repetition(inner)
            }
        default:
            throw error("expected a rule name, a terminal, '(', '[' or '{'")
        }
    }

    private func singleCodePoint(_ kind: TokenKind) -> UInt32? {
        switch kind {
        case .codePoint(let v): return v
        case .terminal(let text):
            let s = Array(text.unicodeScalars)
            return s.count == 1 ? s[0].value : nil
        default: return nil
        }
    }

    /// A terminal; whether it is a keyword is decided once all rules are read.
    static func terminal(_ text: String) -> EBNFGrammar.Terminal {
        EBNFGrammar.Terminal(text: text, scalars: Array(text.unicodeScalars), isKeyword: false)
    }

    private mutating func expect(_ symbol: String) throws(EBNFError) {
        guard current.kind == .symbol(symbol) else { throw error("expected '\(symbol)'") }
        try advance()
    }

    private func error(_ message: String) -> EBNFError {
        let found: String = switch current.kind {
        case .name(let n): "'\(n)'"
        case .terminal(let t): "\"\(t)\""
        case .codePoint(let v): "U+\(String(v, radix: 16, uppercase: true))"
        case .symbol(let s): "'\(s)'"
        case .end: "the end of the file"
        }
        return EBNFError(line: current.line, column: current.column, message: "\(message), found \(found)")
    }

    // MARK: Tokens

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private mutating func bump() {
        if scalars[position] == "\n" { line += 1; column = 1 } else { column += 1 }
        position += 1
    }

    private mutating func advance() throws(EBNFError) {
        // Whitespace and comments.
        while let c = peek() {
            if c.properties.isWhitespace {
                bump()
            } else if c == "(", peek(1) == "*" {
                try skipComment()
            } else {
                break
            }
        }
        let startLine = line
        let startColumn = column
        func token(_ kind: TokenKind) -> Token { Token(kind: kind, line: startLine, column: startColumn) }
        guard let c = peek() else {
            current = token(.end)
            return
        }
        if c == "\"" || c == "'" {
            bump()
            var text = String.UnicodeScalarView()
            while let d = peek(), d != c {
                guard d != "\n" else { throw EBNFError(line: startLine, column: startColumn, message: "unterminated terminal") }
                text.append(d)
                bump()
            }
            guard peek() == c else { throw EBNFError(line: startLine, column: startColumn, message: "unterminated terminal") }
            bump()
            guard !text.isEmpty else { throw EBNFError(line: startLine, column: startColumn, message: "empty terminal") }
            current = token(.terminal(String(text)))
            return
        }
        if c == "U", peek(1) == "+", let h = peek(2), h.properties.isASCIIHexDigit {
            bump(); bump()
            var hex = ""
            while let d = peek(), d.properties.isASCIIHexDigit { hex.unicodeScalars.append(d); bump() }
            guard let value = UInt32(hex, radix: 16), Unicode.Scalar(value) != nil else {
                throw EBNFError(line: startLine, column: startColumn, message: "U+\(hex) is not a Unicode scalar value")
            }
            current = token(.codePoint(value))
            return
        }
        if c.properties.isAlphabetic && c.isASCII {
            var name = ""
            while let d = peek() {
                let isNameCharacter = d.isASCII && (d.properties.isAlphabetic || ("0"..."9").contains(d) || d == "_")
                // A hyphen belongs to the name when a name character follows it.
                let isInnerHyphen = d == "-" && peek(1).map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) } == true
                guard isNameCharacter || isInnerHyphen else { break }
                name.unicodeScalars.append(d)
                bump()
            }
            current = token(.name(name))
            return
        }
        if c == ".", peek(1) == "." {
            bump(); bump()
            current = token(.symbol(".."))
            return
        }
        if "=;|,()[]{}-".unicodeScalars.contains(c) {
            bump()
            current = token(.symbol(String(c)))
            return
        }
        throw EBNFError(line: startLine, column: startColumn, message: "unexpected character '\(c)'")
    }

    /// Skips a (possibly nested) comment, recording `example rule: sentence` annotations.
    private mutating func skipComment() throws(EBNFError) {
        let startLine = line
        let startColumn = column
        bump(); bump()
        var depth = 1
        var text = String.UnicodeScalarView()
        while depth > 0 {
            guard let c = peek() else {
                throw EBNFError(line: startLine, column: startColumn, message: "unterminated comment")
            }
            if c == "(", peek(1) == "*" {
                depth += 1
                text.append("("); text.append("*")
                bump(); bump()
            } else if c == "*", peek(1) == ")" {
                depth -= 1
                if depth > 0 { text.append("*"); text.append(")") }
                bump(); bump()
            } else {
                text.append(c)
                bump()
            }
        }
        if let example = Self.example(in: String(text), line: startLine) { examples.append(example) }
    }

    /// `example rule-name: sentence` (the whole comment).
    static func example(in comment: String, line: Int) -> EBNFGrammar.Example? {
        let trimmed = comment.trimmingWhitespace()
        guard trimmed.hasPrefix("example ") else { return nil }
        let rest = trimmed.dropFirst("example ".count)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let name = String(rest[..<colon]).trimmingWhitespace()
        let sentence = String(rest[rest.index(after: colon)...]).trimmingWhitespace()
        guard !name.isEmpty, !name.contains(" "), !sentence.isEmpty else { return nil }
        return EBNFGrammar.Example(production: name, sentence: sentence, line: line)
    }
}

fileprivate extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

// MARK: - Recognizing

/// Decides whether a string is a sentence of a rule, reading lexical rules character by
/// character and allowing whitespace between the tokens of syntactic rules (the convention of
/// the grammar file). A token that ends in a letter, digit or `_` may not be followed directly
/// by another one (maximal munch, as the lexer does).
///
/// It computes, for a node and a start offset, the set of offsets where a match can end
/// (memoized per rule), so it handles ambiguity without backtracking search. The grammar must
/// not be left-recursive (EBNF grammars use `{ }` instead).
struct EBNFRecognizer {
    let grammar: EBNFGrammar
    let input: [Unicode.Scalar]
    private var memo: [MemoKey: Set<Int>] = [:]

    private struct MemoKey: Hashable {
        let rule: Int
        let position: Int
        let lexical: Bool
    }

    init(grammar: EBNFGrammar, input: String) {
        self.grammar = grammar
        self.input = Array(input.unicodeScalars)
    }

    init(grammar: EBNFGrammar, scalars: [Unicode.Scalar]) {
        self.grammar = grammar
        self.input = scalars
    }

    /// The whole input (whitespace around it allowed) is a sentence of the rule.
    mutating func accepts(rule: Int) -> Bool {
        let ends = self.ends(.rule(rule), from: 0, lexical: false)
        return ends.contains { skipWhitespace($0) == input.count }
    }

    /// The whole input, read as one token, matches `node`.
    mutating func matchesToken(_ node: EBNFGrammar.Node) -> Bool {
        ends(node, from: 0, lexical: true).contains(input.count)
    }

    /// Some part of the input that starts at a token boundary is a sentence of the rule.
    mutating func contains(rule: Int) -> Bool {
        for start in 0..<input.count {
            if start > 0, EBNFRecognizer.isWordCharacter(input[start - 1]), EBNFRecognizer.isWordCharacter(input[start]) { continue }
            if !ends(.rule(rule), from: start, lexical: false).isEmpty { return true }
        }
        return false
    }

    static func isWordCharacter(_ c: Unicode.Scalar) -> Bool {
        c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_")
    }

    /// Space, tab, LF, VT, FF, CR (LANGUAGE.md §1).
    static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
        c == " " || (0x09...0x0D).contains(c.value)
    }

    private func skipWhitespace(_ position: Int) -> Int {
        var p = position
        while p < input.count, EBNFRecognizer.isWhitespace(input[p]) { p += 1 }
        return p
    }

    /// A token may end at `end` unless it would split a run of word characters.
    private func isTokenBoundary(_ end: Int) -> Bool {
        end == 0 || end >= input.count
            || !(EBNFRecognizer.isWordCharacter(input[end - 1]) && EBNFRecognizer.isWordCharacter(input[end]))
    }

    private func match(_ terminal: EBNFGrammar.Terminal, at position: Int) -> Int? {
        let end = position + terminal.scalars.count
        guard end <= input.count else { return nil }
        for (k, t) in terminal.scalars.enumerated() {
            let c = input[position + k]
            if c == t { continue }
            if terminal.isKeyword, c.isASCII, t.isASCII,
               Character(c).lowercased() == Character(t).lowercased() { continue }
            return nil
        }
        return end
    }

    mutating func ends(_ node: EBNFGrammar.Node, from position: Int, lexical: Bool) -> Set<Int> {
        switch node {
        case .terminal(let terminal):
            let start = lexical ? position : skipWhitespace(position)
            guard let end = match(terminal, at: start) else { return [] }
            return lexical || isTokenBoundary(end) ? [end] : []
        case .range(let low, let high):
            let start = lexical ? position : skipWhitespace(position)
            guard start < input.count, (low...high).contains(input[start].value) else { return [] }
            return lexical || isTokenBoundary(start + 1) ? [start + 1] : []
        case .rule(let index):
            if !lexical && grammar.rules[index].isLexical {
                // A token: read it without whitespace inside.
                return ruleEnds(index, from: skipWhitespace(position), lexical: true).filter(isTokenBoundary)
            }
            return ruleEnds(index, from: position, lexical: lexical)
        case .sequence(let nodes):
            var positions: Set<Int> = [position]
            for n in nodes {
                var next: Set<Int> = []
                for p in positions { next.formUnion(ends(n, from: p, lexical: lexical)) }
                positions = next
                if positions.isEmpty { break }
            }
            return positions
        case .choice(_, let nodes):
            var result: Set<Int> = []
            for n in nodes { result.formUnion(ends(n, from: position, lexical: lexical)) }
            return result
        case .optional(let n):
            return ends(n, from: position, lexical: lexical).union([position])
        case .repetition(let n):
            var result: Set<Int> = [position]
            var frontier = [position]
            while let p = frontier.popLast() {
                for e in ends(n, from: p, lexical: lexical) where result.insert(e).inserted {
                    frontier.append(e)
                }
            }
            return result
        case .exception(let a, let b):
            let candidates = ends(a, from: position, lexical: lexical)
            if candidates.isEmpty { return [] }
            let excluded = ends(b, from: position, lexical: lexical)
            return candidates.subtracting(excluded)
        }
    }

    private mutating func ruleEnds(_ index: Int, from position: Int, lexical: Bool) -> Set<Int> {
        let key = MemoKey(rule: index, position: position, lexical: lexical)
        if let known = memo[key] { return known }
        memo[key] = []  // guards against (unsupported) left recursion
        let result = ends(grammar.rules[index].body, from: position, lexical: lexical)
        memo[key] = result
        return result
    }
}
