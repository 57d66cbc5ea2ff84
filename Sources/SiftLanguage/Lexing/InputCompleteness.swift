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
        var tracker = Tracker()
        return tracker.append(text)
    }

    /// Completeness of input that arrives a line at a time, in time linear in the input: each
    /// line is lexed once (where ``isUnfinished(_:)`` on the text so far lexed every line
    /// again, quadratic over a 20,000-line statement). Only an unterminated string is read
    /// again, from its start, when the next line comes.
    public struct Tracker: Sendable {
        /// The lines so far, joined by newlines.
        private var text: [UInt8] = []
        /// Where lexing goes on: the end of the last whole token (a token never spans the
        /// newline between two lines, except a string).
        private var resume = 0
        private var depth = 0
        /// The last four tokens (offsets into `text`).
        private var recent: [Token] = []
        private var stringIsOpen = false
        private var lexerFailed = false

        public init() {}

        /// Whether the input is unfinished after the lines appended so far.
        public private(set) var isUnfinished = false

        /// How many bytes the lexer has walked over in all (a token cut by a line's end, or a
        /// string left open, is walked again on the next line); the whole text once give or
        /// take, never the text again for every line.
        private(set) var bytesLexed = 0

        /// Adds the next line (joined to the text before by a newline) and says whether the
        /// input is unfinished now.
        @discardableResult
        public mutating func append(_ line: String) -> Bool {
            if !text.isEmpty || resume > 0 { text.append(UInt8(ascii: "\n")) }
            text.append(contentsOf: line.utf8)
            guard !lexerFailed else { return false }
            isUnfinished = text.withUnsafeBufferPointer { lex($0) }
            return isUnfinished
        }

        private mutating func lex(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let start = resume
            var lexer = Lexer(bytes: bytes, source: "", position: start)
            defer { bytesLexed += lexer.position - start }
            stringIsOpen = false
            while true {
                let token: Token
                do throws(ParseError) {
                    token = try lexer.next()
                } catch {
                    // Text the lexer rejects for another reason counts as finished, so the
                    // parser reports it; an open string waits for its next line.
                    if error.code == .unterminatedString {
                        stringIsOpen = true
                        return true
                    }
                    lexerFailed = true
                    return false
                }
                if case .end = token.kind { break }
                switch token.kind {
                case .leftParen, .leftBrace, .leftBracket: depth += 1
                case .rightParen, .rightBrace, .rightBracket: depth -= 1
                default: break
                }
                recent.append(token)
                if recent.count > 4 { recent.removeFirst() }
                resume = token.end
            }
            if depth > 0 { return true }
            guard let last = recent.last else { return false }
            if InputCompleteness.needsOperand(last, bytes) { return true }
            // `BEGINSWITH[cd]`: options after a comparison still want its right side.
            if case .rightBracket = last.kind, recent.count >= 3, case .identifier = recent[recent.count - 2].kind,
               case .leftBracket = recent[recent.count - 3].kind {
                return recent.count >= 4 && InputCompleteness.isComparison(recent[recent.count - 4])
            }
            return false
        }
    }

    /// Whether the token cannot end an expression or a statement.
    fileprivate static func needsOperand(_ token: Token, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
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
            case .caseInsensitive, .ci, .null, .nil, .self, .true, .yes, .false, .no, .first, .last, .size, .anyKey,
                 .subquery, .fetch, .cast, .truePredicate, .falsePredicate, .function, .ternary:
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
    private static let clauseWords = Set(StatementWord.spellings { $0.needsWhatFollows })

    /// Whether a token is a comparison operator, so `[c]` after it is its options.
    fileprivate static func isComparison(_ token: Token) -> Bool {
        switch token.kind {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return true
        case .keyword(let keyword):
            return keyword.comparisonOperator.map(ComparisonOperator.common.contains) ?? false
        default: return false
        }
    }
}
