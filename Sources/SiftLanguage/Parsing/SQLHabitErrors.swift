/// The parser's side of ``SQLHabits``: where a SQL habit is recognised, the error says what to
/// write, with the user's own operands (`deathYear IS NULL` → `deathYear == nil`). Each check
/// runs only where the parser is about to fail anyway, on a copy of the parser when it reads
/// ahead, so valid input costs nothing and is never read differently.
extension Parser {
    /// The text of the format string in `range`.
    func sourceText(_ range: SourceRange) -> String {
        String(decoding: lexer.bytes[max(0, range.start)..<min(lexer.bytes.count, range.end)], as: UTF8.self)
    }

    /// An expression as written (its canonical form when it has no range).
    func writtenText(_ expression: ExpressionNode) -> String {
        expression.range.map(sourceText) ?? CanonicalPrinter.format(expression)
    }

    /// The error for a SQL operator after `left` (the current token, where a comparison
    /// operator was expected): `IS [NOT] NULL`, `ISNULL`, `NOTNULL`, `ILIKE`, `REGEXP`, `GLOB`,
    /// `SIMILAR TO`, `~`; nil for anything else.
    @inline(never)
    func sqlOperatorError(after left: ExpressionNode, qualifier: Token? = nil) throws(ParseError) -> ParseError? {
        let operatorToken = current
        let leftText = (qualifier.map { text($0).uppercased() + " " } ?? "") + writtenText(left)
        func habit(_ message: String, length: Int? = nil, suggestion: String?) -> ParseError {
            ParseError(.unexpectedToken, message, source: lexer.source, offset: operatorToken.start,
                       length: length ?? (operatorToken.end - operatorToken.start), expected: ["a comparison operator"], suggestion: suggestion)
        }
        if operatorToken.kind == .tilde {
            return habit("'~' is PostgreSQL's regular expression match; this language writes MATCHES (the whole text must match)", suggestion: ComparisonOperator.matches.symbol)
        }
        guard operatorToken.kind == .identifier else { return nil }
        switch text(operatorToken).uppercased() {
        case "IS":
            var probe = self
            try probe.advance()
            var negated = false
            if probe.current.kind == .keyword(.not) {
                negated = true
                try probe.advance()
            }
            let symbol = negated ? "!=" : "=="
            let value = probe.current
            let written = "IS" + (negated ? " NOT" : "")
            switch value.kind {
            case .keyword(.null), .keyword(.nil):
                return habit("'\(written) NULL' is SQL's; this language compares with nil: \(symbol) nil",
                             length: value.end - operatorToken.start, suggestion: "\(leftText) \(symbol) nil")
            case .end:
                return habit("'\(written)' is SQL's; this language compares with \(symbol)", suggestion: symbol)
            default:
                let operand = (try? probe.parse(Precedence.comparison.tighter)).flatMap { node -> String? in
                    if case .expression(let e) = node { return probe.writtenText(e) } else { return nil }
                }
                return habit("'\(written)' is SQL's; this language compares with \(symbol)",
                             length: (operand == nil ? value.end : probe.previousEnd) - operatorToken.start,
                             suggestion: operand.map { "\(leftText) \(symbol) \($0)" } ?? symbol)
            }
        case "ISNULL":
            return habit("'ISNULL' is SQLite's; this language compares with nil: == nil", suggestion: "\(leftText) == nil")
        case "NOTNULL":
            return habit("'NOTNULL' is SQLite's; this language compares with nil: != nil", suggestion: "\(leftText) != nil")
        case "ILIKE":
            return habit("'ILIKE' is PostgreSQL's; this language writes LIKE[c] (its wildcards are * and ?)", suggestion: "LIKE[c]")
        case "REGEXP", "RLIKE":
            return habit("'\(text(operatorToken))' is SQL's; this language writes MATCHES (the whole text must match)", suggestion: ComparisonOperator.matches.symbol)
        case "GLOB":
            return habit("'GLOB' is SQLite's; this language writes LIKE (its wildcards are * and ?; LIKE[c] ignores case)", suggestion: ComparisonOperator.like.symbol)
        case "SIMILAR":
            return habit("'SIMILAR TO' is SQL's; this language writes MATCHES (a regular expression)", suggestion: ComparisonOperator.matches.symbol)
        default:
            return nil
        }
    }

    /// `x BETWEEN 1900 AND 1910`: the bounds are one aggregate here, `{1900, 1910}`. Called
    /// after BETWEEN's operand (`low`, a constant) when AND follows it, and only an error when
    /// what follows AND is an expression — which AND would refuse anyway (`x BETWEEN 0 AND
    /// flag == 1` parses as it always did).
    @inline(never)
    func betweenError(low: ExpressionNode) throws(ParseError) -> ParseError? {
        guard current.kind == .keyword(.and) || current.kind == .ampAmp, case .constant(let value) = low.kind else { return nil }
        switch value {
        case .int, .double, .decimal, .string, .date: break
        default: return nil
        }
        var probe = self
        try probe.advance()
        // What AND reads as its next operand.
        guard case .expression(let high)? = try? probe.parse(Precedence.and.tighter) else { return nil }
        let range = SourceRange(start: low.range?.start ?? current.start, end: probe.previousEnd)
        return ParseError(.unexpectedToken, "BETWEEN takes its bounds as one pair here, {low, high}, not 'low AND high'",
                          source: lexer.source, offset: range.start, length: range.end - range.start,
                          suggestion: "{\(writtenText(low)), \(probe.writtenText(high))}")
    }

    /// `("a", "b")` where a list is meant (`name IN ("a", "b")`): a list is written in braces.
    /// The current token is the comma after `first`.
    @inline(never)
    func parenthesizedListError(first: ExpressionNode, open: Int) -> ParseError {
        var probe = self
        var items = [writtenText(first)]
        var readAll = false
        do throws(ParseError) {
            var progress = LoopProgress()
            while progress.moved(to: probe.current.start), probe.current.kind == .comma {
                try probe.advance()
                guard case .expression(let item) = try probe.parse(.or) else { break }
                items.append(probe.writtenText(item))
            }
            readAll = probe.current.kind == .rightParen
        } catch {}
        return ParseError(.unexpectedToken, "a list is written in braces here, {a, b}; parentheses only group",
                          source: lexer.source, offset: current.start, length: current.end - current.start,
                          expected: ["')'"], suggestion: readAll ? "{\(items.joined(separator: ", "))}" : nil)
    }

    /// The arguments of the call whose `(` is the current token, as written; nil when they
    /// cannot be read.
    func argumentTexts() -> [String]? {
        var probe = self
        do throws(ParseError) {
            try probe.advance()
            var texts: [String] = []
            // Predicates too: iif(a > 1, x, y).
            var progress = LoopProgress()
            while progress.moved(to: probe.current.start), probe.current.kind != .rightParen {
                guard let range = try probe.parse(.or).range else { return nil }
                texts.append(probe.sourceText(range))
                guard probe.current.kind == .comma else { break }
                try probe.advance()
            }
            return probe.current.kind == .rightParen ? texts : nil
        } catch {
            return nil
        }
    }

    /// `CAST(x AS INTEGER)`: the type is a string naming a class here, `CAST(x, "NSNumber")`.
    /// The current token is `AS`, after the value.
    @inline(never)
    func castAsError(value: ExpressionNode, start: Int) throws(ParseError) -> ParseError {
        var probe = self
        try probe.advance()
        let typeName = probe.current.kind == .identifier ? probe.text(probe.current).uppercased() : ""
        let castType: CastType = switch typeName {
        case "TEXT", "VARCHAR", "CHAR", "STRING", "CHARACTER", "NVARCHAR", "CLOB": .string
        case "DATE", "DATETIME", "TIMESTAMP", "TIMESTAMPTZ", "TIME": .date
        case "BLOB", "BYTEA": .data
        case "UUID": .uuid
        case "DECIMAL", "NUMERIC": .decimalNumber
        default: .number
        }
        let type = castType.name
        return ParseError(.unexpectedToken, "CAST takes the type as a string after a comma here: CAST(x, \"\(type)\") (types: \(CastType.all.joined(separator: ", ")))",
                          source: lexer.source, offset: current.start, length: current.end - current.start,
                          expected: [","], suggestion: "CAST(\(writtenText(value)), \"\(type)\")")
    }
}
