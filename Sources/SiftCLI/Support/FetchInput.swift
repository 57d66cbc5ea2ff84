import ArgumentParser
import Foundation
import Sift

/// The fetch a command runs or prints: a statement or `--request FILE.json`, with `--arg` and
/// `--var` values (shared by `sift query`, `sift sql` and `sift explain`).
struct FetchInput: ParsableArguments {
    @Argument(help: "The fetch statement.")
    var statement: String?

    /// Words after the statement: the shell split an unquoted statement (an error that says to quote it).
    @Argument(help: .hidden)
    var splitWords: [String] = []

    @Option(help: ArgumentHelp("A JSON fetch request instead of a statement.", valueName: "FILE.json"))
    var request: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp("A JSON value for the next format specifier (repeatable).", valueName: "JSON"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("Bind $NAME to a JSON value (repeatable).", valueName: "NAME=JSON"))
    var variables: [String] = []

    func validate() throws {
        if let statement { try SplitStatement.check([statement], extra: splitWords) }
        if statement == nil && request == nil { throw ValidationError("give a fetch statement or --request FILE.json") }
        if statement != nil && request != nil { throw ValidationError("give a fetch statement or --request, not both") }
    }

    /// The values given, apart from the argument parser.
    var source: FetchSource { FetchSource(statement: statement, request: request, arguments: arguments, variables: variables) }

    func printWarnings(_ request: FetchRequest, on store: any PersistentStore) { source.printWarnings(request, on: store) }

    func makeRequest() throws -> FetchRequest { try source.makeRequest() }
}
