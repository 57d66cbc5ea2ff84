/// Malformed JSON: what is wrong and where (1-based line and column, and the byte offset).
///
/// The column counts characters from the start of the line, so it matches what an editor shows
/// for text with non-ASCII characters.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong: `expected ':'`, `unterminated string`, `invalid ISO 8601 date 'x'`, ...
    public let message: String
    /// 1-based line.
    public let line: Int
    /// 1-based column, in characters.
    public let column: Int
    /// 0-based byte offset in the whole input.
    public let offset: Int

    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line L, column C: message`
    public var description: String { "line \(line), column \(column): \(message)" }
}
