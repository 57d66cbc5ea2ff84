import Foundation
import Sift

/// `$NAME` variables and `%@` arguments: `.set`, `.unset`, `.vars`, `.args`.
extension DotCommands {
    static let variableCommands: [DotCommand] = [
        DotCommand(
            name: "set", usage: ".set NAME JSON", summary: "Bind $NAME to a JSON value for the statements that follow",
            details: #"Typed values: {"$date": "2017-07-06T07:22:18Z"}, {"$uuid": ...}, {"$data": "<base64>"}, {"$decimal": "1.5"}, and {"$ref": "<object ID>"} for a stored object; any other object is a dictionary."#,
            example: #".set since {"$date": "2017-07-06T00:00:00Z"}"#, takesRawText: true
        ) { session, words in
            let parts = words.first?.split(maxSplits: 1, whereSeparator: { $0.isWhitespace }) ?? []
            guard parts.count == 2 else { throw usage("set") }
            var name = String(parts[0])
            if name.hasPrefix("$") { name.removeFirst() }
            guard !name.isEmpty else { throw usage("set") }
            let json = parts[1].trimmingCharacters(in: .whitespaces)
            session.variables[name] = (json, try argumentValue(json))
        },
        DotCommand(
            name: "unset", usage: ".unset NAME", summary: "Forget $NAME",
            example: ".unset since"
        ) { session, words in
            guard words.count == 1 else { throw usage("unset") }
            var name = words[0]
            if name.hasPrefix("$") { name.removeFirst() }
            guard session.variables.removeValue(forKey: name) != nil else { throw SessionError("$\(name) is not set") }
        },
        DotCommand(
            name: "vars", usage: ".vars", summary: "List the $variables and their values",
            example: ".vars"
        ) { session, words in
            guard words.isEmpty else { throw usage("vars") }
            for name in session.variables.keys.sorted() {
                session.output.write("$\(name) = \(session.variables[name]?.json ?? "")\n")
            }
        },
        DotCommand(
            name: "args", usage: ".args [JSON ...]", summary: "Set the values %@, %K, %d … take, in order (.args alone clears them)",
            details: #"Each value is JSON, the values separated by spaces: a key path for %K is a JSON string ("title"), a stored object {"$ref": "<object ID>"}."#,
            example: #".args "title" "star""#, takesRawText: true
        ) { session, words in
            session.arguments = try jsonTexts(in: words.first ?? "").map { ($0, try argumentValue($0)) }
        },
    ]

    /// The JSON values of a line, as written: separated by whitespace outside strings, arrays and
    /// objects (`"a b" [1, 2] {"$ref": "N1"}` is three).
    static func jsonTexts(in text: String) -> [String] {
        var texts: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        var escaped = false
        for character in text {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "[" || character == "{" {
                depth += 1
            } else if character == "]" || character == "}" {
                depth -= 1
            } else if character.isWhitespace && depth <= 0 {
                if !current.isEmpty { texts.append(current) }
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { texts.append(current) }
        return texts
    }

    /// A JSON text as an argument value (as `--arg` reads it).
    static func argumentValue(_ json: String) throws -> Any? {
        do {
            return try ArgumentValues.value(of: json)
        } catch {
            throw SessionError("'\(json)' is not a JSON value: \(error)")
        }
    }
}
