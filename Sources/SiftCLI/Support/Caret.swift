/// An option's text on one line with a caret under a column, for errors in option values:
///
///     name DESC USING nonsense
///                     ^
///     error: --sort: column 17: unknown comparator 'nonsense'
enum Caret {
    static func rendered(_ text: String, column: Int, message: String) -> String {
        // Control characters (newlines, tabs) show as spaces so the caret lines up.
        let line = String(text.map { ch -> Character in
            ch.unicodeScalars.allSatisfy({ $0.value < 0x20 || $0.value == 0x7F }) ? " " : ch
        })
        let caret = String(repeating: " ", count: max(0, column - 1)) + "^"
        return "\(line)\n\(caret)\n\(message)"
    }
}
