/// The commonest one-shot command, `sift query --store STORE 'STATEMENT'` (with `--output
/// FORMAT` or `--read-only`, in any order), read without swift-argument-parser.
///
/// The parser builds each command's arguments by reflection, which in a process that runs one
/// query costs more than the query: about 4 ms of a 15 ms date-range count on an indexed
/// column, where sqlite3 takes 9 ms in all (issue 28 §4). Any other command line, or one of
/// these with anything else in it (another option, `--`, a repeated option, a value that starts
/// with `-`, a second positional word, an output format `sift query` refuses), goes to the
/// parser, which reports what is wrong. `QuickQueryTests` requires the same
/// ``QueryInvocation`` the parser gives for every line read here.
enum QuickQuery {
    /// The invocation `arguments` (the command line without the program's name) asks for, or
    /// nil when they are not that simple form.
    static func invocation(_ arguments: [String]) -> QueryInvocation? {
        guard arguments.first == "query" else { return nil }
        var store: String?, statement: String?, output: OutputFormat?, readOnly = false
        var index = 1
        /// The value of `--name VALUE` or `--name=VALUE` at `index`, or nil.
        func value(of name: String) -> String? {
            let word = arguments[index]
            if word == name {
                guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") else { return nil }
                index += 1
                return arguments[index]
            }
            guard word.hasPrefix(name + "=") else { return nil }
            return String(word.dropFirst(name.count + 1))
        }
        while index < arguments.count {
            let word = arguments[index]
            if word.hasPrefix("--store") {
                guard store == nil, let given = value(of: "--store"), !given.isEmpty else { return nil }
                store = given
            } else if word.hasPrefix("--output") {
                guard output == nil, let given = value(of: "--output").flatMap(OutputFormat.init(rawValue:)),
                      given != .indices else { return nil }
                output = given
            } else if word == "--read-only" {
                guard !readOnly else { return nil }
                readOnly = true
            } else {
                guard statement == nil, !word.hasPrefix("-"), !word.isEmpty else { return nil }
                statement = word
            }
            index += 1
        }
        guard let store, let statement else { return nil }
        var invocation = QueryInvocation(store: store, source: FetchSource(statement: statement))
        invocation.readOnly = readOnly
        if let output { invocation.output = output }
        return invocation
    }
}
