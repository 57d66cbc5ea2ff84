/// `--arg JSON` and `--var NAME=JSON` taken out of the command line before the argument parser
/// sees it: the parser takes time quadratic in the number of times an option repeats (10,000
/// `--arg` took 15 s), so past ``threshold`` of them they are read here, in one pass, in order,
/// and ``ArgumentValues`` takes them as if the parser had. Only for the commands whose
/// `--arg` and `--var` go to ``ArgumentValues`` (filter, query, update, delete, parse), and only
/// before a `--` that ends the options; a last `--arg` with no value stays for the parser to
/// report.
enum ArgumentPrescan {
    /// How many `--arg` and `--var` options the parser still reads itself.
    static let threshold = 64

    /// The commands whose `--arg` and `--var` ``ArgumentValues`` reads.
    static let commands: Set<String> = ["filter", "query", "update", "delete", "parse"]

    /// What was taken out, in order: `--arg` texts and `--var` texts.
    nonisolated(unsafe) static var arguments: [String] = []
    nonisolated(unsafe) static var variables: [String] = []

    /// Takes the options out of `command` (``extract(_:)``) into ``arguments`` and ``variables``.
    static func apply(_ command: [String]) -> [String] {
        let taken = extract(command)
        (arguments, variables) = (taken.arguments, taken.variables)
        return taken.rest
    }

    /// `command` without its `--arg` and `--var` options, and their texts in order, when it
    /// has more than ``threshold`` of them; else `command` as it is.
    static func extract(_ command: [String]) -> (rest: [String], arguments: [String], variables: [String]) {
        guard let name = command.first, commands.contains(name) else { return (command, [], []) }
        var count = 0
        for word in command where word == "--" || word == "--arg" || word == "--var" || word.hasPrefix("--arg=") || word.hasPrefix("--var=") {
            if word == "--" { break }
            count += 1
        }
        guard count > threshold else { return (command, [], []) }
        var rest: [String] = []
        var arguments: [String] = [], variables: [String] = []
        rest.reserveCapacity(command.count)
        var index = command.startIndex
        while index < command.endIndex {
            let word = command[index]
            if word == "--" {
                rest.append(contentsOf: command[index...])
                break
            }
            if (word == "--arg" || word == "--var"), index + 1 < command.endIndex {
                if word == "--arg" { arguments.append(command[index + 1]) } else { variables.append(command[index + 1]) }
                index += 2
                continue
            }
            if word.hasPrefix("--arg=") {
                arguments.append(String(word.dropFirst(6)))
            } else if word.hasPrefix("--var=") {
                variables.append(String(word.dropFirst(6)))
            } else {
                rest.append(word)
            }
            index += 1
        }
        return (rest, arguments, variables)
    }
}
