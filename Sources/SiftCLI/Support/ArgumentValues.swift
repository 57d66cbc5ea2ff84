import ArgumentParser

/// `--arg JSON` and `--var NAME=JSON` options, read into Swift values.
struct ArgumentValues {
    var arguments: [Any?] = []
    var variables: [String: Any?] = [:]

    init(arguments: [String], variables: [String]) throws {
        for (index, text) in arguments.enumerated() {
            do {
                let value = try JSONValue.parse(text).argumentValue()
                self.arguments.append(value)
            } catch {
                Output.error("error: --arg \(index + 1) ('\(text)'): \(error)")
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
                self.variables[name] = try JSONValue.parse(String(text[text.index(after: equals)...])).argumentValue()
            } catch {
                Output.error("error: --var \(name): \(error)")
                throw ExitCode(1)
            }
        }
    }
}
