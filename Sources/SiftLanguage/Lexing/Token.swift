/// A token: its kind and its byte range in the format string.
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        case end
        /// `name`, possibly with `\uXXXX` escapes (then ``Token/hasEscapes`` is set).
        case identifier
        /// A reserved word (case-insensitive).
        case keyword(Keyword)
        /// `#name`: a key spelt like a reserved word.
        case escapedKey
        /// `@name`: a key such as `@count`.
        case atKey
        /// `$name`.
        case variable
        case integer
        case double
        /// `"..."` or `'...'`.
        case string
        /// `%@ %K %d %i %u %ld %lld %lu %f %lf %g %e %s ...`; the conversion letter is the last byte.
        case formatSpecifier
        /// `%%`: a literal percent sign, meaningful only inside a string.
        case percentPercent
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
        case comma, dot, colon
        /// `:=`
        case assign
        /// `==` or `=`
        case equal
        /// `!=` or `<>`
        case notEqual
        case less
        /// `<=` or `=<`
        case lessEqual
        case greater
        /// `>=` or `=>`
        case greaterEqual
        /// `!`
        case bang
        /// `&&`
        case ampAmp
        /// `||`
        case pipePipe
        case plus, minus, star, slash, starStar, amp, pipe, caret, tilde, shiftLeft, shiftRight
    }

    var kind: Kind
    var start: Int
    var end: Int
    /// An identifier, key or variable with `\uXXXX` escapes, or a string with backslash escapes.
    var hasEscapes: Bool = false

    var range: SourceRange { SourceRange(start: start, end: end) }
}
