/// Parsing fetch statements (``FetchStatement``) with the predicate parser: the clauses'
/// words (WHERE, SORT, ...) are plain identifiers to the predicate grammar, so a predicate or
/// expression ends where the next clause begins.
extension Parser {
    /// The words a predicate or expression of a fetch statement ends before.
    private static let clauseWords = Set(StatementWord.spellings { $0.endsAnExpression })

    mutating func parseFetchStatement() throws(ParseError) -> FetchStatement {
        var statement: FetchStatement
        if current.kind == .keyword(.fetch) {
            try advance()
            statement = FetchStatement(kind: .fetch, entityName: try parseEntityName())
        } else if isWord(.count) {
            try advance()
            statement = FetchStatement(kind: .count, entityName: try parseEntityName())
        } else if isWord(.select) {
            try advance()
            statement = FetchStatement(kind: .select, entityName: "")
            if isWord(.distinct) {
                try advance()
                statement.distinct = true
            }
            statement.properties = try parseSelectList()
            try expectWord(.from, context: "after the SELECT list")
            statement.entityName = try parseEntityName()
        } else if current.kind == .identifier {
            statement = FetchStatement(kind: .fetch, entityName: try parseEntityName())
        } else {
            let words = [StatementWord.fetch, .count, .select].map(\.spelling)
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken,
                        "expected \(words.joined(separator: ", ")) or an entity name, found \(describe(current))",
                        at: current, expected: words + ["an entity name"])
        }
        // Clauses, in the grammar's order; each at most once.
        if isWord(.where) {
            try advance()
            statement.predicate = try parseWherePredicate()
        }
        if statement.kind == .select {
            if isWord(.group) {
                try advance()
                try expectWord(.by, context: "after GROUP")
                statement.groupBy = try parseExpressionList()
            }
            if isWord(.having) {
                try advance()
                statement.having = try parseWherePredicate()
            }
        }
        if statement.kind != .count {
            if isWord(.sort) || isWord(.order) {
                try advance()
                try expectWord(.by, context: "after SORT or ORDER")
                statement.sort = try parseSortList()
            }
            if statement.kind == .fetch, isWord(.section) {
                try advance()
                try expectWord(.by, context: "after SECTION")
                statement.sectionKeyPath = try parseKeyPathText(context: "SECTION BY")
            }
            if isWord(.limit) {
                try advance()
                statement.limit = try parseCount(clause: "LIMIT")
                if current.kind == .comma { throw try limitCommaError(first: statement.limit ?? 0) }
            }
            if isWord(.offset) {
                try advance()
                statement.offset = try parseCount(clause: "OFFSET")
            }
        }
        guard current.kind == .end else { throw clauseError(for: statement.kind) }
        try checkArgumentsUsed()
        return statement
    }

    // MARK: Pieces

    /// Whether the current token is the statement word `word`, in any case.
    func isWord(_ word: StatementWord) -> Bool { isIdentifier(spelt: word.spelling) }

    /// Whether the current token is an identifier spelt `spelling` (upper-case) in any case.
    private func isIdentifier(spelt spelling: String) -> Bool {
        guard current.kind == .identifier, current.end - current.start == spelling.utf8.count else { return false }
        return text(current).uppercased() == spelling
    }

    mutating func expectWord(_ statementWord: StatementWord, context: String) throws(ParseError) {
        let word = statementWord.spelling
        guard isWord(statementWord) else {
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken, "expected \(word) \(context), found \(describe(current))",
                        at: current, expected: [word], suggestion: Suggestions.closest(to: text(current), in: [word]))
        }
        try advance()
    }

    /// A text without the `;` (and white space) that end it, as a statement typed into sqlite3
    /// ends; the text itself when it has none.
    static func withoutFinalSemicolons(_ text: String) -> String {
        var end = text.utf8.endIndex
        var sawSemicolon = false
        while end > text.utf8.startIndex {
            let before = text.utf8.index(before: end)
            let byte = text.utf8[before]
            guard byte == UInt8(ascii: ";") || ByteClass.table[Int(byte)] == .space else { break }
            if byte == UInt8(ascii: ";") { sawSemicolon = true }
            end = before
        }
        return sawSemicolon ? String(text[..<end]) : text
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
        var progress = LoopProgress()
        while progress.moved(to: current.start), current.kind == .comma {
            try advance()
            items.append(try requireExpression(try parse(.or)))
        }
        return items
    }

    /// The SELECT list: `expression [AS name], ...`, or `*` for every attribute (no properties).
    private mutating func parseSelectList() throws(ParseError) -> [FetchStatement.SelectItem] {
        if current.kind == .star {
            let star = current
            try advance()
            if current.kind == .comma {
                throw error(.unexpectedToken, "SELECT * stands alone (every attribute); name the properties instead", at: star)
            }
            return []
        }
        var items: [FetchStatement.SelectItem] = []
        var progress = LoopProgress()
        repeat {
            if !items.isEmpty { try advance() }
            let expression = try requireExpression(try parse(.or))
            var alias: String?
            if isWord(.as) {
                try advance()
                alias = try parseAlias()
            }
            items.append(FetchStatement.SelectItem(expression, alias: alias))
        } while progress.moved(to: current.start) && current.kind == .comma
        return items
    }

    /// The name after `AS`: a name, `#name`, or a reserved word but SELF (`AS first`, `AS size`:
    /// a name is all that can stand here).
    private mutating func parseAlias() throws(ParseError) -> String {
        if case .keyword(let keyword) = current.kind, keyword != .self, text(current).utf8.allSatisfy({ ByteClass.isIdentifierByte[Int($0)] }) {
            let name = text(current)
            try advance()
            return name
        }
        guard current.kind == .identifier || current.kind == .escapedKey else {
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken, "expected a name after AS, found \(describe(current))",
                        at: current, expected: ["a name"])
        }
        return try parseEntityName()
    }

    private mutating func parseSortList() throws(ParseError) -> [FetchStatement.SortItem] {
        var items: [FetchStatement.SortItem] = []
        var progress = LoopProgress()
        repeat {
            if !items.isEmpty { try advance() }
            var item = FetchStatement.SortItem(keyPath: try parseKeyPathText(context: "SORT BY"))
            if isWord(.asc) || isWord(.ascending) {
                try advance()
            } else if isWord(.desc) || isWord(.descending) {
                try advance()
                item.ascending = false
            }
            if isWord(.nulls) { try parseNullsOrder(ascending: item.ascending) }
            if isIdentifier(spelt: "COLLATE") { throw try collateError() }
            if isWord(.using) {
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
        } while progress.moved(to: current.start) && current.kind == .comma
        return items
    }

    /// `NULLS FIRST` or `NULLS LAST` after a sort key's direction: nil sorts first ascending
    /// and last descending (as in SQLite), so the clause that says so is accepted and the
    /// other is an error.
    private mutating func parseNullsOrder(ascending: Bool) throws(ParseError) {
        let start = current
        try advance()
        guard current.kind == .keyword(.first) || current.kind == .keyword(.last) else {
            throw error(current.kind == .end ? .unexpectedEnd : .unexpectedToken, "expected FIRST or LAST after NULLS, found \(describe(current))",
                        at: current, expected: Keyword.spellings(.first, .last))
        }
        let first = current.kind == .keyword(.first)
        try advance()
        guard first == ascending else {
            throw error(.unsupported, "nil sorts first in ascending order and last in descending order (as in SQLite); "
                        + "NULLS \(first ? "FIRST" : "LAST") cannot change it (WHERE key != nil leaves nil out)",
                        at: SourceRange(start: start.start, end: previousEnd))
        }
    }

    /// `ORDER BY name COLLATE NOCASE`: a comparator says how strings sort here. The current
    /// token is COLLATE.
    private func collateError() throws(ParseError) -> ParseError {
        var probe = self
        try probe.advance()
        let name = probe.current.kind == .identifier ? probe.text(probe.current).uppercased() : ""
        let comparator = name == "NOCASE" ? "caseInsensitiveCompare" : name == "BINARY" ? "compare" : "localizedStandardCompare"
        return error(.unexpectedToken, "COLLATE is SQL's; a sort key says how strings compare with USING \(comparator) "
                     + "(comparators: \(FetchStatement.comparatorNames.joined(separator: ", ")))",
                     at: SourceRange(start: current.start, end: probe.current.kind == .end ? current.end : probe.current.end),
                     suggestion: "USING \(comparator)")
    }

    /// `LIMIT 10, 20`: SQLite's `LIMIT offset, count`. The current token is the comma.
    private func limitCommaError(first: Int) throws(ParseError) -> ParseError {
        var probe = self
        try probe.advance()
        let second = probe.current.kind == .integer ? probe.text(probe.current) : "n"
        return error(.unexpectedToken, "LIMIT takes one count; SQLite's LIMIT \(first), \(second) (skip \(first), then \(second)) is written LIMIT \(second) OFFSET \(first)",
                     at: current, expected: ["OFFSET"], suggestion: "LIMIT \(second) OFFSET \(first)")
    }

    /// A key path (`artist.name`, `tags.@count`, `%K`), as text. A reserved word other than
    /// SELF may start it (`SORT BY size`): only a key path can stand here.
    private mutating func parseKeyPathText(context: String) throws(ParseError) -> String {
        let start = current
        let expression: ExpressionNode
        if case .keyword(let keyword) = current.kind, keyword != .self, text(current).utf8.allSatisfy({ ByteClass.isIdentifierByte[Int($0)] }) {
            expression = try parseKeyPathFromReservedWord()
        } else {
            expression = try requireExpression(try parse(.or))
        }
        guard case .keyPath(nil, _) = expression.kind else {
            var suggestion: String?
            var message = "\(context) takes a key path, not '\(CanonicalPrinter.format(expression))'"
            switch expression.kind {
            case .constant(.string(let name)):
                // SQL's "2B" is a name; here it is a string.
                message += "; double quotes make a string here, and a key that is not a plain name is written with #"
                suggestion = CanonicalPrinter.formatKey(name)
            case .constant(.int):
                message += " (a column number is SQL's; name the key)"
            default:
                break
            }
            throw error(.unexpectedToken, message, at: expression.range ?? start.range, suggestion: suggestion)
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
            ? Suggestions.closest(to: word, in: allowed.map { $0.split(separator: " ").first.map(String.init) ?? $0 } + Keyword.spellings(.and, .or))
            : nil
        let isClauseWord = current.kind == .identifier && Parser.clauseWords.contains(word.uppercased())
        let message = isClauseWord
            ? "\(word.uppercased()) cannot come here (clauses go in the order \(allowed.joined(separator: ", ")))"
            : "expected \(allowed.joined(separator: ", ")) or the end of the statement, found \(describe(current))"
        return error(.unexpectedToken, message, at: current, expected: allowed + ["the end"], suggestion: suggestion)
    }
}
