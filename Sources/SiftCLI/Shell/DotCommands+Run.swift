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
        DotCommand(
            name: "watch", usage: ".watch STATEMENT", summary: "Keep a fetch's results on screen, drawn again as the store changes, until Ctrl-C",
            details: """
                The statement must fetch objects with SORT BY (SECTION BY makes sections). The results are drawn again each time a save in this session or another process's commit changes them (SQLite, JSON, plist and PostgreSQL stores: docs/LIVE-RESULTS.md), with a first column ± marking the rows the change inserted (+), updated (*) or moved (>); on a terminal the screen is cleared first and the marked rows are coloured. Ctrl-C returns to the prompt.
                """,
            example: ".watch Note SORT BY category.name, title SECTION BY category.name",
            takesRawText: true
        ) { session, words in
            guard let text = words.first else { throw usage("watch") }
            guard let store = session.store else { throw SessionError("no store is open (.open FILE opens one)") }
            guard let interrupter = session.activeInterrupter else {
                throw SessionError(".watch runs until Ctrl-C, so only in an interactive session or a script run from a terminal")
            }
            let watch = try LiveWatch(session: session, store: store, request: session.fetchRequest(text))
            session.interruptEndsQuietly = true
            try watch.run { interrupter.waitForInterrupt() }
        },
    ]
}
