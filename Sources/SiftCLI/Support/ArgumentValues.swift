import ArgumentParser
import Foundation
import Sift

/// `--arg JSON` and `--var NAME=JSON` options, read into Swift values with the library's JSON
/// parser (so `2` is an integer, `2.0` a double, and the typed forms `{"$date": ...}`,
/// `{"$uuid": ...}`, `{"$data": ...}`, `{"$decimal": ...}` are dates, UUIDs, data and decimals;
/// `{"$ref": "<object ID>"}` is a stored object, for `sift query`; any other object is a
/// dictionary).
struct ArgumentValues {
    var arguments: [Any?] = []
    var variables: [String: Any?] = [:]

    init(arguments: [String], variables: [String]) throws {
        // Those read before the parser, when there were many (ArgumentPrescan).
        let arguments = arguments + ArgumentPrescan.arguments
        let variables = variables + ArgumentPrescan.variables
        for (index, text) in arguments.enumerated() {
            do {
                self.arguments.append(try Self.value(of: text))
            } catch {
                Output.error("error: --arg \(index + 1) (\(Self.excerpt(text))): \(ErrorText.message(of: error))")
                throw ExitCode(1)
            }
        }
        for text in variables {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                Output.error("error: --var '\(text)': expected NAME=JSON")
                throw ExitCode(1)
            }
            var name = String(text[..<equals])
            if name.hasPrefix("$") { name.removeFirst() }
            do {
                self.variables[name] = try Self.value(of: String(text[text.index(after: equals)...]))
            } catch {
                Output.error("error: --var \(name): \(ErrorText.message(of: error))")
                throw ExitCode(1)
            }
        }
    }

    /// An argument's text for a message: quoted, a long one cut to its start.
    static func excerpt(_ text: String) -> String {
        text.count > 60 ? "'\(text.prefix(60))…', \(text.utf8.count) bytes" : "'\(text)'"
    }

    /// The Swift value of one JSON text: `nil`, Bool, Int64, Double, String, Date, UUID, Data,
    /// Decimal, an array of these, or a dictionary (as the expression it binds to).
    static func value(of text: String) throws -> Any? {
        try argumentValue(try JSONParser.parse(text))
    }

    static func argumentValue(_ value: Value) throws(ArgumentError) -> Any? {
        do throws(JSONArguments.Failure) {
            return try JSONArguments.argument(value)
        } catch {
            throw ArgumentError(error.description)
        }
    }
}

struct ArgumentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
