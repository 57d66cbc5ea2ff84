import ArgumentParser
import Sift

/// `sift`: the root command.
public struct SiftCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sift",
        abstract: "NSPredicate queries for Linux: parse, filter, import, fetch and change with Apple's predicate language.",
        discussion: """
            Examples:
              sift parse 'title beginswith[cd] "star" and year > 1970'
              sift parse 'name == %@ AND age > %@' --arg '"Ann"' --arg 30
              sift parse 'date > $since' --var 'since={"$date": "2021-03-04T05:06:07Z"}' --json
              sift filter 'age >= 30 AND name BEGINSWITH[c] "a"' people.jsonl
              sift filter 'ANY tags == %@' people.json --arg '"admin"' --sort 'age DESC' --output table
              sift import --store notes.json --model Examples/Notes/model.json Examples/Notes/data.json
              sift query --store notes.json 'Note WHERE ANY tags.name == "Family" SORT BY updatedAt DESC' --output table
              sift update --store notes.json 'Note SET title = uppercase:(title) WHERE category.name == "Work"'
              sift delete --store notes.json 'Note WHERE updatedAt < %@' --arg '{"$date": "2017-07-07T00:00:00Z"}'
              sift watch --store notes.sqlite 'Note SORT BY category.name, title SECTION BY category.name'
              sift schema --store notes.json
              sift sql --store notes.sqlite 'Note WHERE title BEGINSWITH "A"'
              sift explain --store notes.sqlite 'Note WHERE title BEGINSWITH "A"'
              sift completions zsh > ~/.zfunc/_sift
            """,
        version: SiftVersion.current,
        subcommands: [REPLCommand.self, RunCommand.self, ParseCommand.self, FilterCommand.self, ImportCommand.self, QueryCommand.self, UpdateCommand.self,
                      DeleteCommand.self, WatchCommand.self, SchemaCommand.self, SQLCommand.self, ExplainCommand.self, CompletionsCommand.self]
    )

    public init() {}

    /// Runs `sift` with the process's arguments: `sift` alone and `sift STORE [STATEMENT]` are
    /// `sift repl`, the rest goes to the subcommands.
    public static func mainWithShortcuts() {
        do throws(ArgumentBytes.NotText) {
            try ArgumentBytes.check()
        } catch {
            Output.error("error: \(error)")
            exit(withError: ExitCode.validationFailure)
        }
        let given = Array(CommandLine.arguments.dropFirst())
        if let query = QuickQuery.invocation(given) {
            MemoryBudget.applyDefault()
            run(query.run)
        }
        let arguments = ArgumentPrescan.apply(shortcutArguments(given))
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        MemoryBudget.applyDefault()
        run { try command.run() }
    }

    /// Runs a parsed command and exits with its status.
    private static func run(_ command: () throws -> Void) -> Never {
        do {
            try command()
        } catch let error as ExitCode {
            exit(withError: error)
        } catch let error as CleanExit {
            exit(withError: error)
        } catch where ErrorText.isKnown(error) {
            // Commands report their own errors; one that escapes is still said in words.
            Output.error("error: \(ErrorText.message(of: error))")
            exit(withError: ExitCode(1))
        } catch {
            // The argument parser's (help, usage) and validation errors.
            exit(withError: error)
        }
        exit()
    }

    /// `sift` → `sift repl`; `sift STORE …` → `sift repl --store STORE …`; `sift --read-only
    /// STORE …` (as `sqlite3 -readonly FILE`) → `sift repl --read-only --store STORE …`.
    static func shortcutArguments(_ arguments: [String]) -> [String] {
        if arguments.first == "--read-only", arguments.count > 1, !arguments[1].hasPrefix("-") {
            let rest = shortcutArguments(Array(arguments.dropFirst()))
            if rest.first == "repl" { return ["repl", "--read-only"] + rest.dropFirst() }
        }
        guard let first = arguments.first else { return ["repl"] }
        let names = Set(configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])
        if first.hasPrefix("-") || names.contains(first) { return arguments }
        return ["repl", "--store", first] + arguments.dropFirst()
    }
}
