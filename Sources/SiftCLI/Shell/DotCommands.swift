import Foundation
import Sift

/// A dot command: its name, how it is used, what it does (one line, for `.help`, and more, for
/// `.help NAME`), an example, and its action on a session with the words after its name.
struct DotCommand: Sendable {
    let name: String
    var aliases: [String] = []
    let usage: String
    let summary: String
    var details: String = ""
    let example: String
    /// The command takes the rest of its line as typed, as one word (none when empty): JSON
    /// values keep their quotes, text its spacing and apostrophes.
    var takesRawText = false
    let run: @Sendable (Session, [String]) throws -> Void
}

/// The dot commands and how a line becomes one: `.name word "quoted words" 'or these'`.
enum DotCommands {
    /// Every dot command, as `.help` lists them.
    static let all: [DotCommand] = storeCommands + outputCommands + displayCommands + runCommands + inspectCommands
        + fileCommands + variableCommands + sessionCommands

    static func named(_ name: String) -> DotCommand? {
        let lowered = name.lowercased()
        return all.first { $0.name == lowered || $0.aliases.contains(lowered) }
    }

    /// Runs a dot command line; an unknown command suggests the one meant.
    static func run(_ line: String, in session: Session) throws {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.split(maxSplits: 1, whereSeparator: { $0.isWhitespace }).first else { return }
        let name = String(first.dropFirst())
        let rest = trimmed.dropFirst(first.count).trimmingCharacters(in: .whitespaces)
        guard let command = named(name) else {
            var message = "unknown command '.\(name)'"
            if let suggestion = Suggestions.closest(to: name.lowercased(), in: all.flatMap { [$0.name] + $0.aliases }) {
                message += "; did you mean '.\(suggestion)'?"
            } else {
                message += " (.help lists the commands)"
            }
            throw SessionError(message)
        }
        try command.run(session, command.takesRawText ? (rest.isEmpty ? [] : [rest]) : try split(rest))
    }

    /// A command line's words: separated by spaces, with `"…"` and `'…'` quoting (a backslash
    /// escapes the next character inside double quotes).
    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if let open = quote {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else if character == open {
                    quote = nil
                } else {
                    current.append(character)
                }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if quote != nil { throw SessionError("unterminated quote in '\(line)'") }
        if inWord { words.append(current) }
        return words
    }

    /// The error for a command given the wrong words.
    static func usage(_ command: String) -> SessionError {
        SessionError("usage: \(named(command)?.usage ?? "." + command)")
    }

    /// `on` or `off` (also `yes`/`no`, `true`/`false`, `1`/`0`).
    static func flag(_ words: [String], _ command: String) throws -> Bool {
        guard words.count == 1 else { throw usage(command) }
        switch words[0].lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: throw usage(command)
        }
    }
}
