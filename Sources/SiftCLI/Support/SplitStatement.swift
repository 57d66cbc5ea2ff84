import ArgumentParser
import Foundation

/// A statement or predicate the shell split into words because it was not quoted
/// (`sift query --store x.db Track WHERE Milliseconds > 5` gives `sift` the words `Track`,
/// `WHERE`, `Milliseconds`, and writes the output to a file named `5`). The commands that take
/// one catch the extra words (a hidden argument) and say to quote the statement, showing it
/// quoted, instead of the argument parser's "unexpected argument 'WHERE'".
enum SplitStatement {
    /// Throws when `extra` holds words after the statement's first (`words[0]`): the error names
    /// `what` was split and shows it as one quoted argument, followed by `after` (a file name
    /// the words ended with).
    static func check(_ words: [String], extra: [String], what: String = "statement", after: String? = nil) throws {
        guard !extra.isEmpty else { return }
        let all = words + extra
        let quoted = quote(all.joined(separator: " ")) + (after.map { " " + quote($0) } ?? "")
        throw ValidationError("""
            the \(what) came as \(all.count) arguments (\(all.map { "'\($0)'" }.joined(separator: " "))): the shell splits \
            unquoted text into words, and reads an unquoted > or < as a redirection and * as file names. \
            Quote the whole \(what), in single quotes so that its own double quotes stay:
              \(quoted)
            """)
    }

    /// A word as the shell reads it back as one argument: in single quotes, a single quote
    /// written '\''.
    static func quote(_ text: String) -> String {
        "'" + text.replacingScalar("'", with: #"'\''"#) + "'"
    }
}
