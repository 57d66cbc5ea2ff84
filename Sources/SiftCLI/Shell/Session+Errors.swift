import Foundation
import Sift

/// Errors as a session prints them. Interactively: the statement, a caret under the column and
/// the message with its suggestion (as `sift parse` prints them), or `error: message`. In a
/// script or piped input, each error starts with `FILE:LINE:COLUMN: error:` (the line and column
/// in the input), and a parse error shows the line and the caret after it.
extension Session {
    func report(_ error: any Error, statement: String, location: StatementLocation?) {
        failed()
        let parseError = error as? ParseError
        guard let name = sourceName else {
            if let parseError, let location, location.texts.count > 1 {
                // A statement typed over several lines: the line the error is on, and where.
                let (line, column) = location.position(ofColumn: parseError.column)
                let index = location.lines.firstIndex(of: line) ?? 0
                var message = parseError.message
                if let suggestion = parseError.suggestion { message += "; did you mean '\(suggestion)'?" }
                output.message(location.texts[index] + "\n" + String(repeating: " ", count: max(0, column - 1)) + "^\n"
                               + "error: line \(index + 1), column \(column): \(message)")
            } else if let parseError {
                output.message(parseError.rendered())
            } else {
                output.message("error: \(Self.message(of: error))")
            }
            return
        }
        let column = parseError?.column ?? 1
        let (line, lineColumn) = location?.position(ofColumn: column) ?? (0, column)
        var text = "\(name):\(line):\(lineColumn): error: "
        if let parseError {
            text += parseError.message
            if let suggestion = parseError.suggestion { text += "; did you mean '\(suggestion)'?" }
            if let location, let index = location.lines.firstIndex(of: line), location.texts.indices.contains(index) {
                text += "\n" + location.texts[index] + "\n" + String(repeating: " ", count: max(0, lineColumn - 1)) + "^"
            }
        } else {
            text += Self.message(of: error)
        }
        output.message(text)
    }

    /// An error's message, without a `column N:` prefix.
    static func message(of error: any Error) -> String {
        ErrorText.message(of: error)
    }
}
