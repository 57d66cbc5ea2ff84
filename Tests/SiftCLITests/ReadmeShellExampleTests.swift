import Foundation
import Testing

/// Every shell example of the README (`$ command` lines of its ```sh blocks) runs, in README
/// order, in a fresh folder beside the shipped `Examples/`, with the built `sift` first on the
/// PATH: each prints something, and exits 0 — or 1 where the README shows an error after it.
/// A line whose files are not shipped (`people.csv`, `chinook.db`: the README's stand-ins for
/// the reader's own data) is skipped, and so is the build line; a line using `jq` runs where jq
/// is installed.
@Suite struct ReadmeShellExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A `$ ` line of the README and the lines it shows after it.
    struct Example: CustomTestStringConvertible {
        let command: String
        let shown: [String]
        var testDescription: String { command }
    }

    static func examples() throws -> [Example] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var examples: [Example] = []
        var inShell = false
        var command: String?
        var shown: [String] = []
        func finish() {
            if let command { examples.append(Example(command: command, shown: shown)) }
            command = nil
            shown = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inShell {
                inShell = trimmed == "```sh" || trimmed == "```console"
                continue
            }
            if trimmed == "```" {
                finish()
                inShell = false
            } else if line.hasPrefix("$ ") {
                finish()
                command = String(line.dropFirst(2))
            } else if command != nil {
                shown.append(line)
            }
        }
        return examples
    }

    /// The files a command names (`Examples/movies.jsonl`, `notes.json`, `people.csv`).
    static func files(in command: String) -> [String] {
        let pattern = /[A-Za-z0-9_.\/-]+\.(jsonl|json|csv|db|sqlite|plist|sift|xcdatamodeld)\b/
        return command.matches(of: pattern).map { String($0.output.0) }
    }

    /// Whether the command can run here: the build line cannot, nor a line naming a file that
    /// is not shipped and that no earlier example made.
    static func runnable(_ command: String, in directory: URL) -> Bool {
        if command.hasPrefix("swift build") { return false }
        if command.contains("jq "), !FileManager.default.isExecutableFile(atPath: "/usr/bin/jq") { return false }
        let store = command.firstMatch(of: /--store ([^ ]+)/).map { String($0.output.1) }
        let creates = command.hasPrefix("sift import") ? store : nil
        return files(in: command).allSatisfy { file in
            file == creates || FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path)
        }
    }

    @Test func everyShellExampleOfTheReadmeRuns() throws {
        let examples = try Self.examples()
        #expect(examples.count > 20)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("Examples"),
                                                   withDestinationURL: Self.root.appendingPathComponent("Examples"))
        var ran = 0
        for example in examples where Self.runnable(example.command, in: directory) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", example.command]
            process.currentDirectoryURL = directory
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = SiftBinary.url.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["COLUMNS"] = "100"
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let showsError = example.shown.contains { $0.contains("error") }
            #expect(process.terminationReason == .exit, "\(example.command) crashed")
            #expect(process.terminationStatus == (showsError ? 1 : 0),
                    "\(example.command): exit \(process.terminationStatus)\n\(String(decoding: printed, as: UTF8.self))")
            #expect(!printed.isEmpty, "\(example.command) printed nothing")
            ran += 1
        }
        // Only the build line and the chinook.db stand-in are left out.
        #expect(ran >= examples.count - 2, "ran \(ran) of \(examples.count)")
    }
}
