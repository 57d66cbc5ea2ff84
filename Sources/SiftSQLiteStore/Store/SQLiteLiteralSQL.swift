import SiftSQL
import SiftSQLStore
import SiftSQLite

/// SQLite SQL with its bound values written in: each `?N` placeholder replaced by its value as a
/// SQLite literal, so the statement runs as it is in `sqlite3` (the REPL's `.sql on`), and the
/// names of the functions and collations Sift registers (`sift_…`) that the statement calls,
/// which `sqlite3` does not have.
///
///     SQLiteLiteralSQL.inlining(#"SELECT count(*) FROM "t" WHERE "name" = ?1"#, [.text("O'Brien")])
///     // SELECT count(*) FROM "t" WHERE "name" = 'O''Brien'
///
/// Placeholders are found as SQLite's tokenizer finds them: never inside a string literal, an
/// identifier quoted in double quotes, brackets or backquotes, or a comment.
public enum SQLiteLiteralSQL {
    /// `sql` with every `?N` (and bare `?`, numbered as SQLite numbers it) replaced by the
    /// literal of `bindings[N - 1]`; a placeholder without a value is left as it is.
    public static func inlining(_ sql: String, _ bindings: [SQLValue]) -> String {
        var result = ""
        var next = 1
        scan(sql) { token in
            switch token {
            case .placeholder(let number, let text):
                let index = number ?? next
                next = max(next, index + 1)
                result += bindings.indices.contains(index - 1) ? literal(bindings[index - 1]) : String(text)
            case .word(let text), .other(let text):
                result += text
            }
        }
        return result
    }

    /// The Sift functions and collations `sql` calls (words beginning `sift_`, outside strings,
    /// quoted identifiers and comments), lowercased, in the order first seen, without repeats.
    public static func siftFunctions(in sql: String) -> [String] {
        var names: [String] = []
        scan(sql) { token in
            if case .word(let text) = token, text.lowercased().hasPrefix("sift_"), !names.contains(text.lowercased()) {
                names.append(text.lowercased())
            }
        }
        return names
    }

    /// A value as SQLite reads it back as the same value: `NULL`, an integer, a real with
    /// enough digits (never one SQLite would read as an integer), `'text'` with `'` doubled,
    /// `X'…'`. A NaN is `NULL` (as SQLite binds it), an infinity `9e999` or `-9e999`; text
    /// holding a NUL character is `CAST(X'…' AS TEXT)`.
    public static func literal(_ value: SQLValue) -> String {
        switch value {
        case .null, .integer, .blob:
            return value.description
        case .real(let double):
            if double.isNaN { return "NULL" }
            if double.isInfinite { return double < 0 ? "-9e999" : "9e999" }
            let text = "\(double)"
            return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        case .text(let text):
            guard text.utf8.contains(0) else { return value.description }
            return "CAST(\(SQLValue.blob(Array(text.utf8)).description) AS TEXT)"
        }
    }

    /// What the scanner meets.
    private enum Token {
        /// `?N` (`number` N) or a bare `?` (nil), and its text.
        case placeholder(number: Int?, text: Substring)
        /// A bare word (a keyword, a function's or an identifier's name).
        case word(Substring)
        /// Anything else, quoted text and comments included, as it is.
        case other(Substring)
    }

    /// Calls `body` with the tokens of `sql` that matter here, in order; their texts make up
    /// `sql` whole.
    private static func scan(_ sql: String, _ body: (Token) -> Void) {
        let text = Substring(sql)
        var index = text.startIndex
        func isWordCharacter(_ c: Character) -> Bool { c == "_" || c == "$" || c.isLetter || c.isNumber }
        while index < text.endIndex {
            let start = index
            let character = text[index]
            switch character {
            case "'", "\"", "`":
                // Up to the closing quote; a doubled quote is one quote in the text.
                index = text.index(after: index)
                while index < text.endIndex {
                    if text[index] == character {
                        let after = text.index(after: index)
                        if after < text.endIndex && text[after] == character {
                            index = text.index(after: after)
                            continue
                        }
                        index = after
                        break
                    }
                    index = text.index(after: index)
                }
                body(.other(text[start..<index]))
            case "[":
                index = text[index...].firstIndex(of: "]").map { text.index(after: $0) } ?? text.endIndex
                body(.other(text[start..<index]))
            case "-" where text[index...].hasPrefix("--"):
                index = text[index...].firstIndex(of: "\n") ?? text.endIndex
                body(.other(text[start..<index]))
            case "/" where text[index...].hasPrefix("/*"):
                index = text[text.index(index, offsetBy: 2)...].firstRange(of: "*/")?.upperBound ?? text.endIndex
                body(.other(text[start..<index]))
            case "?":
                index = text.index(after: index)
                let digits = text[index...].prefix { $0.isASCII && $0.isNumber }
                index = digits.endIndex
                // A number too large for any binding is left as it is (0 names none).
                body(.placeholder(number: digits.isEmpty ? nil : Int(digits) ?? 0, text: text[start..<index]))
            case _ where isWordCharacter(character):
                index = text[index...].firstIndex { !isWordCharacter($0) } ?? text.endIndex
                body(.word(text[start..<index]))
            default:
                index = text.index(after: index)
                body(.other(text[start..<index]))
            }
        }
    }
}
