import Foundation
import SiftSQLite
import Testing

/// Issue 28 through the binary, as a user of sqlite3 meets it: columns named `2B` and `3B`
/// (Lahman's) everywhere a key goes — statements, `--properties`, `filter --sort/--select
/// /--section-by` —, a statement the shell split, `sift run -`, errors at the column of the key
/// a store names, and the SQL habits' errors.
@Suite struct SQLUserCommandTests {
    /// A directory with `teams.db`, a Lahman-like database Sift did not create, removed after `body`.
    static func withTeams(_ body: (URL, String) throws -> Void) throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("teams.db").path
        let database = try SQLiteDatabase(path: path, options: [.create])
        try database.execute("""
            CREATE TABLE Teams (ID INTEGER PRIMARY KEY, teamID TEXT, yearID INTEGER, "2B" INTEGER, "3B" INTEGER, size INTEGER);
            INSERT INTO Teams VALUES
                (1, 'ATL', 2000, 274, 26, 3), (2, 'CLE', 2000, 310, 30, 1), (3, 'TEX', 2000, 330, 35, 2),
                (4, 'NYA', 2000, 274, 23, 1), (5, 'SFN', 2000, NULL, 40, 3), (6, 'ATL', 2001, 250, 20, 2);
            """)
        try body(directory, path)
    }

    static func query(_ path: String, _ statement: String, _ options: String...) throws -> SiftBinary.Result {
        try SiftBinary.run(arguments: ["query", "--store", path, statement] + options)
    }

    // MARK: Escaped keys

    @Test func escapedKeysWorkInEveryClauseAndOption() throws {
        try Self.withTeams { _, path in
            let sorted = try Self.query(path, "Teams WHERE #2B > 270 SORT BY #2B DESC", "--properties", "teamID, #2B", "--output", "jsonl")
            #expect(sorted.status == 0, "\(sorted.stderr)")
            #expect(sorted.stdout == """
                {"@entity":"Teams","@id":"Teams/3","teamID":"TEX","2B":330}
                {"@entity":"Teams","@id":"Teams/2","teamID":"CLE","2B":310}
                {"@entity":"Teams","@id":"Teams/1","teamID":"ATL","2B":274}
                {"@entity":"Teams","@id":"Teams/4","teamID":"NYA","2B":274}

                """)
            let selected = try Self.query(path, "SELECT teamID, #2B FROM Teams WHERE yearID == 2001", "--output", "jsonl")
            #expect(selected.stdout == #"{"teamID":"ATL","2B":250}"# + "\n", "\(selected.stderr)")
            let grouped = try Self.query(path, "SELECT #2B, count:(teamID) AS n FROM Teams GROUP BY #2B HAVING #2B >= 274 SORT BY #2B DESC", "--output", "csv")
            #expect(grouped.stdout == "2B,n\r\n330,1\r\n310,1\r\n274,2\r\n", "\(grouped.stderr)")
            let sections = try Self.query(path, "Teams WHERE yearID == 2000 SORT BY size SECTION BY size", "--properties", "teamID", "--output", "jsonl")
            #expect(sections.status == 0, "\(sections.stderr)")
            #expect(sections.stdout.contains(#"# section "1": 2 objects"#), "\(sections.stdout)")
        }
    }

    @Test func aSelectAliasSortsWithoutGroupBy() throws {
        try Self.withTeams { _, path in
            let doubles = try Self.query(path, "SELECT teamID, #2B AS doubles FROM Teams WHERE yearID == 2000 SORT BY doubles DESC LIMIT 2", "--output", "csv")
            #expect(doubles.stdout == "teamID,doubles\r\nTEX,330\r\nCLE,310\r\n", "\(doubles.stderr)")
            let sql = try SiftBinary.run("sql", "--store", path, "SELECT teamID, #2B AS doubles FROM Teams SORT BY doubles DESC")
            #expect(sql.stdout.contains(#"ORDER BY "t0"."2B" DESC"#), "\(sql.stdout)")
            let xbh = try Self.query(path, "SELECT teamID, #2B + #3B AS xbh FROM Teams WHERE #2B != nil SORT BY xbh DESC LIMIT 2", "--output", "csv")
            #expect(xbh.stdout == "teamID,xbh\r\nTEX,365\r\nCLE,340\r\n", "\(xbh.stderr)")
            let reserved = try Self.query(path, "SELECT teamID AS first, #3B AS size FROM Teams WHERE yearID == 2001 SORT BY first", "--output", "jsonl")
            #expect(reserved.stdout == #"{"first":"ATL","size":20}"# + "\n", "\(reserved.stderr)")
        }
    }

    @Test func filterOptionsTakeEscapedKeys() throws {
        try Self.withTeams { directory, _ in
            let file = directory.appendingPathComponent("teams.jsonl")
            try Data("""
                {"teamID":"ATL","2B":274,"size":3}
                {"teamID":"CLE","2B":310,"size":1}
                {"teamID":"TEX","2B":330,"size":1}

                """.utf8).write(to: file)
            let result = try SiftBinary.run("filter", "#2B > 270", file.path, "--sort", "#2B DESC", "--section-by", "#size", "--select", "teamID,#2B",
                                            "--output", "jsonl")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == """
                # section "1": 2 objects
                {"teamID":"TEX","2B":330}
                {"teamID":"CLE","2B":310}
                # section "3": 1 object
                {"teamID":"ATL","2B":274}

                """)
            #expect(result.stderr == "")
            let missing = try SiftBinary.run("filter", "TRUEPREDICATE", file.path, "--sort", "#2b", "--output", "jsonl")
            #expect(missing.stderr == "warning: no record has '2b'; did you mean '2B'?\n")
        }
    }

    // MARK: The shell's words

    @Test(arguments: [
        (["query", "--store", "STORE", "Teams", "WHERE", "yearID", "2000"], "'Teams WHERE yearID 2000'"),
        (["sql", "--store", "STORE", "COUNT", "Teams"], "'COUNT Teams'"),
        (["explain", "--store", "STORE", "Teams", "WHERE", "#2B", "==", "3"], "'Teams WHERE #2B == 3'"),
        (["update", "--store", "STORE", "Teams", "SET", "size", "=", "2"], "'Teams SET size = 2'"),
        (["delete", "--store", "STORE", "DELETE", "FROM", "Teams"], "'DELETE FROM Teams'"),
        (["STORE", "COUNT", "Teams", "WHERE", "teamID", "==", "ATL"], "'COUNT Teams WHERE teamID == ATL'"),
        (["parse", "name", "==", "it's"], #"'name == it'\''s'"#),
    ])
    func aStatementTheShellSplitSaysToQuoteIt(_ arguments: [String], _ quoted: String) throws {
        try Self.withTeams { _, path in
            let result = try SiftBinary.run(arguments: arguments.map { $0 == "STORE" ? path : $0 })
            #expect(result.status != 0)
            #expect(result.stderr.contains("the shell splits unquoted text into words"), "\(result.stderr)")
            #expect(result.stderr.contains("\n  \(quoted)\n"), "\(result.stderr)")
            // Nothing ran: the database is as it was.
            let count = try Self.query(path, "COUNT Teams WHERE #size == 2")
            #expect(count.stdout == "{\"count\": 2}\n")
        }
    }

    @Test func filterSaysToQuoteThePredicateBeforeItsFile() throws {
        try Self.withTeams { directory, _ in
            let file = directory.appendingPathComponent("t.jsonl")
            try Data("{\"a\": 1}\n".utf8).write(to: file)
            let result = try SiftBinary.run("filter", "a", "==", "1", file.path)
            #expect(result.status != 0)
            #expect(result.stderr.contains("\n  'a == 1' '\(file.path)'\n"), "\(result.stderr)")
        }
    }

    // MARK: sift run -

    @Test func runReadsTheScriptFromStandardInput() throws {
        try Self.withTeams { _, path in
            let result = try SiftBinary.run("run", "-", "--store", path, "--output", "csv",
                                            stdin: "COUNT Teams\nTeams WHERE #2B > 300\n  SORT BY #2B\n  LIMIT 1;\nTeams SORT BY #2b\n")
            #expect(result.status == 1)
            #expect(result.stdout.hasPrefix("count\r\n6\r\n"), "\(result.stdout)")
            #expect(result.stdout.contains("CLE"))
            #expect(result.stderr == """
                <stdin>:5:15: error: unknown key '2b' on Teams; did you mean '2B'?
                Teams SORT BY #2b
                              ^

                """)
        }
    }

    // MARK: Errors at the key's column

    @Test func storeErrorsPointAtTheKey() throws {
        try Self.withTeams { directory, path in
            let script = directory.appendingPathComponent("bad.sift")
            try Data("""
                COUNT Team
                Teams WHERE yearID == 2000
                  AND temID == "ATL"
                SELECT teamID AS t FROM Teams SORT BY #3b DESC

                """.utf8).write(to: script)
            let result = try SiftBinary.run("run", script.path, "--store", path)
            #expect(result.stderr == """
                \(script.path):1:7: error: unknown entity 'Team'; did you mean 'Teams'?
                COUNT Team
                      ^
                \(script.path):3:7: error: unknown key 'temID' on Teams; did you mean 'teamID'?
                  AND temID == "ATL"
                      ^
                \(script.path):4:39: error: unknown key '3b' on Teams; did you mean '3B'?
                SELECT teamID AS t FROM Teams SORT BY #3b DESC
                                                      ^

                """)
            // The REPL's way: the statement, a caret under the key, the column.
            let repl = try SiftBinary.run(path, "Teams WHERE yearID == 2000 AND temID == 1")
            #expect(repl.stderr == """
                Teams WHERE yearID == 2000 AND temID == 1
                                               ^
                error: column 32: unknown key 'temID' on Teams; did you mean 'teamID'?

                """)
        }
    }

    // MARK: SQL habits

    @Test func sqlHabitsSayWhatToWrite() throws {
        try Self.withTeams { _, path in
            let isNull = try Self.query(path, "Teams WHERE #2B IS NULL")
            #expect(isNull.status == 1)
            #expect(isNull.stderr == """
                Teams WHERE #2B IS NULL
                                ^
                error: column 17: 'IS NULL' is SQL's; this language compares with nil: == nil; did you mean '#2B == nil'?

                """)
            let lower = try Self.query(path, "Teams WHERE lower(teamID) == 'atl'")
            #expect(lower.stderr.hasSuffix("did you mean 'lowercase:(teamID)'?\n"), "\(lower.stderr)")
            let curly = try Self.query(path, "Teams WHERE teamID == “ATL”")
            #expect(curly.stderr.hasSuffix("use straight quotes, \"...\" or '...'; did you mean '\"ATL\"'?\n"), "\(curly.stderr)")
            // What SQL writes the same way runs.
            let accepted = try Self.query(path, "SELECT * FROM Teams WHERE teamID = 'CLE' AND #size <> 2 ORDER BY #2B DESC NULLS LAST LIMIT 1;", "--output", "csv")
            #expect(accepted.stdout == "ID,teamID,yearID,2B,3B,size\r\n2,CLE,2000,310,30,1\r\n", "\(accepted.stderr)")
        }
    }
}
