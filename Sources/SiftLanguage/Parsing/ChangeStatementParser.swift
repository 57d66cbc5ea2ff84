/// Parsing change statements (``UpdateStatement``, ``DeleteStatement``) with the predicate
/// parser, like fetch statements: the clause words (SET, WHERE) are plain identifiers to the
/// predicate grammar, so an expression or predicate ends where the next clause begins.
///
/// The leading words are optional (`[UPDATE] Entity SET ...`, `[DELETE [FROM]] Entity ...`),
/// so an entity may be called `Update` or `From`: each reading the first words allow is tried
/// in turn, and the first that parses the whole statement wins. When none does, the error is
/// the one that got furthest into the statement.
extension Parser {
    /// Words that start a clause of some statement: one where a change statement ends is
    /// reported as a clause that cannot come there.
    private static let changeClauseWords = Set(StatementWord.spellings { $0.startsAClause })

    mutating func parseUpdateStatement() throws(ParseError) -> UpdateStatement {
        guard current.kind == .identifier || current.kind == .escapedKey else {
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken,
                        "expected \(StatementWord.update.spelling) or an entity name, found \(describe(current))",
                        at: current, expected: [StatementWord.update.spelling, "an entity name"])
        }
        // `UPDATE Note SET ...`, or an entity called Update: `Update SET ...`.
        let skips = isWord(.update) ? [1, 0] : [0]
        let statement = try firstReading(skipping: skips) { (parser) throws(ParseError) in try parser.parseUpdateBody() }
        try checkArgumentsUsed()
        return statement
    }

    mutating func parseDeleteStatement() throws(ParseError) -> DeleteStatement {
        guard current.kind == .identifier || current.kind == .escapedKey else {
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken,
                        "expected \(StatementWord.delete.spelling) or an entity name, found \(describe(current))",
                        at: current, expected: [StatementWord.delete.spelling, "an entity name"])
        }
        // `DELETE FROM Note`, `DELETE Note`, or an entity called Delete or From.
        var skips = [0]
        if isWord(.delete) {
            skips = [1, 0]
            if let next = try? peek(), isWord(.from, token: next) { skips = [2, 1, 0] }
        }
        let statement = try firstReading(skipping: skips) { (parser) throws(ParseError) in try parser.parseDeleteBody() }
        try checkArgumentsUsed()
        return statement
    }

    // MARK: Bodies

    /// `Entity SET key = value, ... [WHERE predicate]`, to the end.
    private mutating func parseUpdateBody() throws(ParseError) -> UpdateStatement {
        let entityName = try parseEntityName()
        try expectWord(.set, context: "after the entity name")
        var assignments: [(key: String, value: ExpressionNode)] = []
        var keys: Set<String> = []
        var progress = LoopProgress()
        repeat {
            if !assignments.isEmpty { try advance() }  // the comma
            let (key, range) = try parseAssignmentKey()
            guard keys.insert(key).inserted else {
                throw error(.invalidKey, "'\(key)' is set twice", at: range)
            }
            guard current.kind == .equal else {
                throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken,
                            "expected '=' after '\(CanonicalPrinter.formatKey(key))', found \(describe(current))",
                            at: current, expected: ["="], suggestion: current.kind == .assign ? "=" : nil)
            }
            try advance()
            // An expression: arithmetic binds, a comparison does not (a value is not a predicate).
            let value = try requireExpression(try parse(.assignment))
            assignments.append((key, value))
        } while progress.moved(to: current.start) && current.kind == .comma
        var statement = UpdateStatement(entityName: entityName, assignments: assignments)
        if isWord(.where) {
            try advance()
            statement.predicate = try parseWherePredicate()
        }
        guard current.kind == .end else { throw changeClauseError(update: true, afterWhere: statement.predicate != nil) }
        return statement
    }

    /// `Entity [WHERE predicate]`, to the end.
    private mutating func parseDeleteBody() throws(ParseError) -> DeleteStatement {
        var statement = DeleteStatement(entityName: try parseEntityName())
        if isWord(.where) {
            try advance()
            statement.predicate = try parseWherePredicate()
        }
        guard current.kind == .end else { throw changeClauseError(update: false, afterWhere: statement.predicate != nil) }
        return statement
    }


    /// The key of an assignment: an attribute name (`title`, `#size`, `caf\u00E9`).
    private mutating func parseAssignmentKey() throws(ParseError) -> (String, SourceRange) {
        let token = current
        switch token.kind {
        case .identifier, .escapedKey:
            break
        case .keyword:
            throw reservedWordAsKey(token)
        case .formatSpecifier:
            throw error(.unexpectedToken, "expected an attribute name, found \(describe(token)) (the keys of SET are written out, not bound)",
                        at: token, expected: ["an attribute name"])
        default:
            throw error(token.kind == .end ? .unexpectedEnd : .unexpectedToken, "expected an attribute name, found \(describe(token))",
                        at: token, expected: ["an attribute name"])
        }
        let key = try requireExpression(try parse(.primary))
        let range = key.range ?? token.range
        guard case .keyPath(nil, let keys) = key.kind, keys.count == 1 else {
            let written = CanonicalPrinter.format(key)
            if case .keyPath(nil, _) = key.kind {
                throw error(.invalidKey, "SET takes an attribute name, not the key path '\(written)' (it changes the entity's own attributes)",
                            at: range)
            }
            throw error(.unexpectedToken, "SET takes an attribute name, not '\(written)'", at: range)
        }
        return (keys[0], range)
    }

    // MARK: Pieces

    /// Reads the rest of the statement with `body` after skipping each number of leading words
    /// in turn, on a copy of the parser; the first reading to succeed is kept. If none does,
    /// throws the error that got furthest (the earliest reading's, on a tie).
    private mutating func firstReading<T>(skipping counts: [Int], _ body: (inout Parser) throws(ParseError) -> T) throws(ParseError) -> T {
        var furthest: ParseError?
        for count in counts {
            var attempt = self
            do throws(ParseError) {
                for _ in 0..<count { try attempt.advance() }
                let result = try body(&attempt)
                self = attempt
                return result
            } catch {
                if furthest.map({ error.offset > $0.offset }) ?? true { furthest = error }
            }
        }
        guard let furthest else { preconditionFailure("no readings") }
        throw furthest
    }

    private func isWord(_ word: StatementWord, token: Token) -> Bool {
        let spelling = word.spelling
        return token.kind == .identifier && token.end - token.start == spelling.utf8.count && text(token).uppercased() == spelling
    }

    /// What stands where a change statement should have ended.
    private func changeClauseError(update: Bool, afterWhere: Bool) -> ParseError {
        let kind = update ? "an update statement" : "a delete statement"
        let whereWord = StatementWord.where.spelling, setWord = StatementWord.set.spelling
        let word = text(current)
        let code: ParseError.Code = current.kind == .end ? .unexpectedEnd : .unexpectedToken
        if current.kind == .identifier, Parser.changeClauseWords.contains(word.uppercased()) {
            let shape = afterWhere ? "\(kind) ends with its \(whereWord) clause"
                : update ? "\(kind) takes \(setWord), then \(whereWord)" : "\(kind) takes only \(whereWord)"
            return error(code, "\(word.uppercased()) cannot come here (\(shape))", at: current, expected: afterWhere ? ["the end"] : [whereWord, "the end"])
        }
        if afterWhere {
            let connectives = Keyword.spellings(.and, .or)
            let suggestion = current.kind == .identifier ? Suggestions.closest(to: word, in: connectives) : nil
            return error(code, "expected AND, OR or the end of the statement, found \(describe(current))",
                         at: current, expected: connectives + ["the end"], suggestion: suggestion)
        }
        let suggestion = current.kind == .identifier ? Suggestions.closest(to: word, in: [whereWord]) : nil
        guard update else {
            return error(code, "expected \(whereWord) or the end of the statement, found \(describe(current))",
                         at: current, expected: [whereWord, "the end"], suggestion: suggestion)
        }
        switch current.kind {
        case .keyword(.and), .ampAmp:
            return error(code, "assignments are separated by commas, not \(describe(current))", at: current,
                         expected: [",", whereWord, "the end"], suggestion: ",")
        case let kind where kind.isComparisonToken:
            return error(code, "expected ',', \(whereWord) or the end of the statement after a \(setWord) value, found \(describe(current)) (a value is an expression, not a comparison)",
                         at: current, expected: [",", whereWord, "the end"])
        default:
            return error(code, "expected ',', \(whereWord) or the end of the statement, found \(describe(current))",
                         at: current, expected: [",", whereWord, "the end"], suggestion: suggestion)
        }
    }
}
