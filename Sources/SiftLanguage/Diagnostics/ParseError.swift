/// An error in a format string: what is wrong, where (1-based column and byte offset), the
/// offending token, what was expected, and a suggestion where one helps.
///
/// `description` is one line (`column 12: unknown operator 'BEGINSWTH'; did you mean 'BEGINSWITH'?`);
/// ``rendered(prefix:)`` adds the format string and a caret under the column.
public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of error this is. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case unexpectedCharacter, unterminatedString, invalidEscape, invalidNumber
            case unexpectedToken, unexpectedEnd, notAPredicate, notAnExpression
            case unknownOption, unknownFunction, wrongArgumentCount, unknownCastType
            case missingArgument, unusedArguments, invalidArgument, invalidFormatSpecifier
            case nestingTooDeep, chainedComparison, unsupported, invalidKey, tooLong
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A byte that cannot start a token (`?`, `;`, a non-ASCII letter outside quotes, ...).
        public static let unexpectedCharacter = Code(.unexpectedCharacter)
        /// A string literal with no closing quote.
        public static let unterminatedString = Code(.unterminatedString)
        /// A backslash escape that is not one of `\" \' \\ \n \t \r \0 \uXXXX`.
        public static let invalidEscape = Code(.invalidEscape)
        /// A malformed number (`0x`, `1e`).
        public static let invalidNumber = Code(.invalidNumber)
        /// A token where it cannot stand.
        public static let unexpectedToken = Code(.unexpectedToken)
        /// The format string ended too early.
        public static let unexpectedEnd = Code(.unexpectedEnd)
        /// An expression where a predicate is needed (`"name"` alone, `a AND 1`).
        public static let notAPredicate = Code(.notAPredicate)
        /// A predicate where an expression is needed (`(a == 1) + 2`).
        public static let notAnExpression = Code(.notAnExpression)
        /// An option letter other than `c d n l`.
        public static let unknownOption = Code(.unknownOption)
        /// A function name that is not in ``FunctionCatalog``.
        public static let unknownFunction = Code(.unknownFunction)
        /// A known function called with the wrong number of arguments.
        public static let wrongArgumentCount = Code(.wrongArgumentCount)
        /// A CAST to a type name Sift does not know.
        public static let unknownCastType = Code(.unknownCastType)
        /// A `%@`, `%K`, `%d`, ... with no argument left to bind.
        public static let missingArgument = Code(.missingArgument)
        /// More arguments than format specifiers.
        public static let unusedArguments = Code(.unusedArguments)
        /// An argument of a type the specifier cannot take.
        public static let invalidArgument = Code(.invalidArgument)
        /// `%k`, `%z`, or `%%` outside a string.
        public static let invalidFormatSpecifier = Code(.invalidFormatSpecifier)
        /// Nesting deeper than ``ParserOptions/maximumNestingLevel``.
        public static let nestingTooDeep = Code(.nestingTooDeep)
        /// `a < b < c`: comparisons do not associate.
        public static let chainedComparison = Code(.chainedComparison)
        /// A reserved construct Sift parses but does not support (`FETCH(...)`, `ANYKEY`).
        public static let unsupported = Code(.unsupported)
        /// A key that cannot be used (empty component in a `%K` key path, a bare reserved word).
        public static let invalidKey = Code(.invalidKey)
        /// A format string longer than ``ParserOptions/maximumLength``.
        public static let tooLong = Code(.tooLong)

        public var description: String { value.rawValue }
    }

    /// The fields live in one shared box so that a thrown error is a single pointer: typed
    /// throws reserve room for the error at every call site, and the parser recurses.
    private final class Storage: Sendable {
        let code: Code
        let message: String
        let offset: Int
        let column: Int
        let token: String
        let expected: [String]
        let suggestion: String?
        let source: String

        init(code: Code, message: String, offset: Int, column: Int, token: String, expected: [String], suggestion: String?, source: String) {
            self.code = code; self.message = message; self.offset = offset; self.column = column
            self.token = token; self.expected = expected; self.suggestion = suggestion; self.source = source
        }
    }

    private let storage: Storage

    public var code: Code { storage.code }
    /// What is wrong, in one sentence (no position).
    public var message: String { storage.message }
    /// 0-based byte offset into the UTF-8 format string.
    public var offset: Int { storage.offset }
    /// 1-based column, counted in characters.
    public var column: Int { storage.column }
    /// The offending token as written (empty at the end of the input).
    public var token: String { storage.token }
    /// What the parser expected there, if it can say.
    public var expected: [String] { storage.expected }
    /// A nearby correct word for a misspelt keyword, operator, option or function.
    public var suggestion: String? { storage.suggestion }
    /// The format string the error is in.
    public var source: String { storage.source }

    init(
        _ code: Code, _ message: String, source: String, offset: Int, length: Int,
        expected: [String] = [], suggestion: String? = nil
    ) {
        let utf8 = source.utf8
        let clampedOffset = max(0, min(offset, utf8.count))
        let start = utf8.index(utf8.startIndex, offsetBy: clampedOffset)
        let end = utf8.index(start, offsetBy: max(0, min(length, utf8.count - clampedOffset)))
        // Count characters up to the offset; an offset inside a character counts that character.
        let column = Substring(utf8[utf8.startIndex..<start]).count + 1
        storage = Storage(
            code: code, message: message, offset: clampedOffset, column: column,
            token: String(Substring(utf8[start..<end])), expected: expected, suggestion: suggestion, source: source)
    }

    public static func == (a: ParseError, b: ParseError) -> Bool {
        a.code == b.code && a.message == b.message && a.offset == b.offset && a.token == b.token
            && a.expected == b.expected && a.suggestion == b.suggestion && a.source == b.source
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(offset)
    }

    /// `column N: message; did you mean 'X'?`
    public var description: String {
        var text = "column \(column): \(message)"
        if let suggestion { text += "; did you mean '\(suggestion)'?" }
        return text
    }

    /// The format string on one line, a caret under the column, and the message:
    ///
    ///     name BEGINSWTH "a"
    ///          ^
    ///     error: column 6: expected a comparison operator, found 'BEGINSWTH'; did you mean 'BEGINSWITH'?
    ///
    /// Long format strings are cut to a window around the column.
    public func rendered(prefix: String = "error: ") -> String {
        let (line, caretColumn) = DiagnosticWindow.excerpt(source, column: column)
        let caret = String(repeating: " ", count: caretColumn - 1) + "^"
        return "\(line)\n\(caret)\n\(prefix)\(description)"
    }
}

/// Cuts a long format string to a window around a column, on one line, for display. Only the
/// characters up to the window's end are read, and only the window's are kept, so a format
/// string of any length costs one pass and a hundred characters. (The CLI shows warnings with
/// it too.)
public enum DiagnosticWindow {
    /// The most characters a window shows (with a `…` at either end where the text goes on).
    public static let width = 100

    /// The text of `source` around the 1-based `column` on one line (control characters shown
    /// as spaces), and the column of the same character in that line, for a caret under it.
    public static func excerpt(_ source: String, column: Int) -> (line: String, column: Int) {
        // One line: control characters (newlines, tabs) show as spaces so the caret lines up.
        func shown(_ ch: Character) -> Character {
            ch.unicodeScalars.allSatisfy({ $0.value < 0x20 || $0.value == 0x7F }) ? " " : ch
        }
        let half = width / 2
        let wantedStart = max(0, column - 1 - half)
        // The `width` characters before `wantedStart` (a ring), and up to `width + 1` from it.
        var before: [Character] = []
        before.reserveCapacity(min(width, wantedStart))
        var ringStart = 0
        var after: [Character] = []
        var index = 0
        for ch in source {
            if index < wantedStart {
                if before.count < width {
                    before.append(shown(ch))
                } else {
                    before[ringStart] = shown(ch)
                    ringStart = (ringStart + 1) % width
                }
            } else {
                after.append(shown(ch))
                if after.count > width { break }
            }
            index += 1
        }
        let earlier = Array(before[ringStart...] + before[..<ringStart])
        if wantedStart == 0 && after.count <= width { return (String(after), column) }
        let startIndex: Int
        var characters: [Character]
        var cutAtEnd = false
        if after.count > width {
            startIndex = wantedStart
            characters = Array(after.prefix(width))
            cutAtEnd = true
        } else {
            // Near the end: the window ends with the text, and starts earlier.
            let fill = min(width - after.count, earlier.count)
            startIndex = wantedStart - fill
            characters = Array(earlier.suffix(fill)) + after
        }
        var line = String(characters)
        var caretColumn = column - startIndex
        if startIndex > 0 { line = "…" + line; caretColumn += 1 }
        if cutAtEnd { line += "…" }
        return (line, caretColumn)
    }
}
