import Foundation
import Testing

/// Every shell example of the README and of `docs/*.md` (the `$ command` lines of their ```sh
/// and ```console blocks) runs, page by page in the page's order, in a fresh folder beside the
/// shipped `Examples/`, with the built `sift` first on the PATH. Each must exit 0 — or 1 where
/// the page shows an error after it — and print something (a `sqlite3` line making a database
/// must make it instead). The lines the page shows after a command, other than elided ones
/// (holding `…` or `...`), must be lines of what it printed, in that order.
///
/// Only the build line is left out. Examples use shipped files (`Examples/…`) or files an
/// earlier example of the same page made, so a page whose example names a missing file fails.
@Suite struct ShellExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A `$ ` line of a page and the lines it shows after it.
    struct Example: CustomTestStringConvertible {
        let page: String
        let line: Int
        let command: String
        let shown: [String]
        var testDescription: String { "\(page):\(line): \(command)" }
    }

    /// The pages with shell examples: the README and every page of docs/.
    static let pages: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    static func examples(onPage page: String) throws -> [Example] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        var examples: [Example] = []
        var inShell = false
        var inFence = false
        var current: (line: Int, command: String)?
        var shown: [String] = []
        func finish() {
            if let current { examples.append(Example(page: page, line: current.line, command: current.command, shown: shown)) }
            current = nil
            shown = []
        }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inFence {
                if trimmed.hasPrefix("```") {
                    inFence = true
                    inShell = trimmed == "```sh" || trimmed == "```console"
                }
                continue
            }
            if trimmed == "```" {
                finish()
                inFence = false
                inShell = false
            } else if inShell, line.hasPrefix("$ ") {
                finish()
                current = (index + 1, String(line.dropFirst(2)))
            } else if inShell, current != nil {
                shown.append(line)
            }
        }
        return examples
    }

    /// The database a `sqlite3 FILE …` line makes.
    static func madeDatabase(_ command: String) -> String? {
        command.firstMatch(of: /^sqlite3 ([^ ]+)/).map { String($0.output.1) }
    }

    /// Whether `shown` (elided lines aside) is a subsequence of `printed`'s lines.
    static func missingShownLine(_ shown: [String], in printed: String) -> String? {
        var lines = printed.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.replacing(/\s+$/, with: "")) }[...]
        for expected in shown.map({ String($0.replacing(/\s+$/, with: "")) })
        where !expected.isEmpty && !expected.contains("…") && !expected.contains("...") {
            guard let found = lines.firstIndex(of: expected) else { return expected }
            lines = lines[(found + 1)...]
        }
        return nil
    }

    @Test func thePagesHaveShellExamples() throws {
        #expect(try Self.examples(onPage: "README.md").count > 25)
        #expect(try Self.examples(onPage: "docs/IMPORT.md").count >= 4)
        #expect(try Self.examples(onPage: "docs/SQLITE-DATABASES.md").count >= 6)
    }

    @Test(arguments: pages) func everyShellExampleRuns(page: String) throws {
        let examples = try Self.examples(onPage: page)
        guard !examples.isEmpty else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-shell-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("Examples"),
                                                   withDestinationURL: Self.root.appendingPathComponent("Examples"))
        for example in examples where !example.command.hasPrefix("swift build") {
            for tool in ["jq", "sqlite3"] where example.command.contains("\(tool) ") {
                try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/\(tool)"),
                             "\(example.testDescription) needs \(tool): bash scripts/ensure-packages installs it")
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", example.command]
            process.currentDirectoryURL = directory
            var environment = SiftBinary.environment
            environment["PATH"] = SiftBinary.url.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["COLUMNS"] = "100"
            environment["NO_COLOR"] = "1"
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let showsError = example.shown.contains { $0.hasPrefix("error") }
            #expect(process.terminationReason == .exit, "\(example.testDescription) crashed")
            #expect(process.terminationStatus == (showsError ? 1 : 0),
                    "\(example.testDescription): exit \(process.terminationStatus)\n\(printed)")
            if let database = Self.madeDatabase(example.command) {
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(database).path),
                        "\(example.testDescription) made no \(database)")
            } else {
                #expect(!printed.isEmpty, "\(example.testDescription) printed nothing")
            }
            if let missing = Self.missingShownLine(example.shown, in: printed) {
                Issue.record("\(example.testDescription): the page shows \"\(missing)\", which it did not print (in that order):\n\(printed)")
            }
        }
    }
}
