import Foundation
import Sift
import Testing

/// What a shell user expects of a command: `sift --version`, completion scripts from the
/// argument parser (`sift completions bash|zsh|fish`), and the help the man page is made of
/// (`scripts/man` runs the argument parser's GenerateManual plugin on it).
@Suite struct ShellConventionTests {
    @Test func versionIsPrintedFromTheLibrarysConstant() throws {
        let result = try SiftBinary.run("--version")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(SiftVersion.current)\n")
        #expect(SiftVersion.current.split(separator: ".").count == 3)
        #expect(SiftVersion.current.split(separator: ".").allSatisfy { Int($0) != nil }, "MAJOR.MINOR.PATCH: \(SiftVersion.current)")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameSiftAndItsCommands(shell: String) throws {
        let result = try SiftBinary.run("completions", shell)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.count > 1000, "\(result.stdout.count) characters")
        #expect(result.stdout.contains("sift"))
        for command in ["import", "query", "completions", "store", "date-format"] {
            #expect(result.stdout.contains(command), "\(shell) completions lack \(command)")
        }
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let result = try SiftBinary.run("completions", "tcsh")
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("'tcsh'"), "\(result.stderr)")
        #expect(result.stderr.contains("bash"), "\(result.stderr)")
    }

    @Test func theHelpTheManPageIsMadeOfNamesEveryCommand() throws {
        let result = try SiftBinary.run("--experimental-dump-help")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let command = try #require(json["command"] as? [String: Any])
        #expect(command["commandName"] as? String == "sift")
        let names = (command["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
        #expect(names.contains("import") && names.contains("completions"), "\(names)")
    }

    /// `sift COMMAND --help` with the terminal `columns` wide (the argument parser reads COLUMNS).
    static func help(_ command: String, columns: Int) throws -> String {
        let process = Process()
        process.executableURL = SiftBinary.url
        process.arguments = [command, "--help"]
        var environment = SiftBinary.environment
        environment["COLUMNS"] = String(columns)
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: ["import", "query", "update", "delete", "sql", "explain", "parse", "repl", "run"])
    func helpIsWrappedToTheTerminalNotToAFixedWidth(command: String) throws {
        let wide = try Self.help(command, columns: 1000)
        let narrow = try Self.help(command, columns: 60)
        // Each paragraph of the discussion is one line on a wide terminal: a line of prose
        // that does not end its sentence is followed by an indented or empty line.
        let lines = wide.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("OVERVIEW:") })
        let end = try #require(lines.firstIndex { $0.hasPrefix("USAGE:") })
        for (line, next) in zip(lines[start..<end], lines[start..<end].dropFirst()) where !line.isEmpty && !line.hasPrefix(" ") && !next.isEmpty {
            #expect(next.hasPrefix(" ") || line.hasSuffix(":"), "hard-wrapped: '\(line)' / '\(next)'")
        }
        // On a narrow one, the prose is wrapped to it (the usage line is not wrapped).
        let prose = narrow.split(separator: "\n").prefix { !$0.hasPrefix("USAGE:") }.filter { !$0.hasPrefix("  ") }
        #expect(prose.allSatisfy { $0.count <= 60 }, "\(narrow)")
    }
}
