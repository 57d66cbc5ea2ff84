/// Where a key is written in a statement or predicate, for errors found after parsing — by the
/// model or a store (`unknown key 'titel' on Note`, `cannot sort Note on 'tags'`) — which name
/// the key but not where it stands:
///
///     notes.sift:3:24: error: unknown key 'titel' on Note; did you mean 'title'?
///     Note WHERE a == 1 AND titel BEGINSWITH "x"
///                           ^
public enum KeyLocator {
    /// The UTF-8 byte range of the first place in `text` where the key path `keyPath` (keys
    /// separated by dots, as the model names them: `titel`, `category.nme`, `2B`) is written
    /// as consecutive keys — plain (`titel`), escaped (`#2B`), a collection operator (`@count`)
    /// or a reserved word after a dot — in a key position (not a string, a variable or a
    /// function's name); nil when it is not there. Only the text before a lexical error is read.
    public static func range(ofKeyPath keyPath: String, in text: String) -> SourceRange? {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.isEmpty, !keys.contains(where: \.isEmpty) else { return nil }
        var source = text
        source.makeContiguousUTF8()
        return source.utf8.withContiguousStorageIfAvailable { bytes -> SourceRange? in
            var lexer = Lexer(bytes: bytes, source: source)
            // Each token as a key (nil when it cannot be one), and whether it is a dot.
            var tokens: [(token: Token, key: String?)] = []
            while let token = try? lexer.next(), token.kind != .end {
                tokens.append((token, key(token, lexer: lexer, calls: lexer.nextByteStartsCall)))
            }
            for start in tokens.indices where tokens[start].key == keys[0] {
                var index = start
                var matched = 1
                while matched < keys.count, index + 2 < tokens.count, tokens[index + 1].token.kind == .dot,
                      tokens[index + 2].key == keys[matched] {
                    index += 2
                    matched += 1
                }
                if matched == keys.count { return SourceRange(start: tokens[start].token.start, end: tokens[index].token.end) }
            }
            return nil
        } ?? nil
    }

    /// The key a token names where a key can stand.
    private static func key(_ token: Token, lexer: Lexer, calls: Bool) -> String? {
        switch token.kind {
        case .identifier:
            if calls { return nil }
            return try? lexer.identifierText(token.start, token.end, escapes: token.hasEscapes)
        case .escapedKey:
            return try? lexer.identifierText(token.start + 1, token.end, escapes: token.hasEscapes)
        case .atKey:
            return try? lexer.identifierText(token.start, token.end, escapes: token.hasEscapes)
        case .keyword:
            // After a dot, or where only a key path can stand (SORT BY size): as written.
            return String(decoding: lexer.bytes[token.start..<token.end], as: UTF8.self)
        default:
            return nil
        }
    }

    /// The 1-based column (in characters) of a byte offset in `text`.
    public static func column(ofOffset offset: Int, in text: String) -> Int {
        let utf8 = text.utf8
        let end = utf8.index(utf8.startIndex, offsetBy: max(0, min(offset, utf8.count)))
        return Substring(utf8[utf8.startIndex..<end]).count + 1
    }
}
