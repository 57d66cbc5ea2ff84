/// Whether input typed over several lines (a statement in the REPL or a script) is unfinished,
/// as the language's own lexer sees it: a string, parenthesis, brace or bracket left open, or a
/// last token that needs something after it — an operator, a comma or dot, `AND`, `OR`, `NOT`,
/// a comparison word (`BEGINSWITH`, `IN`, `BETWEEN`, with or without `[cd]`), a quantifier, or
/// a statement's clause word (`WHERE`, `BY`, `SET`, `FROM`, `HAVING`, `USING`, `AS`, …).
///
///     InputCompleteness.isUnfinished("Note WHERE title BEGINSWITH[c] ")   // true
///     InputCompleteness.isUnfinished("Note WHERE (a == 1")                 // true
///     InputCompleteness.isUnfinished("Note WHERE a == 1")                  // false
///
/// Text the lexer rejects for another reason counts as finished, so the parser reports it.
public enum InputCompleteness {
    public static func isUnfinished(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var lexer = Lexer(bytes: bytes, source: "")
            var depth = 0
            var tokens: [Token] = []
            while true {
                let token: Token
                do throws(ParseError) {
                    token = try lexer.next()
                } catch {
                    return error.code == .unterminatedString
                }
                if case .end = token.kind { break }
                switch token.kind {
                case .leftParen, .leftBrace, .leftBracket: depth += 1
                case .rightParen, .rightBrace, .rightBracket: depth -= 1
                default: break
                }
                tokens.append(token)
                if tokens.count > 3 { tokens.removeFirst() }
            }
            if depth > 0 { return true }
            guard let last = tokens.last else { return false }
            if needsOperand(last, bytes) { return true }
            // `BEGINSWITH[cd]`: options after a comparison still want its right side.
            if case .rightBracket = last.kind, tokens.count >= 3, case .identifier = tokens[tokens.count - 2].kind,
               case .leftBracket = tokens[tokens.count - 3].kind {
                return optionsFollowComparison(bytes, openingAt: tokens[tokens.count - 3].start)
            }
            return false
        }
    }

    /// Whether the token cannot end an expression or a statement.
    private static func needsOperand(_ token: Token, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch token.kind {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .bang, .ampAmp, .pipePipe,
             .plus, .minus, .star, .slash, .starStar, .amp, .pipe, .caret, .tilde, .shiftLeft, .shiftRight,
             .comma, .dot, .colon, .assign:
            return true
        case .keyword(let keyword):
            switch keyword {
            case .and, .or, .not, .in, .like, .matches, .contains, .beginsWith, .endsWith, .between,
                 .any, .all, .some, .none, .utiConformsTo, .utiEquals:
                return true
            default:
                return false
            }
        case .identifier:
            let word = String(decoding: bytes[token.start..<token.end], as: UTF8.self).uppercased()
            return clauseWords.contains(word)
        default:
            return false
        }
    }

    /// Statement words that a statement cannot end with.
    private static let clauseWords: Set<String> = [
        "WHERE", "BY", "SET", "FROM", "HAVING", "USING", "AS", "SELECT", "DISTINCT", "LIMIT", "OFFSET",
        "SORT", "ORDER", "SECTION", "GROUP", "UPDATE", "DELETE", "COUNT",
    ]

    /// Whether the `[` at `offset` follows a comparison operator (so `[c]` is its options).
    private static func optionsFollowComparison(_ bytes: UnsafeBufferPointer<UInt8>, openingAt offset: Int) -> Bool {
        var lexer = Lexer(bytes: bytes, source: "")
        var previous: Token?
        while let token = try? lexer.next() {
            if case .end = token.kind { return false }
            if token.start == offset {
                guard let previous else { return false }
                switch previous.kind {
                case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return true
                case .keyword(let keyword):
                    return [.like, .matches, .contains, .beginsWith, .endsWith, .in, .between].contains(keyword)
                default: return false
                }
            }
            previous = token
        }
        return false
    }
}
