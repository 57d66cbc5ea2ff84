/// The class of each byte, looked up in a 256-entry table (as SQLite's tokenizer does), so the
/// lexer dispatches on one load instead of a chain of comparisons.
enum ByteClass: UInt8 {
    case space, letter, digit, quote, dollar, percent, at, hash, backslash
    case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
    case comma, dot, colon, equal, bang, less, greater, amp, pipe, caret, tilde
    case plus, minus, star, slash
    /// `?`, `;`, backtick and other ASCII punctuation with no meaning.
    case invalid
    /// A byte of a multi-byte UTF-8 character (not allowed outside quotes).
    case nonASCII

    static let table: [ByteClass] = {
        var table = [ByteClass](repeating: .invalid, count: 256)
        for b in 0x80...0xFF { table[b] = .nonASCII }
        for b in [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D] { table[b] = .space }
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(b)] = .letter }
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(b)] = .letter }
        table[Int(UInt8(ascii: "_"))] = .letter
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(b)] = .digit }
        let punctuation: [(Character, ByteClass)] = [
            ("\"", .quote), ("'", .quote), ("$", .dollar), ("%", .percent), ("@", .at), ("#", .hash),
            ("\\", .backslash), ("(", .leftParen), (")", .rightParen), ("{", .leftBrace),
            ("}", .rightBrace), ("[", .leftBracket), ("]", .rightBracket), (",", .comma), (".", .dot),
            (":", .colon), ("=", .equal), ("!", .bang), ("<", .less), (">", .greater), ("&", .amp),
            ("|", .pipe), ("^", .caret), ("~", .tilde), ("+", .plus), ("-", .minus), ("*", .star),
            ("/", .slash),
        ]
        for (ch, cls) in punctuation { table[Int(ch.asciiValue!)] = cls }
        return table
    }()

    /// Letters, digits and `_`: the bytes that continue an identifier.
    static let isIdentifierByte: [Bool] = (0..<256).map { b in
        let cls = table[b]
        return cls == .letter || cls == .digit
    }
}
