import Foundation
import Sift

/// The session itself: `.read`, `.print`, `.show`, `.help`, `.quit`.
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
            name: "print", usage: ".print [TEXT ...]", summary: "Print TEXT (a script's headings between results; .print alone: an empty line)",
            details: "The rest of the line is printed as it is written, where results go (standard output, or where .output sends them).",
            example: ".print Notes by category:", takesRawText: true
        ) { session, words in
            session.output.write((words.first ?? "") + "\n")
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
                ("width", s.widths.isEmpty ? "(as wide as the values)" : s.widths.map(String.init).joined(separator: " ")),
                ("x", s.expanded.rawValue),
                ("relationships", s.relationships.rawValue),
                ("output", session.commandState.outputFile ?? "stdout"),
                ("bail", s.bail ? "on" : "off"),
                ("echo", s.echo ? "on" : "off"),
                ("timer", s.timer ? "on" : "off"),
                ("sql", s.showSQL ? "on" : "off"),
                ("eqp", s.showPlan ? "on" : "off"),
                ("engine", s.engine.rawValue),
                ("variables", session.variables.isEmpty ? "(none)" : session.variables.keys.sorted().map { "$" + $0 }.joined(separator: ", ")),
                ("args", session.arguments.isEmpty ? "(none)" : session.arguments.map(\.json).joined(separator: " ")),
            ]
            let width = rows.map(\.0.count).max() ?? 0
            for (name, value) in rows {
                session.output.write(String(repeating: " ", count: width - name.count) + name + ": " + value + "\n")
            }
        },
        DotCommand(
            name: "help", usage: ".help [COMMAND|TOPIC]", summary: "List the commands, or explain one (its usage, what it does, an example) or a topic",
            details: "Topics: " + helpTopics.map(\.name).joined(separator: ", ") + ".",
            example: ".help engine"
        ) { session, words in
            guard words.count <= 1 else { throw usage("help") }
            guard let word = words.first else {
                var text = helpIntroduction + "\n"
                let width = all.map(\.usage.count).max() ?? 0
                for command in all {
                    text += command.usage + String(repeating: " ", count: width - command.usage.count + 2) + command.summary + "\n"
                }
                text += "\n.help COMMAND explains a command, with an example; .help " + helpTopics.map(\.name).joined(separator: ", .help ") + " explain the rest.\n"
                session.output.write(text)
                return
            }
            let name = word.hasPrefix(".") ? String(word.dropFirst()) : word
            if let topic = helpTopics.first(where: { $0.name == name.lowercased() }) {
                session.output.write(topic.text())
                return
            }
            guard let command = named(name) else {
                var message = "no command or topic '\(name)'"
                if let suggestion = Suggestions.closest(to: name.lowercased(), in: all.map(\.name)) {
                    message += "; did you mean '.\(suggestion)'?"
                } else if let suggestion = Suggestions.closest(to: name.lowercased(), in: helpTopics.map(\.name)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw SessionError(message)
            }
            var text = "\(command.usage)\n" + wrapped(command.summary + ".")
            if !command.details.isEmpty { text += wrapped(command.details) }
            if !command.aliases.isEmpty { text += "  Also: \(command.aliases.map { "." + $0 }.joined(separator: ", "))\n" }
            text += "  Example: \(command.example)\n"
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

    /// What `.help` says before the list of commands.
    static let helpIntroduction = """
        Statements: FETCH/COUNT/SELECT … (as sift query takes them), UPDATE … SET … WHERE …,
        DELETE FROM … WHERE …; after .use ENTITY, a bare predicate. A statement goes on
        over lines while it is unfinished; end it with ; or a blank line in scripts.

        """

    /// What `.help TOPIC` explains besides the commands.
    static let helpTopics: [(name: String, text: @Sendable () -> String)] = [
        ("statements", { """
            [FETCH] Entity [WHERE predicate] [SORT BY key [ASC|DESC] [USING comparator], ...]
                [SECTION BY keypath] [LIMIT n] [OFFSET n]
            COUNT Entity [WHERE predicate]
            SELECT [DISTINCT] * | expression [AS name], ... FROM Entity [WHERE predicate]
                [GROUP BY expression, ...] [HAVING predicate] [SORT BY ...] [LIMIT n] [OFFSET n]
            [UPDATE] Entity SET key = expression, ... [WHERE predicate]
            [DELETE [FROM]] Entity [WHERE predicate]
            After .use ENTITY: a predicate alone fetches ENTITY (paged by .limit).
            %@, %K, %d … take the .args values in order; $NAME takes the .set value.
            Example: Note WHERE title BEGINSWITH[cd] "my" SORT BY updatedAt DESC

            """ }),
        ("examples", { """
            The seed apps are built in, as SQLite stores in memory (changes last until the session
            ends). sift alone opens example; .open NAME opens one of them:

            """ + ExampleStores.listing() }),
        ("values", { """
            .set, .args, --var and the JSON of .request take JSON values, and these for the rest:
              {"$date": "2017-07-06T07:22:18Z"}   a date (ISO 8601)
              {"$uuid": "…"}                      a UUID
              {"$data": "<base64>"}               binary data
              {"$decimal": "1.5"}                 a decimal number
              {"$ref": "N1"}                      the stored object with that ID
            Any other object is a dictionary: x IN $d tests its values, $d['key'] reads a key.
            Example: .set since {"$date": "2017-07-06T00:00:00Z"}

            """ }),
    ]

    /// Text wrapped at 96 columns, each line indented two spaces.
    static func wrapped(_ text: String, width: Int = 96) -> String {
        var out = ""
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width - 2 {
                out += "  " + line + "\n"
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { out += "  " + line + "\n" }
        return out
    }
}
