/// A reserved word written where a key is meant (`size > 3`, `cast.name`, `first == 1`,
/// `NOT == 1`) is an error, as in Apple's parser; the error says how to write the key:
///
///     size > 3
///     ^
///     error: column 1: 'size' is a reserved word; write #size to use it as a key
///
/// A word no expression starts with (`FIRST`, `LAST`, `SIZE`, `CI`) is a key wherever an
/// expression would start. A word that starts a construct (`NOT`, `ANY`, `TRUEPREDICATE`,
/// `CAST`, ...) or an operator word standing where an operand is (`IN`, `LIKE`, `AND`) is taken
/// for a key only when what follows it cannot continue the construct but can follow a key: a
/// `.` or `[`, a comparison operator, an arithmetic operator (for `CAST`, `SUBQUERY`, `TERNARY`,
/// `FUNCTION` and `FETCH`: anything but their parenthesis). So real syntax (`a IN b`,
/// `ANY x == 1`, `NOT -x > 0`, `CAST(x, "NSDate")`) is never taken for a key. After a dot,
/// reserved words are keys (`a.size`), so nothing here applies there.
extension Parser {
    /// The error for the reserved word `token` standing where a key is meant.
    func reservedWordAsKey(_ token: Token) -> ParseError {
        let word = text(token)
        return error(.invalidKey, "'\(word)' is a reserved word; write #\(word) to use it as a key", at: token, expected: ["a key"])
    }

    /// Whether the current token, a reserved word, is used as a key: the token after it can
    /// follow a key and cannot follow the word itself. `takesOperand` says the word is a prefix
    /// (`NOT`, `ANY`, ...), which a unary minus may follow (`NOT -x > 0`). A word that is not
    /// spelt like a key (`UTI-EQUALS`) never is one.
    func reservedWordStandsAsKey(takesOperand: Bool) throws(ParseError) -> Bool {
        guard text(current).utf8.allSatisfy({ ByteClass.isIdentifierByte[Int($0)] }) else { return false }
        let next = try peek().kind
        switch next {
        case .dot, .leftBracket:
            return true
        case let kind where kind.isComparisonToken:
            return true
        case .minus:
            return !takesOperand
        default:
            return next.binaryOperator != nil
        }
    }
}
