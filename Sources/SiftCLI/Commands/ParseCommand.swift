import ArgumentParser
import Foundation
import Sift

/// `sift parse`: prints a predicate's canonical form or its AST as JSON.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse a predicate and print its canonical form (or its AST as JSON).",
        discussion: """
            --arg binds %@, %K and printf-style specifiers (%d, %f, %s, ...) in order; each is a JSON value (a JSON string for %K is the key path). --var binds $NAME. Dates are written {"$date": "<ISO 8601>"}; also {"$uuid": ...}, {"$data": "<base64>"}, {"$decimal": "1.5"}. Any other JSON object is a dictionary: SELF IN %@ tests its values, %@['key'] reads a key.

            Examples:
              $ sift parse 'name = "Ann" or age >= 30 and age =< 40'
              name == "Ann" OR age >= 30 AND age <= 40

              $ sift parse '%K BEGINSWITH[cd] %@' --arg '"title"' --arg '"star"'
              title BEGINSWITH[cd] "star"

              $ sift parse 'released > $since' --var 'since={"$date": "2001-01-02T00:00:00Z"}'
              released > CAST(86400.0, "NSDate")

              $ sift parse 'ANY tags.name IN %@' --arg '["sci-fi", "drama"]' --json

            On an error, sift prints the predicate, a caret under the column and the message, and exits with status 1.
            """
    )

    @Argument(help: "The predicate format string.")
    var predicate: String

    /// Words after the predicate: the shell split an unquoted predicate (an error that says to quote it).
    @Argument(help: .hidden)
    var splitWords: [String] = []

    @Option(name: .customLong("arg"), help: ArgumentHelp("A JSON value for the next format specifier (repeatable).", valueName: "JSON"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("Bind $NAME to a JSON value (repeatable).", valueName: "NAME=JSON"))
    var variables: [String] = []

    @Flag(name: .long, help: "Print the AST as JSON instead of the canonical form.")
    var json = false

    func validate() throws {
        try SplitStatement.check([predicate], extra: splitWords, what: "predicate")
    }

    func run() throws {
        let values = try ArgumentValues(arguments: arguments, variables: variables)
        let parsed: PredicateNode
        do {
            parsed = try PredicateNode(format: predicate, arguments: values.arguments)
        } catch {
            Output.error(error.rendered())
            throw ExitCode(1)
        }
        let result: PredicateNode
        do {
            result = try values.variables.isEmpty ? parsed : parsed.substituting(variables: values.variables)
        } catch {
            Output.error("error: \(error)")
            throw ExitCode(1)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            do {
                let data = try encoder.encode(result)
                Output.write(String(decoding: data, as: UTF8.self))
            } catch {
                Output.error("error: the AST cannot be written as JSON: \(error)")
                throw ExitCode(1)
            }
        } else {
            Output.write(result.description)
        }
    }
}
