import ArgumentParser
import Foundation
import Sift

/// `sift sql`: the SQL a fetch on a SQLite or PostgreSQL store runs, with its bindings, without
/// running it.
struct SQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Print the SQL a fetch runs on a SQLite or PostgreSQL store, and its bindings, without running it.",
        discussion: """
            The fetch is given as for 'sift query' (a statement or --request FILE.json, with --arg and --var). Output: the SQL, then one '  ?N = value' line per bound parameter (every constant is bound; nothing from the statement is pasted into the SQL), then '-- then in memory: ...' when part of the predicate (or the sort) runs in the evaluator on the rows SQL returns. The store must be a SQLite store (.sqlite or .db, or a file SQLite's header shows) or a PostgreSQL database (postgres://… or a libpq key=value string; placeholders are then $N).

            Examples:
              $ sift sql --store notes.sqlite 'Note WHERE title BEGINSWITH "A" SORT BY title'
              $ sift sql --store notes.sqlite 'COUNT Note WHERE ANY tags.name == %@' --arg '"Family"'
              $ sift sql --store chinook.db 'Artist WHERE albums.@count > 3'
              $ sift sql --store postgres://me@localhost/notes 'Note WHERE title CONTAINS "tea"'
            """
    )

    @Option(help: ArgumentHelp("The SQLite store (.sqlite or .db) or PostgreSQL database (postgres://…).", valueName: "STORE"))
    var store: String

    @OptionGroup var fetch: FetchInput

    @OptionGroup var readOnly: ReadOnlyOption

    @OptionGroup var coreDataModel: CoreDataModelOption

    func run() throws {
        let request = try fetch.makeRequest()
        let store = try StoreFile.openSQLStore(self.store, command: "sql", readOnly: readOnly.isOn, model: coreDataModel.path)
        fetch.printWarnings(request, on: store)
        let generated = try GeneratedSQLOutput.generated(store, request)
        print(generated.description)
    }
}
