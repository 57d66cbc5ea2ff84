/// Parsing fetch statements (``FetchStatement``) with the predicate parser: the clauses'
/// words (WHERE, SORT, ...) are plain identifiers to the predicate grammar, so a predicate or
/// expression ends where the next clause begins.
extension Parser {
    private static let clauseWords = ["WHERE", "SORT", "ORDER", "SECTION", "LIMIT", "OFFSET", "GROUP", "HAVING", "FROM", "AS", "BY", "ASC", "DESC", "USING"]

    mutating func parseFetchStatement() throws(ParseError) -> FetchStatement {
        var statement: FetchStatement
        if current.kind == .keyword(.fetch) {
            try advance()
            statement = FetchStatement(kind: .fetch, entityName: try parseEntityName())
        } else if isWord("COUNT") {
            try advance()
            statement = FetchStatement(kind: .count, entityName: try parseEntityName())
        } else if isWord("SELECT") {
            try advance()
            statement = FetchStatement(kind: .select, entityName: "")
            if isWord("DISTINCT") {
                try advance()
                statement.distinct = true
            }
            statement.properties = try parseSelectList()
            try expectWord("FROM", context: "after the SELECT list")
            statement.entityName = try parseEntityName()
        } else if current.kind == .identifier {
            statement = FetchStatement(kind: .fetch, entityName: try parseEntityName())
        } else {
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken,
                        "expected FETCH, COUNT, SELECT or an entity name, found \(describe(current))",
                        at: current, expected: ["FETCH", "COUNT", "SELECT", "an entity name"])
        }
        // Clauses, in the grammar's order; each at most once.
        if isWord("WHERE") {
            try advance()
            statement.predicate = try parseWherePredicate()
        }
        if statement.kind == .select {
            if isWord("GROUP") {
                try advance()
                try expectWord("BY", context: "after GROUP")
                statement.groupBy = try parseExpressionList()
            }
            if isWord("HAVING") {
                try advance()
                statement.having = try parseWherePredicate()
            }
        }
        if statement.kind != .count {
            if isWord("SORT") || isWord("ORDER") {
                try advance()
                try expectWord("BY", context: "after SORT or ORDER")
                statement.sort = try parseSortList()
            }
            if statement.kind == .fetch, isWord("SECTION") {
                try advance()
                try expectWord("BY", context: "after SECTION")
                statement.sectionKeyPath = try parseKeyPathText(context: "SECTION BY")
            }
            if isWord("LIMIT") {
                try advance()
                statement.limit = try parseCount(clause: "LIMIT")
            }
            if isWord("OFFSET") {
                try advance()
                statement.offset = try parseCount(clause: "OFFSET")
            }
        }
        guard current.kind == .end else { throw clauseError(for: statement.kind) }
        try checkArgumentsUsed()
        return statement
    }

    // MARK: Pieces

    func isWord(_ word: String) -> Bool {
        guard current.kind == .identifier, current.end - current.start == word.utf8.count else { return false }
        return text(current).uppercased() == word
    }

    mutating func expectWord(_ word: String, context: String) throws(ParseError) {
        guard isWord(word) else {
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken, "expected \(word) \(context), found \(describe(current))",
                        at: current, expected: [word], suggestion: Suggestions.closest(to: text(current), in: [word]))
        }
        try advance()
    }

    mutating func parseEntityName() throws(ParseError) -> String {
        guard current.kind == .identifier || current.kind == .escapedKey else {
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken, "expected an entity name, found \(describe(current))",
                        at: current, expected: ["an entity name"])
        }
        var name = text(current)
        if current.kind == .escapedKey { name.removeFirst() }
        try advance()
        return name
    }

    private mutating func parseExpressionList() throws(ParseError) -> [ExpressionNode] {
        var items = [try requireExpression(try parse(.or))]
        while current.kind == .comma {
            try advance()
            items.append(try requireExpression(try parse(.or)))
        }
        return items
    }

    private mutating func parseSelectList() throws(ParseError) -> [FetchStatement.SelectItem] {
        var items: [FetchStatement.SelectItem] = []
        repeat {
            if !items.isEmpty { try advance() }
            let expression = try requireExpression(try parse(.or))
            var alias: String?
            if isWord("AS") {
                try advance()
                alias = try parseEntityName()
            }
            items.append(FetchStatement.SelectItem(expression, alias: alias))
        } while current.kind == .comma
        return items
    }

    private mutating func parseSortList() throws(ParseError) -> [FetchStatement.SortItem] {
        var items: [FetchStatement.SortItem] = []
        repeat {
            if !items.isEmpty { try advance() }
            var item = FetchStatement.SortItem(keyPath: try parseKeyPathText(context: "SORT BY"))
            if isWord("ASC") || isWord("ASCENDING") {
                try advance()
            } else if isWord("DESC") || isWord("DESCENDING") {
                try advance()
                item.ascending = false
            }
            if isWord("USING") {
                try advance()
                let token = current
                let name = current.kind == .identifier ? text(current) : ""
                guard let comparator = FetchStatement.comparatorNames.first(where: { $0.lowercased() == name.lowercased() }) else {
                    throw error(.unexpectedToken,
                                "expected a comparator after USING (\(FetchStatement.comparatorNames.joined(separator: ", "))), found \(describe(token))",
                                at: token, expected: FetchStatement.comparatorNames,
                                suggestion: Suggestions.closest(to: name, in: FetchStatement.comparatorNames))
                }
                try advance()
                item.comparator = comparator
            }
            items.append(item)
        } while current.kind == .comma
        return items
    }

    /// A key path (`artist.name`, `tags.@count`, `%K`), as text.
    private mutating func parseKeyPathText(context: String) throws(ParseError) -> String {
        let start = current
        let expression = try requireExpression(try parse(.or))
        guard case .keyPath(nil, _) = expression.kind else {
            throw error(.unexpectedToken, "\(context) takes a key path, not '\(CanonicalPrinter.format(expression))'",
                        at: expression.range ?? start.range)
        }
        return CanonicalPrinter.format(expression)
    }

    private mutating func parseCount(clause: String) throws(ParseError) -> Int {
        let start = current
        let expression = try requireExpression(try parse(.or))
        // Any non-negative 64-bit integer (a limit or offset past the results is no error).
        guard case .constant(.int(let n)) = expression.kind, n >= 0 else {
            throw error(.invalidArgument, "\(clause) takes a non-negative integer, not '\(CanonicalPrinter.format(expression))'",
                        at: expression.range ?? start.range)
        }
        return Int(n)
    }

    /// The predicate of a WHERE or HAVING clause. An expression followed by a word that is not
    /// a clause word is a misspelt operator (`title BEGINSWTH "a"`), reported as `sift parse`
    /// reports it.
    mutating func parseWherePredicate() throws(ParseError) -> PredicateNode {
        let node = try parse(.or)
        if case .expression = node, current.kind != .end,
           !(current.kind == .identifier && Parser.clauseWords.contains(text(current).uppercased())) {
            try unexpected(after: node, closer: nil)
        }
        return try requirePredicate(node)
    }

    /// A word that cannot come here: say which clauses can, and suggest the one meant.
    private func clauseError(for kind: FetchStatement.Kind) -> ParseError {
        var allowed: [String]
        switch kind {
        case .fetch: allowed = ["WHERE", "SORT BY", "ORDER BY", "SECTION BY", "LIMIT", "OFFSET"]
        case .count: allowed = ["WHERE"]
        case .select: allowed = ["WHERE", "GROUP BY", "HAVING", "SORT BY", "ORDER BY", "LIMIT", "OFFSET"]
        }
        let word = text(current)
        let suggestion = current.kind == .identifier
            ? Suggestions.closest(to: word, in: allowed.map { $0.split(separator: " ").first.map(String.init) ?? $0 } + ["AND", "OR"])
            : nil
        let isClauseWord = current.kind == .identifier && Parser.clauseWords.contains(word.uppercased())
        let message = isClauseWord
            ? "\(word.uppercased()) cannot come here (clauses go in the order \(allowed.joined(separator: ", ")))"
            : "expected \(allowed.joined(separator: ", ")) or the end of the statement, found \(describe(current))"
        return error(.unexpectedToken, message, at: current, expected: allowed + ["the end"], suggestion: suggestion)
    }
}
