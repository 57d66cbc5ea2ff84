import Foundation
import Sift

/// How statements run: `.limit`, `.bail`, `.echo`.
extension DotCommands {
    static let runCommands: [DotCommand] = [
        DotCommand(
            name: "limit", usage: ".limit N", summary: "Fetch N objects for a bare predicate, and say how many more there are (0: all)",
            example: ".limit 20"
        ) { session, words in
            guard words.count == 1, let n = Int(words[0]), n >= 0 else { throw usage("limit") }
            session.settings.limit = n == 0 ? nil : n
        },
        DotCommand(
            name: "bail", usage: ".bail on|off", summary: "Stop at the first error (scripts then exit with status 1)",
            example: ".bail on"
        ) { session, words in
            session.settings.bail = try flag(words, "bail")
        },
        DotCommand(
            name: "echo", usage: ".echo on|off", summary: "Print each statement and command before running it",
            example: ".echo on"
        ) { session, words in
            session.settings.echo = try flag(words, "echo")
        },
    ]
}
