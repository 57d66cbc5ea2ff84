import Foundation
import Sift
import Synchronization
import Testing
@testable import SiftCLI

/// Golden transcripts of sessions: each `Transcripts/NAME.sift` is fed to a session, and what
/// the session prints (results and messages, in order) must be exactly `Transcripts/NAME.out`.
///
/// Inputs run as a script named `NAME.sift` (errors read `NAME.sift:LINE:COLUMN: error: …`);
/// a first line `#! interactive` runs them as typed at the REPL instead, and the transcript then
/// shows each prompt and line as a terminal would. `$DIR` stands for a directory holding the
/// seed apps' stores: `notes.sqlite` and `notes.json` (Notes), `movies.sqlite` (Movies),
/// `albums.json` (Albums), made anew for each transcript.
///
/// `$EXAMPLES` stands for the package's Examples folder. `.timer` lines show `#` for each
/// figure (times vary).
///
/// `SIFT_UPDATE_TRANSCRIPTS=1 swift test --filter TranscriptTests` writes the `.out` files
/// from what the sessions print (read the diff before committing it).
@Suite struct TranscriptTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Transcripts")

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".sift") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// A directory of seed-app stores for one transcript.
    static func fixtureDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-transcript-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let examples = QueryCommandTests.examples
        for (app, file) in [("Notes", "notes.sqlite"), ("Notes", "notes.json"), ("Movies", "movies.sqlite"), ("Albums", "albums.json")] {
            let model = try ModelFile.load(examples.appendingPathComponent(app).appendingPathComponent("model.json"))
            let url = directory.appendingPathComponent(file)
            let store: any PersistentStore = file.hasSuffix(".sqlite") ? try SQLiteStore.create(at: url, model: model) : try AtomicStore.create(at: url, model: model)
            try StoreImporter.importJSON(try Data(contentsOf: examples.appendingPathComponent(app).appendingPathComponent("data.json")), into: store)
        }
        return directory
    }

    /// What a session prints for `input`.
    static func transcript(of input: String, name: String, directory: URL) -> String {
        let collected = Mutex("")
        var lines = input.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let interactive = lines.first == "#! interactive"
        if interactive { lines.removeFirst() }
        let output = SessionOutput.collecting(into: { text in collected.withLock { $0 += text } })
        let session = Session(output: output, source: interactive ? .interactive : .script(name: "\(name).sift"))
        for (index, line) in lines.enumerated() {
            if session.isFinished { break }
            if interactive { collected.withLock { $0 += session.prompt + line + "\n" } }
            session.feed(line, lineNumber: index + (interactive ? 2 : 1))
        }
        session.endOfInput()
        if session.failures > 0 { collected.withLock { $0 += "[\(session.failures) failed]\n" } }
        return normalizingTimes(collected.withLock { $0 }.replacingOccurrences(of: directory.path, with: "$DIR")
            .replacingOccurrences(of: examples.path, with: "$EXAMPLES"))
    }

    static let examples = QueryCommandTests.examples

    /// `Run time: parse # ms, compile # ms, execute # ms`: the `.timer` figures vary.
    static func normalizingTimes(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("Run time: ") else { return String(line) }
            return String(line).replacing(/[0-9]+(\.[0-9]+)? ms/, with: "# ms")
        }.joined(separator: "\n")
    }

    @Test(arguments: names)
    func transcript(_ name: String) throws {
        let directory = try Self.fixtureDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try String(contentsOf: Self.folder.appendingPathComponent("\(name).sift"), encoding: .utf8)
            .replacingOccurrences(of: "$DIR", with: directory.path)
            .replacingOccurrences(of: "$EXAMPLES", with: Self.examples.path)
        let actual = Self.transcript(of: input, name: name, directory: directory)
        let expectedURL = Self.folder.appendingPathComponent("\(name).out")
        if ProcessInfo.processInfo.environment["SIFT_UPDATE_TRANSCRIPTS"] == "1" {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = (try? String(contentsOf: expectedURL, encoding: .utf8)) ?? "(no \(name).out yet)"
        #expect(actual == expected, "\(name): the session printed\n\(actual)\n--- instead of ---\n\(expected)")
    }
}
