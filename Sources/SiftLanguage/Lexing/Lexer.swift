/// Splits a format string into tokens, working on its UTF-8 bytes.
///
/// The lexer is a small value: copying it is how the parser looks ahead. Values (numbers,
/// unescaped strings, keys) are decoded only when the parser asks for them.
struct Lexer {
    let bytes: UnsafeBufferPointer<UInt8>
    let source: String
    private(set) var position: Int = 0

    init(bytes: UnsafeBufferPointer<UInt8>, source: String) {
        self.bytes = bytes
        self.source = source
    }

    /// A lexer that starts at `position`, a token's start or its end (where text read before
    /// stopped).
    init(bytes: UnsafeBufferPointer<UInt8>, source: String, position: Int) {
        precondition(position >= 0 && position <= bytes.count, "a position inside the text")
        self.bytes = bytes
        self.source = source
        self.position = position
    }

    private func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

    private func error(
        _ code: ParseError.Code, _ message: String, at offset: Int, length: Int = 1, suggestion: String? = nil
    ) -> ParseError {
        ParseError(code, message, source: source, offset: offset, length: length, suggestion: suggestion)
    }

    /// The next token; `.end` at the end of the input (and forever after).
    mutating func next() throws(ParseError) -> Token {
        let count = bytes.count
        var i = position
        while i < count, ByteClass.table[Int(bytes[i])] == .space { i += 1 }
        guard i < count else {
            position = count
            return Token(kind: .end, start: count, end: count)
        }
        let start = i
        let b = bytes[i]
        func single(_ kind: Token.Kind) -> Token {
            position = start + 1
            return Token(kind: kind, start: start, end: start + 1)
        }
        func double(_ kind: Token.Kind) -> Token {
            position = start + 2
            return Token(kind: kind, start: start, end: start + 2)
        }
        let next = byte(i + 1)
        switch ByteClass.table[Int(b)] {
        case .space:
            preconditionFailure("whitespace was skipped")
        case .letter:
            return try lexWord(start: start)
        case .backslash:
            // An identifier that starts with a \uXXXX escape.
            if next == UInt8(ascii: "u") { return try lexWord(start: start) }
            throw error(.unexpectedCharacter, "unexpected '\\' outside a string", at: start)
        case .digit:
            return try lexNumber(start: start)
        case .quote:
            return try lexString(start: start)
        case .dollar:
            let end = try scanIdentifierBody(from: start + 1)
            guard end.end > start + 1 else {
                throw error(.unexpectedCharacter, "expected a variable name after '$'", at: start)
            }
            position = end.end
            return Token(kind: .variable, start: start, end: end.end, hasEscapes: end.escapes)
        case .hash:
            let end = try scanIdentifierBody(from: start + 1)
            guard end.end > start + 1 else {
                throw error(.unexpectedCharacter, "expected a key after '#' (as in #size)", at: start)
            }
            position = end.end
            return Token(kind: .escapedKey, start: start, end: end.end, hasEscapes: end.escapes)
        case .at:
            let end = try scanIdentifierBody(from: start + 1)
            guard end.end > start + 1 else {
                throw error(.unexpectedCharacter, "expected a key after '@' (as in @count)", at: start)
            }
            position = end.end
            return Token(kind: .atKey, start: start, end: end.end, hasEscapes: end.escapes)
        case .percent:
            return try lexFormatSpecifier(start: start)
        case .leftParen: return single(.leftParen)
        case .rightParen: return single(.rightParen)
        case .leftBrace: return single(.leftBrace)
        case .rightBrace: return single(.rightBrace)
        case .leftBracket: return single(.leftBracket)
        case .rightBracket: return single(.rightBracket)
        case .comma: return single(.comma)
        case .dot: return single(.dot)
        case .colon:
            return next == UInt8(ascii: "=") ? double(.assign) : single(.colon)
        case .equal:
            switch next {
            case UInt8(ascii: "="):
                if byte(i + 2) == UInt8(ascii: "=") {
                    throw error(.unexpectedToken, "'===' is not an operator", at: start, length: 3, suggestion: "==")
                }
                return double(.equal)
            case UInt8(ascii: "<"): return double(.lessEqual)
            case UInt8(ascii: ">"): return double(.greaterEqual)
            default: return single(.equal)
            }
        case .bang:
            return next == UInt8(ascii: "=") ? double(.notEqual) : single(.bang)
        case .less:
            switch next {
            case UInt8(ascii: "="): return double(.lessEqual)
            case UInt8(ascii: ">"): return double(.notEqual)
            case UInt8(ascii: "<"): return double(.shiftLeft)
            default: return single(.less)
            }
        case .greater:
            switch next {
            case UInt8(ascii: "="): return double(.greaterEqual)
            case UInt8(ascii: ">"): return double(.shiftRight)
            default: return single(.greater)
            }
        case .amp:
            return next == UInt8(ascii: "&") ? double(.ampAmp) : single(.amp)
        case .pipe:
            return next == UInt8(ascii: "|") ? double(.pipePipe) : single(.pipe)
        case .caret: return single(.caret)
        case .tilde: return single(.tilde)
        case .plus: return single(.plus)
        case .minus: return single(.minus)
        case .star:
            return next == UInt8(ascii: "*") ? double(.starStar) : single(.star)
        case .slash: return single(.slash)
        case .invalid:
            if b == UInt8(ascii: "?") {
                throw error(.unexpectedCharacter, "'?' is not allowed outside a string (use %@ for an argument)", at: start)
            }
            if b == UInt8(ascii: "`") { throw backtickError(at: start) }
            let shown = b < 0x20 || b == 0x7F ? "control character 0x\(String(b, radix: 16))" : "'\(Character(Unicode.Scalar(b)))'"
            throw error(.unexpectedCharacter, "unexpected \(shown)", at: start)
        case .nonASCII:
            let length = Lexer.utf8Length(leadByte: b)
            if let quote = curlyQuoteError(at: start, length: length) { throw quote }
            throw error(
                .unexpectedCharacter,
                "unexpected '\(String(decoding: bytes[start..<min(count, start + length)], as: UTF8.self))' outside a string; keys are ASCII (write other keys with %K or \\uXXXX escapes)",
                at: start, length: length)
        }
    }

    /// The first byte of the next token, without lexing it (0 at the end).
    private var nextTokenByte: (UInt8, UInt8) {
        var i = position
        while i < bytes.count, ByteClass.table[Int(bytes[i])] == .space { i += 1 }
        return (byte(i), byte(i + 1))
    }

    /// The next token is `(` or a `:` that is not `:=`: the identifier just read names a function.
    var nextByteStartsCall: Bool {
        let (b, after) = nextTokenByte
        return b == UInt8(ascii: "(") || (b == UInt8(ascii: ":") && after != UInt8(ascii: "="))
    }

    /// The next token is `.` or `[`: a postfix continues the operand just read.
    var nextByteStartsPostfix: Bool {
        let (b, _) = nextTokenByte
        return b == UInt8(ascii: ".") || b == UInt8(ascii: "[")
    }

    static func utf8Length(leadByte b: UInt8) -> Int {
        if b < 0xC0 { return 1 }
        if b < 0xE0 { return 2 }
        if b < 0xF0 { return 3 }
        return 4
    }

    /// Scans letters, digits, `_` and `\uXXXX` escapes from `from`; returns the end offset.
    private func scanIdentifierBody(from: Int) throws(ParseError) -> (end: Int, escapes: Bool) {
        var i = from
        var escapes = false
        let count = bytes.count
        while i < count {
            let b = bytes[i]
            if ByteClass.isIdentifierByte[Int(b)] {
                i += 1
            } else if b == UInt8(ascii: "\\") && byte(i + 1) == UInt8(ascii: "u") {
                guard i + 6 <= count, (2..<6).allSatisfy({ Lexer.hexValue(bytes[i + $0]) != nil }) else {
                    throw error(.invalidEscape, "expected four hex digits after '\\u'", at: i, length: 2)
                }
                escapes = true
                i += 6
            } else {
                break
            }
        }
        return (i, escapes)
    }

    private mutating func lexWord(start: Int) throws(ParseError) -> Token {
        let (end, escapes) = try scanIdentifierBody(from: start)
        position = end
        if !escapes {
            // UTI-CONFORMS-TO and UTI-EQUALS are single keywords containing hyphens.
            if end - start == 3, bytes[start] | 0x20 == UInt8(ascii: "u"), bytes[start + 1] | 0x20 == UInt8(ascii: "t"),
               bytes[start + 2] | 0x20 == UInt8(ascii: "i"), byte(end) == UInt8(ascii: "-")
            {
                for (suffixBytes, keyword) in Keyword.hyphenatedTails {
                    let suffixEnd = end + suffixBytes.count
                    if suffixEnd <= bytes.count,
                       zip(bytes[end..<suffixEnd], suffixBytes).allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0) == $1 }),
                       !ByteClass.isIdentifierByte[Int(byte(suffixEnd))]
                    {
                        position = suffixEnd
                        return Token(kind: .keyword(keyword), start: start, end: suffixEnd)
                    }
                }
            }
            if let keyword = Keyword.lookup(bytes, start, end) {
                return Token(kind: .keyword(keyword), start: start, end: end)
            }
        }
        return Token(kind: .identifier, start: start, end: end, hasEscapes: escapes)
    }

    private mutating func lexNumber(start: Int) throws(ParseError) -> Token {
        var i = start
        let count = bytes.count
        if bytes[i] == UInt8(ascii: "0"), i + 1 < count {
            let radixByte = bytes[i + 1] | 0x20
            let radix: Int? = radixByte == UInt8(ascii: "x") ? 16 : radixByte == UInt8(ascii: "o") ? 8 : radixByte == UInt8(ascii: "b") ? 2 : nil
            if let radix {
                i += 2
                let digitsStart = i
                while i < count, let v = Lexer.hexValue(bytes[i]), v < radix { i += 1 }
                if i == digitsStart || (i < count && ByteClass.isIdentifierByte[Int(bytes[i])]) {
                    throw error(.invalidNumber, "malformed base-\(radix) number", at: start, length: max(i, start + 2) - start + (i < count ? 1 : 0))
                }
                position = i
                return Token(kind: .integer, start: start, end: i)
            }
        }
        var isDouble = false
        while i < count, ByteClass.table[Int(bytes[i])] == .digit { i += 1 }
        if i + 1 < count, bytes[i] == UInt8(ascii: "."), ByteClass.table[Int(bytes[i + 1])] == .digit {
            isDouble = true
            i += 1
            while i < count, ByteClass.table[Int(bytes[i])] == .digit { i += 1 }
        }
        if i < count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            var j = i + 1
            if j < count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            let expStart = j
            while j < count, ByteClass.table[Int(bytes[j])] == .digit { j += 1 }
            if j == expStart {
                throw error(.invalidNumber, "expected digits in the exponent", at: start, length: j - start)
            }
            isDouble = true
            i = j
        }
        if i < count, ByteClass.table[Int(bytes[i])] == .letter {
            var end = i
            while end < count, ByteClass.isIdentifierByte[Int(bytes[end])] { end += 1 }
            let word = String(decoding: bytes[start..<end], as: UTF8.self)
            throw error(.invalidNumber, "a number cannot run into a name ('\(word)'); a key that starts with a digit is written #\(word)",
                        at: start, length: end - start, suggestion: "#\(word)")
        }
        position = i
        return Token(kind: isDouble ? .double : .integer, start: start, end: i)
    }

    private mutating func lexString(start: Int) throws(ParseError) -> Token {
        let quote = bytes[start]
        var i = start + 1
        var escapes = false
        let count = bytes.count
        while i < count {
            let b = bytes[i]
            if b == quote {
                position = i + 1
                return Token(kind: .string, start: start, end: i + 1, hasEscapes: escapes)
            }
            if b == UInt8(ascii: "\\") {
                escapes = true
                switch byte(i + 1) {
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "n"),
                     UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "0"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= count, (2..<6).allSatisfy({ Lexer.hexValue(bytes[i + $0]) != nil }) else {
                        throw error(.invalidEscape, "expected four hex digits after '\\u'", at: i, length: 2)
                    }
                    i += 6
                default:
                    // A backslash at the very end: the string is unterminated.
                    if i + 1 >= count { i = count; continue }
                    let length = Lexer.utf8Length(leadByte: bytes[i + 1])
                    throw error(
                        .invalidEscape,
                        "unknown escape '\\\(String(decoding: bytes[(i + 1)..<min(count, i + 1 + length)], as: UTF8.self))' (valid: \\\" \\' \\\\ \\n \\t \\r \\0 \\uXXXX)",
                        at: i, length: 1 + length)
                }
                continue
            }
            i += 1
        }
        if let curly = curlyCloser(from: start + 1, standingFor: quote == UInt8(ascii: "\"") ? "\"" : "'") {
            // "Hank” — a curly quote pasted where the closing quote should be.
            let content = bytes[(start + 1)..<curly.offset]
            throw error(.unterminatedString, "unterminated string: a curly quote '\(curly.text)' does not end it; use straight quotes",
                        at: curly.offset, length: curly.length,
                        suggestion: content.contains(UInt8(ascii: "\\")) ? nil : Lexer.straightQuoted(content))
        }
        throw error(.unterminatedString, "unterminated string: no closing \(quote == UInt8(ascii: "\"") ? "\"" : "'")", at: start)
    }

    private mutating func lexFormatSpecifier(start: Int) throws(ParseError) -> Token {
        var i = start + 1
        let count = bytes.count
        guard i < count else {
            throw error(.invalidFormatSpecifier, "a lone '%' (format specifiers are %@, %K, %d, %f, %s, ...)", at: start)
        }
        switch bytes[i] {
        case UInt8(ascii: "@"), UInt8(ascii: "K"):
            position = i + 1
            return Token(kind: .formatSpecifier, start: start, end: i + 1)
        case UInt8(ascii: "%"):
            position = i + 1
            return Token(kind: .percentPercent, start: start, end: i + 1)
        case UInt8(ascii: "k"):
            throw error(.invalidFormatSpecifier, "'%k' is not a format specifier (key paths are %K, upper-case)", at: start, length: 2, suggestion: "%K")
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "("), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // `x % 2`: SQL's remainder.
            throw error(.invalidFormatSpecifier, "'%' is not an operator here (it starts a format specifier: %@, %K, %d, ...); the remainder of x by y is modulus:by:(x, y)",
                        at: start)
        default:
            break
        }
        // printf-style: optional length modifier (h, hh, l, ll, q, z), then a conversion letter.
        while i < count, [UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "q"), UInt8(ascii: "z")].contains(bytes[i]), i - start <= 3 {
            i += 1
        }
        if i < count, FormatSpecifier.conversions.contains(bytes[i]) {
            position = i + 1
            return Token(kind: .formatSpecifier, start: start, end: i + 1)
        }
        let shownEnd = min(count, i + 1)
        throw error(
            .invalidFormatSpecifier,
            "unknown format specifier '\(String(decoding: bytes[start..<shownEnd], as: UTF8.self))' (valid: %@ %K %d %i %u %ld %lld %lu %f %lf %g %e %s %%)",
            at: start, length: shownEnd - start)
    }

    // MARK: SQL and word-processor habits

    /// Quotation marks a word processor puts in pasted text: `“ ” „ ‟ « » ″` stand for `"`,
    /// `‘ ’ ‚ ‛ ′` for `'`.
    static let curlyQuotes: [Unicode.Scalar: Character] = [
        "\u{201C}": "\"", "\u{201D}": "\"", "\u{201E}": "\"", "\u{201F}": "\"", "\u{00AB}": "\"", "\u{00BB}": "\"", "\u{2033}": "\"",
        "\u{2018}": "'", "\u{2019}": "'", "\u{201A}": "'", "\u{201B}": "'", "\u{2032}": "'",
    ]

    /// The curly quote that starts at `offset` (`length` bytes), if it is one.
    private func curlyQuote(at offset: Int, length: Int) -> (text: String, straight: Character)? {
        guard offset + length <= bytes.count else { return nil }
        let text = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
        guard let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1, let straight = Lexer.curlyQuotes[scalar] else { return nil }
        return (text, straight)
    }

    /// `“Hank”` outside a string: use straight quotes; the suggestion is the string with them
    /// when the closing curly quote is on the same line.
    private func curlyQuoteError(at start: Int, length: Int) -> ParseError? {
        guard let (text, straight) = curlyQuote(at: start, length: length) else { return nil }
        var suggestion: String?
        var i = start + length
        while i < bytes.count, bytes[i] != UInt8(ascii: "\n") {
            let size = Lexer.utf8Length(leadByte: bytes[i])
            if bytes[i] >= 0x80, let closer = curlyQuote(at: i, length: size), closer.straight == straight {
                suggestion = Lexer.straightQuoted(bytes[(start + length)..<i])
                break
            }
            i += size
        }
        return error(.unexpectedCharacter, "a curly quote '\(text)' (as pasted from a document) does not start a string; use straight quotes, \"...\" or '...'",
                     at: start, length: length, suggestion: suggestion ?? String(straight))
    }

    /// `"text"`, with `"` and `\` escaped.
    private static func straightQuoted(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var quoted = "\""
        for ch in String(decoding: text, as: UTF8.self) {
            if ch == "\"" || ch == "\\" { quoted.append("\\") }
            quoted.append(ch)
        }
        return quoted + "\""
    }

    /// The first curly quote standing for `straight` from `offset` to the end of the text, if any.
    private func curlyCloser(from offset: Int, standingFor straight: Character) -> (text: String, offset: Int, length: Int)? {
        var i = offset
        while i < bytes.count {
            let size = Lexer.utf8Length(leadByte: bytes[i])
            if bytes[i] >= 0x80, let quote = curlyQuote(at: i, length: size), quote.straight == straight { return (quote.text, i, size) }
            i += size
        }
        return nil
    }

    /// `` `2B` ``: MySQL's quoted name. A key that is not an identifier is written `#2B` here.
    private func backtickError(at start: Int) -> ParseError {
        var end = start + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
        let name = end < bytes.count && bytes[end] == UInt8(ascii: "`") ? String(decoding: bytes[(start + 1)..<end], as: UTF8.self) : ""
        let isKey = !name.isEmpty && name.utf8.allSatisfy { ByteClass.isIdentifierByte[Int($0)] }
        return error(.unexpectedCharacter, "backticks do not quote names here; a key that is not a plain name is written with # (#2B, #size) or bound with %K",
                     at: start, suggestion: isKey ? "#\(name)" : nil)
    }

    static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

/// The printf-style conversions a format string may use besides `%@` and `%K`.
enum FormatSpecifier {
    /// d i u x X o (integers), f F e E g G (doubles), s (a string), c (a character).
    static let conversions: Set<UInt8> = Set("diuxXofFeEgGsc".utf8)
    static let integerConversions: Set<UInt8> = Set("diuxXoc".utf8)
    static let doubleConversions: Set<UInt8> = Set("fFeEgG".utf8)
}
