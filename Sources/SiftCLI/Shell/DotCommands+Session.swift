import Foundation
import Sift

/// The session itself: `.read`, `.show`, `.help`, `.quit`.
extension DotCommands {
    static let sessionCommands: [DotCommand] = [
        DotCommand(
            name: "read", usage: ".read FILE", summary: "Run the statements and commands of a file",
            example: ".read Examples/report.sift"
        ) { session, words in
            guard words.count == 1 else { throw usage("read") }
            try session.read(file: words[0])
        },
        DotCommand(
            name: "show", usage: ".show", summary: "Show the store and the current settings",
            example: ".show"
        ) { session, words in
            guard words.isEmpty else { throw usage("show") }
            let s = session.settings
            let rows: [(String, String)] = [
                ("store", session.storeLabel.isEmpty ? "(none)" : session.storeLabel),
                ("use", session.entity ?? "(none)"),
                ("mode", s.mode.rawValue),
                ("headers", s.headers ? "on" : "off"),
                ("nullvalue", "\"\(s.nullValue)\""),
                ("limit", s.limit.map(String.init) ?? "0 (all)"),
                ("bail", s.bail ? "on" : "off"),
                ("echo", s.echo ? "on" : "off"),
                ("variables", session.variables.isEmpty ? "(none)" : session.variables.keys.sorted().map { "$" + $0 }.joined(separator: ", ")),
                ("args", session.arguments.isEmpty ? "(none)" : session.arguments.map(\.json).joined(separator: " ")),
            ]
            let width = rows.map(\.0.count).max() ?? 0
            for (name, value) in rows {
                session.output.write(String(repeating: " ", count: width - name.count) + name + ": " + value + "\n")
            }
        },
        DotCommand(
            name: "help", usage: ".help [COMMAND]", summary: "List the commands, or explain one",
            example: ".help mode"
        ) { session, words in
            guard words.count <= 1 else { throw usage("help") }
            if let word = words.first {
                let name = word.hasPrefix(".") ? String(word.dropFirst()) : word
                guard let command = named(name) else {
                    var message = "no command '.\(name)'"
                    if let suggestion = Suggestions.closest(to: name.lowercased(), in: all.map(\.name)) { message += "; did you mean '.\(suggestion)'?" }
                    throw SessionError(message)
                }
                var text = "\(command.usage)\n  \(command.summary).\n"
                if !command.details.isEmpty { text += "  \(command.details)\n" }
                if !command.aliases.isEmpty { text += "  Also: \(command.aliases.map { "." + $0 }.joined(separator: ", "))\n" }
                text += "  Example: \(command.example)\n"
                session.output.write(text)
                return
            }
            var text = """
                Statements: FETCH/COUNT/SELECT … (as sift query takes them), UPDATE … SET … WHERE …,
                DELETE FROM … WHERE …; after .use ENTITY, a bare predicate. A statement goes on
                over lines while it is unfinished; end it with ; or a blank line in scripts.

                """
            let width = all.map(\.usage.count).max() ?? 0
            for command in all {
                text += command.usage + String(repeating: " ", count: width - command.usage.count + 2) + command.summary + "\n"
            }
            session.output.write(text)
        },
        DotCommand(
            name: "quit", aliases: ["exit", "q"], usage: ".quit", summary: "Leave (Ctrl-D too)",
            example: ".quit"
        ) { session, words in
            guard words.isEmpty else { throw usage("quit") }
            session.quit()
        },
    ]
}
