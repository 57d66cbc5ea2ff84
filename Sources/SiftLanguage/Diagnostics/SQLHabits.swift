/// What a user of sqlite3 or psql types by habit, and what this language writes instead: the
/// errors a SQL user meets first say what to write (issue 28), as exactly as the text allows.
///
///     People WHERE lower(nameFirst) == "hank"
///                  ^
///     error: column 14: unknown function 'lower' (SQL's lower(x) is lowercase:(x) here); did you mean 'lowercase:(nameFirst)'?
///
/// The language stays NSPredicate's: these are errors, never a second spelling.
enum SQLHabits {
    /// A SQL function a habit writes, and the call of this language that does the same.
    struct FunctionHabit: Sendable {
        /// The SQL spelling, for the message (`lower(x)`).
        let sql: String
        /// This language's spelling, for the message (`lowercase:(x)`); nil when there is none.
        let sift: String?
        /// The call rewritten from the arguments as written; nil when there is no rewrite for
        /// that many arguments.
        let rewrite: @Sendable ([String]) -> String?
        /// What to do instead when there is no rewrite.
        let advice: String?
    }

    /// One argument's rewrite: `name:(a)`.
    private static func unary(_ function: BuiltinFunction) -> @Sendable ([String]) -> String? {
        { $0.count == 1 ? "\(function.selector)(\($0[0]))" : nil }
    }

    /// `TERNARY(a != nil, a, TERNARY(b != nil, b, c))`: the first value that is not nil.
    private static func firstNotNil(_ values: [String]) -> String? {
        guard values.count >= 2 else { return nil }
        var text = values[values.count - 1]
        for value in values.dropLast().reversed() { text = "TERNARY(\(value) != nil, \(value), \(text))" }
        return text
    }

    private static let noTextFunction = "compare text with BEGINSWITH, ENDSWITH, CONTAINS, LIKE (wildcards * and ?) or MATCHES (a regular expression)"
    private static let noDateFunction = #"compare a date attribute with an ISO 8601 date, debut >= "2020-01-01", or now()"#

    /// The habits, by lower-case SQL name.
    static let functions: [String: FunctionHabit] = {
        var table: [String: FunctionHabit] = [:]
        func add(_ names: [String], sql: String, sift: String?, advice: String? = nil, rewrite: @escaping @Sendable ([String]) -> String? = { _ in nil }) {
            for name in names { table[name] = FunctionHabit(sql: sql, sift: sift, rewrite: rewrite, advice: advice) }
        }
        add(["lower", "lcase"], sql: "lower(x)", sift: "lowercase:(x)", rewrite: unary(.lowercase))
        add(["upper", "ucase"], sql: "upper(x)", sift: "uppercase:(x)", rewrite: unary(.uppercase))
        add(["avg", "mean"], sql: "avg(x)", sift: "average:(x)", rewrite: unary(.average))
        add(["total"], sql: "total(x)", sift: "sum:(x)", rewrite: unary(.sum))
        add(["ceil"], sql: "ceil(x)", sift: "ceiling:(x)", rewrite: unary(.ceiling))
        add(["log10"], sql: "log10(x)", sift: "log:(x)", rewrite: unary(.log))
        add(["rand"], sql: "rand()", sift: "random()", rewrite: { $0.isEmpty ? "random()" : nil })
        add(["power", "pow"], sql: "power(x, y)", sift: "raise:toPower:(x, y)",
            rewrite: { $0.count == 2 ? "raise:toPower:(\($0[0]), \($0[1]))" : nil })
        add(["mod"], sql: "mod(x, y)", sift: "modulus:by:(x, y)", rewrite: { $0.count == 2 ? "modulus:by:(\($0[0]), \($0[1]))" : nil })
        add(["coalesce", "ifnull", "nvl"], sql: "coalesce(x, y)", sift: "TERNARY(x != nil, x, y)", rewrite: { firstNotNil($0) })
        add(["iif", "if"], sql: "iif(p, x, y)", sift: "TERNARY(p, x, y)", rewrite: { $0.count == 3 ? "TERNARY(\($0[0]), \($0[1]), \($0[2]))" : nil })
        add(["round"], sql: "round(x)", sift: nil,
            advice: "there is no round; floor:(x + 0.5) rounds halves up, trunc:(x) toward zero, ceiling:(x) up")
        add(["length", "len", "char_length", "character_length", "octet_length"], sql: "length(x)", sift: nil,
            advice: #"there is no length; a to-many relationship's size is tracks.@count, and a text's length is tested with MATCHES (name MATCHES ".{11,}": longer than 10)"#)
        add(["substr", "substring", "instr", "position", "strpos", "replace", "trim", "ltrim", "rtrim", "concat",
             "left", "right", "reverse", "printf", "format", "group_concat", "string_agg"],
            sql: "", sift: nil, advice: "there is no such text function; " + noTextFunction)
        add(["date", "datetime", "julianday", "strftime", "unixepoch", "current_date", "current_timestamp",
             "date_trunc", "extract", "to_date", "to_char", "age"],
            sql: "", sift: nil, advice: "there is no such date function; " + noDateFunction,
            rewrite: { arguments in
                // date('now'), datetime('now'), julianday('now'): the current date.
                arguments.count == 1 && ["'now'", "\"now\""].contains(arguments[0].lowercased()) ? "now()" : nil
            })
        add(["typeof"], sql: "", sift: nil, advice: "there is no typeof; a model's attributes have one type each (.describe ENTITY in the REPL shows them)")
        return table
    }()

    /// The error text for a call of `name`, a function this language does not have, with its
    /// arguments as written (nil when they could not be read): the message, and the call to
    /// write instead.
    static func unknownFunction(_ name: String, arguments: [String]?) -> (message: String, suggestion: String?)? {
        guard let habit = functions[FunctionCatalog.key(name)] else { return nil }
        let rewrite = arguments.flatMap(habit.rewrite)
        if let sift = habit.sift {
            return ("unknown function '\(name)' (SQL's \(habit.sql) is \(sift) here)", rewrite)
        }
        if let rewrite { return ("unknown function '\(name)' (the current date and time is now())", rewrite) }
        return ("unknown function '\(name)': \(habit.advice ?? "")", nil)
    }

    /// `count(*)`: SQL's count of rows.
    static let countStar = "count(*) is SQL's: COUNT Entity WHERE … counts objects, and in a SELECT count:(key) counts the objects whose key is not nil"

    /// `max(a, b)`, `min(a, b)`: SQLite's scalar forms; here min: and max: take one collection.
    static func scalarMinMax(_ selector: String, arguments: [String]) -> (message: String, suggestion: String) {
        let name = selector.dropLast()
        return ("\(selector) takes 1 argument, a collection; SQLite's \(name)(a, b) of two values is \(selector)({a, b})",
                "\(selector)({\(arguments.joined(separator: ", "))})")
    }
}
