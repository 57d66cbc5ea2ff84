import Foundation
import Sift

/// How wide results are: `.width`, `.x`.
extension DotCommands {
    static let displayCommands: [DotCommand] = [
        DotCommand(
            name: "width", usage: ".width [N ...]", summary: "Set the widths of table, box and markdown columns (0: as wide as the values)",
            details: "One number a column, from the first: a column set to N cells is padded to N and its longer text is cut with '…' (never a number: the column widens to its widest number; in markdown mode nothing is cut); columns without a number, or 0, are as wide as their widest value in the first 100 rows. .width alone makes every column automatic again. On a terminal, a table wider than the terminal prints as vertical records (.x auto), or, with .x off, has the text of its widest columns cut to fit.",
            example: ".width 0 0 20"
        ) { session, words in
            var widths: [Int] = []
            for word in words {
                guard let width = Int(word), width >= 0 else { throw usage("width") }
                guard width <= GridLayout.widest else {
                    throw SessionError(".width: \(width) cells is wider than a column can be (at most \(GridLayout.widest))")
                }
                widths.append(width)
            }
            while widths.last == 0 { widths.removeLast() }
            session.settings.widths = widths
        },
        DotCommand(
            name: "x", aliases: ["expanded"], usage: ".x [on|off|auto]", summary: "Print table, box and markdown results as vertical records",
            details: "on: each record as a '-[ RECORD 1 ]' rule and one 'key | value' line per column, as psql's \\x prints them; auto (the default): only when a table would be wider than the terminal (never in markdown mode); off: tables, the text of their widest columns cut to fit a terminal (numbers are never cut). .x alone switches between on and off.",
            example: ".x auto"
        ) { session, words in
            guard words.count <= 1 else { throw usage("x") }
            guard let word = words.first else {
                session.settings.expanded = session.settings.expanded == .on ? .off : .on
                return
            }
            switch word.lowercased() {
            case "on", "yes", "true", "1": session.settings.expanded = .on
            case "off", "no", "false", "0": session.settings.expanded = .off
            case "auto": session.settings.expanded = .auto
            default: throw usage("x")
            }
        },
    ]
}
