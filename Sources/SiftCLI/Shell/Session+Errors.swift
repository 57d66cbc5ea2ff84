import Foundation
import Sift

/// Errors as a session prints them. Interactively: the statement, a caret under the column and
/// the message with its suggestion (as `sift parse` prints them), or `error: message`. In a
/// script or piped input, each error starts with `FILE:LINE:COLUMN: error:` (the line and column
/// in the input), and an error at a column shows the line and the caret after it.
///
/// A parse error has its column; an error the model or a store finds after parsing names the
/// key (`unknown key 'titel' on Note`) or the entity, and points where the statement writes it
/// (``KeyLocator``); any other error is at column 1, with no caret.
extension Session {
    func report(_ error: any Error, statement: String, location: StatementLocation?) {
        failed()
        let located = Self.located(error, in: statement)
        guard let name = sourceName else {
            guard let located else {
                output.message("error: \(Self.message(of: error))")
                return
            }
            if let location, location.texts.count > 1 {
                // A statement typed over several lines: the line the error is on, and where.
                let (line, column) = location.position(ofColumn: located.column)
                let index = location.lines.firstIndex(of: line) ?? 0
                output.message(Self.caretLine(location.texts[index], column: column) + "error: line \(index + 1), column \(column): \(located.message)")
            } else if let parseError = error as? ParseError {
                output.message(parseError.rendered())
            } else {
                output.message(Self.caretLine(statement, column: located.column) + "error: column \(located.column): \(located.message)")
            }
            return
        }
        let (line, lineColumn) = location?.position(ofColumn: located?.column ?? 1) ?? (0, located?.column ?? 1)
        var text = "\(name):\(line):\(lineColumn): error: "
        if let located {
            text += located.message
            if let location, let index = location.lines.firstIndex(of: line), location.texts.indices.contains(index) {
                text += "\n" + Self.caretLine(location.texts[index], column: lineColumn).dropLast()
            }
        } else {
            text += Self.message(of: error)
        }
        output.message(text)
    }

    /// The column of `statement` an error is at, and its message (with its suggestion): a parse
    /// error's own, or the place of the key or entity a store error names; nil for an error
    /// with no place in the statement.
    static func located(_ error: any Error, in statement: String) -> (column: Int, message: String)? {
        if let parseError = error as? ParseError {
            var message = parseError.message
            if let suggestion = parseError.suggestion { message += "; did you mean '\(suggestion)'?" }
            return (parseError.column, message)
        }
        let named: String?
        switch error {
        case let error as StoreError: named = error.code == .unknownEntity ? error.entity : error.key
        case let error as EvaluationError: named = error.keyPath
        default: named = nil
        }
        guard let named, let range = KeyLocator.range(ofKeyPath: named, in: statement) else { return nil }
        return (KeyLocator.column(ofOffset: range.start, in: statement), message(of: error))
    }

    /// A line of the statement and a caret under `column`, each ending in a newline.
    private static func caretLine(_ text: String, column: Int) -> String {
        let (line, caretColumn) = DiagnosticWindow.excerpt(text, column: column)
        return line + "\n" + String(repeating: " ", count: max(0, caretColumn - 1)) + "^\n"
    }

    /// An error's message, without a `column N:` prefix.
    static func message(of error: any Error) -> String {
        ErrorText.message(of: error)
    }
}
