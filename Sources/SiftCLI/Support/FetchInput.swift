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

    /// Prints the request's warnings (``WarningText``) on standard error, with a caret under
    /// the statement's column.
    func printWarnings(_ request: FetchRequest, on store: any PersistentStore) {
        WarningText.print(request, on: store, source: statement, file: self.request)
    }

    /// The fetch request, or an error printed (with a caret under a parse error) and exit 1.
    func makeRequest() throws -> FetchRequest {
        if let request {
            guard let data = FileManager.default.contents(atPath: request) else {
                Output.error("error: cannot read \(request)")
                throw ExitCode(1)
            }
            do {
                return try FetchRequest(json: data)
            } catch let error as ParseError {
                Output.error("error: \(request): predicate: " + error.rendered())
                throw ExitCode(1)
            } catch {
                Output.error("error: \(request): \(ErrorText.message(of: error))")
                throw ExitCode(1)
            }
        }
        let values = try ArgumentValues(arguments: arguments, variables: variables)
        do {
            return try FetchRequest(statement: statement ?? "", arguments: values.arguments, variables: values.variables)
        } catch let error as ParseError {
            Output.error(error.rendered())
            throw ExitCode(1)
        } catch {
            Output.error("error: \(ErrorText.message(of: error))")
            throw ExitCode(1)
        }
    }
}
