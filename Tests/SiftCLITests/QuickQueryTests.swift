import Testing
@testable import SiftCLI

/// `sift query --store STORE 'STATEMENT'` read without the argument parser (``QuickQuery``,
/// issue 28 §4): every command line it reads must mean exactly what the parser makes of it,
/// and every other one must go to the parser.
@Suite struct QuickQueryTests {
    /// What the parser makes of `arguments`: a query's invocation, or nil for another command
    /// or an error.
    static func parsed(_ arguments: [String]) -> QueryInvocation? {
        (try? SiftCommand.parseAsRoot(arguments) as? QueryCommand)?.invocation
    }

    static let readQuickly: [[String]] = [
        ["query", "--store", "a.sqlite", "Note"],
        ["query", "Note", "--store", "a.sqlite"],
        ["query", "--store=a.sqlite", "COUNT Note WHERE a == 1"],
        ["query", "--store", "a.db", "Note WHERE title == \"--store\"", "--output", "table"],
        ["query", "--output=csv", "--read-only", "--store", "postgres://u@h/db", "Note SORT BY a"],
        ["query", "--read-only", "--store", "x.json", "SELECT a FROM Note", "--output", "jsonl"],
        ["query", "--store", "a b.sqlite", " Note", "--output=json"],
    ]

    @Test(arguments: readQuickly)
    func aSimpleQueryMeansWhatTheParserMakesOfIt(_ arguments: [String]) throws {
        let quick = try #require(QuickQuery.invocation(arguments))
        #expect(quick == Self.parsed(arguments))
    }

    static let leftToTheParser: [[String]] = [
        ["query"],
        ["query", "--store", "a.sqlite"],
        ["query", "Note"],
        ["sql", "--store", "a.sqlite", "Note"],
        ["a.sqlite", "Note"],
        ["query", "--store", "a.sqlite", "--store", "b.sqlite", "Note"],
        ["query", "--store", "a.sqlite", "Note", "WHERE", "a", "==", "1"],
        ["query", "--store", "a.sqlite", "Note", "--arg", "1"],
        ["query", "--store", "a.sqlite", "Note", "--var", "x=1"],
        ["query", "--store", "a.sqlite", "Note", "--relationships", "ids"],
        ["query", "--store", "a.sqlite", "Note", "--properties", "title"],
        ["query", "--store", "a.sqlite", "--request", "f.json"],
        ["query", "--store", "a.sqlite", "Note", "--output", "indices"],
        ["query", "--store", "a.sqlite", "Note", "--output", "xml"],
        ["query", "--store", "a.sqlite", "Note", "--output"],
        ["query", "--store", "a.sqlite", "Note", "--output", "csv", "--output", "json"],
        ["query", "--store", "a.sqlite", "Note", "--read-only", "--read-only"],
        ["query", "--store", "a.sqlite", "--", "Note"],
        ["query", "--store", "a.sqlite", "Note", "--help"],
        ["query", "--store", "a.sqlite", "-h"],
        ["query", "--store", "-x", "Note"],
        ["query", "--store=", "Note"],
        ["query", "--storefront", "a.sqlite", "Note"],
        ["query", "--store", "a.sqlite", ""],
        ["query", "--store", "a.sqlite", "-1"],
        ["query", "--version", "--store", "a.sqlite", "Note"],
    ]

    @Test(arguments: leftToTheParser)
    func anythingElseGoesToTheParser(_ arguments: [String]) {
        #expect(QuickQuery.invocation(arguments) == nil)
    }

    /// Every command line of up to four words from a pool of the words that matter: each one
    /// read quickly means what the parser makes of it.
    @Test func everyShortLineReadQuicklyAgreesWithTheParser() {
        let pool = ["--store", "a.sqlite", "--store=b.db", "Note", "COUNT Note", "--output", "table", "--output=csv",
                    "--output=indices", "--read-only", "-x", "--", "", "--arg", "1"]
        var lines: [[String]] = [[]]
        var read = 0
        for _ in 1...4 {
            lines = lines.flatMap { line in pool.map { line + [$0] } }
            for line in lines {
                let arguments = ["query"] + line
                guard let quick = QuickQuery.invocation(arguments) else { continue }
                read += 1
                #expect(quick == Self.parsed(arguments), "\(arguments)")
            }
        }
        #expect(read > 100)
    }
}
