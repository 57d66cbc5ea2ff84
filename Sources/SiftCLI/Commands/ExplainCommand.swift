import ArgumentParser
import Foundation
import Sift

/// `sift explain`: a fetch's SQL and bindings, and the database's query plan for it.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Print the SQL a fetch runs on a SQLite or PostgreSQL store, its bindings and the database's query plan.",
        discussion: """
            Prints what 'sift sql' prints, then SQLite's EXPLAIN QUERY PLAN as sqlite3's .eqp shows it: SEARCH means an index is used, SCAN a whole table is read. On a PostgreSQL database (postgres://…) the plan is PostgreSQL's EXPLAIN, as psql prints it. Nothing is fetched. The store must be a SQLite store (.sqlite or .db, or a file SQLite's header shows) or a PostgreSQL database.

            Examples:
              $ sift explain --store notes.sqlite 'Note WHERE title BEGINSWITH "A"'
              $ sift explain --store notes.sqlite 'Note WHERE category.name == %@' --arg '"Work"'
              $ sift explain --store postgres://me@localhost/notes 'Note WHERE category.name == "Work"'

            Output:
              SELECT ... WHERE "t0"."title" >= ?1 AND "t0"."title" < ?2 ...
                ?1 = 'A'
                ?2 = 'B'
              QUERY PLAN
              `--SEARCH t0 USING INDEX ... (title>? AND title<?)
            """
    )

    @Option(help: ArgumentHelp("The SQLite store (.sqlite or .db) or PostgreSQL database (postgres://…).", valueName: "STORE"))
    var store: String

    @OptionGroup var fetch: FetchInput

    @OptionGroup var readOnly: ReadOnlyOption

    @OptionGroup var coreDataModel: CoreDataModelOption

    func run() throws {
        let request = try fetch.makeRequest()
        let store = try StoreFile.openSQLStore(self.store, command: "explain", readOnly: readOnly.isOn, model: coreDataModel.path)
        fetch.printWarnings(request, on: store)
        let generated = try GeneratedSQLOutput.generated(store, request)
        let plan: [String]
        do {
            plan = try store.queryPlan(for: request)
        } catch {
            Output.error("error: \(GeneratedSQLOutput.message(error))")
            throw ExitCode(1)
        }
        print(generated.description)
        print("QUERY PLAN")
        if store.plansAsSQLiteSteps {
            print(GeneratedSQLOutput.tree(plan), terminator: "")
        } else {
            for line in plan { print(line) }
        }
    }
}
