import ArgumentParser
import Foundation
import Sift

/// The fetch a command runs or prints, as given: a statement or `--request FILE.json`, with
/// `--arg` and `--var` values (``FetchInput`` parses them; ``QuickQuery`` reads the simplest
/// command lines without the parser).
struct FetchSource: Equatable {
    var statement: String?
    var request: String?
    var arguments: [String] = []
    var variables: [String] = []

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
