import ChinookSupport
import Foundation
import Sift
import SiftSQLite
import Testing

/// The real REPL in a real terminal: the built `sift` runs in a detached tmux session (a server
/// of its own, HOME and XDG_STATE_HOME in a temporary folder), keys go in with `send-keys` and
/// the screen comes back with `capture-pane`, polled until what is expected shows (or a
/// timeout). It checks the prompt; Tab completing a keyword, an entity, a key path after a
/// dot and a file name; Ctrl-C abandoning a line, and stopping a slow `MATCHES` over 200,000
/// rows with the REPL answering the next statement; Ctrl-D leaving; and, after a restart, Up
/// bringing back the last session's statements.
///
/// tmux comes from `scripts/ensure-packages` (which `scripts/test` runs first).
@Suite(.serialized) struct TerminalREPLTests {
    static let itemRows = 200_000
    /// Some 80 µs a row with PCRE2: about fifteen seconds over the whole store.
    static let slowStatement = "COUNT Item WHERE name MATCHES '(.*[aeiou]){5}(X|Y)'"

    @Test func theREPLAtATerminal() throws {
        guard let tmuxPath = Terminal.tmuxPath else {
            Issue.record("tmux is not installed: run scripts/ensure-packages (scripts/test does)")
            return
        }
        let folder = try TranscriptTests.fixtureDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.makeItemStore(at: folder.appendingPathComponent("items.sqlite"))
        let state = folder.appendingPathComponent("state")

        // The first session.
        var terminal = try Terminal(tmux: tmuxPath, folder: folder, arguments: ["notes.sqlite"])
        defer { terminal.close() }
        try terminal.waitFor { $0.last == "sift>" }

        // Tab: a keyword, then the line runs.
        terminal.type("COUNT Note WHERE title BEGINS")
        terminal.press("Tab")
        try terminal.waitFor { $0.last == "sift> COUNT Note WHERE title BEGINSWITH" }
        terminal.type("\"G\"")
        terminal.press("Enter")
        try terminal.waitFor { Terminal.ran("COUNT Note WHERE title BEGINSWITH \"G\"", on: $0) }

        // Tab: an entity, a relationship (no space after it) and a key path after a dot.
        terminal.type("FETCH No")
        terminal.press("Tab")
        try terminal.waitFor { $0.last == "sift> FETCH Note" }
        terminal.type("WHERE categ")
        terminal.press("Tab")
        try terminal.waitFor { $0.last == "sift> FETCH Note WHERE category" }
        terminal.type(".na")
        terminal.press("Tab")
        try terminal.waitFor { $0.last == "sift> FETCH Note WHERE category.name" }
        terminal.type("== 'Work'")
        terminal.press("Enter")
        try terminal.waitFor { Terminal.ran("FETCH Note WHERE category.name == 'Work'", on: $0) }

        // Ctrl-C abandons the line being written, and a statement written over several lines.
        terminal.type("COUNT Tag")
        terminal.press("C-c")
        try terminal.waitFor { $0.suffix(2) == ["sift> COUNT Tag^C", "sift>"] }
        terminal.type("COUNT Tag WHERE")
        terminal.press("Enter")
        try terminal.waitFor { $0.last?.trimmingCharacters(in: .whitespaces) == "...>" }
        terminal.press("C-c")
        try terminal.waitFor { $0.last == "sift>" }

        // Tab: a file name; then Ctrl-C stops a slow query and the REPL answers the next one.
        terminal.type(".open ite")
        terminal.press("Tab")
        try terminal.waitFor { $0.last == "sift> .open items.sqlite" }
        terminal.press("Enter")
        try terminal.waitFor { Terminal.ran(".open items.sqlite", on: $0) }
        terminal.type(Self.slowStatement)
        terminal.press("Enter")
        try terminal.waitFor { $0.last == "sift> " + Self.slowStatement }
        // Time for the query to be under way (it runs for seconds unless stopped).
        Thread.sleep(forTimeInterval: 0.3)
        let interrupted = ContinuousClock.now
        terminal.press("C-c")
        try terminal.waitFor(seconds: 5) { $0.contains { $0.hasSuffix("error: interrupted") } && $0.last == "sift>" }
        #expect(ContinuousClock.now - interrupted < .seconds(3))
        terminal.type("COUNT Item")
        terminal.press("Enter")
        try terminal.waitFor { Terminal.ran("COUNT Item", on: $0) && $0.contains { $0.contains(String(Self.itemRows)) } }

        // Ctrl-D at an empty prompt leaves.
        terminal.press("C-d")
        #expect(try terminal.waitForExit() == 0)
        terminal.close()
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("sift/history").path))

        // A new session: Up brings back the last one's statements, newest first.
        terminal = try Terminal(tmux: tmuxPath, folder: folder, arguments: ["notes.sqlite"])
        try terminal.waitFor { $0.last == "sift>" }
        terminal.press("Up")
        try terminal.waitFor { $0.last == "sift> COUNT Item" }
        terminal.press("Up")
        try terminal.waitFor { $0.last == "sift> " + Self.slowStatement }
        terminal.press("C-c")
        try terminal.waitFor { $0.last == "sift>" }
        terminal.press("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    /// A database Sift did not create, at a terminal 100 cells wide: a record too wide for it
    /// prints vertically, a to-one as the key it refers to; under `.x off` the table is cut to
    /// fit but its numbers are whole; Ctrl-C on a slow statement says `interrupted`, not SQL.
    @Test func aForeignDatabaseAtATerminal() throws {
        guard let tmuxPath = Terminal.tmuxPath else {
            Issue.record("tmux is not installed: run scripts/ensure-packages (scripts/test does)")
            return
        }
        let chinook = try ChinookDatabase.makeTemporary()
        let folder = chinook.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase(path: chinook.path, options: [.readOnly])
        let album = try database.scalar("SELECT AlbumId FROM Track WHERE TrackId = 1")
        let bytes = try database.rows("SELECT Bytes FROM Track WHERE TrackId <= 3 ORDER BY TrackId").map { "\($0[0])" }

        let terminal = try Terminal(tmux: tmuxPath, folder: folder, arguments: [chinook.lastPathComponent])
        defer { terminal.close() }
        try terminal.waitFor { $0.last == "sift>" }
        terminal.type("Track WHERE TrackId == 1")
        terminal.press("Enter")
        try terminal.waitFor { Terminal.ran("Track WHERE TrackId == 1", on: $0) }
        let record = terminal.screen()
        #expect(record.contains { $0.hasPrefix("-[ RECORD 1 ]") }, "\(record)")
        #expect(record.contains { $0.hasPrefix("Album ") && $0.hasSuffix(" | \(album)") }, "\(record)")

        terminal.type(".x off")
        terminal.press("Enter")
        terminal.type("Track WHERE TrackId <= 3")
        terminal.press("Enter")
        try terminal.waitFor { Terminal.ran("Track WHERE TrackId <= 3", on: $0) }
        let table = terminal.screen().drop { !$0.hasPrefix("sift> Track WHERE TrackId <= 3") }
        #expect(table.contains { $0.contains("…") }, "text is cut: \(table)")
        let rows = table.filter { $0.hasPrefix("Track ") }
        #expect(rows.count == 3, "\(table)")
        for (row, value) in zip(rows, bytes) { #expect(row.contains(" \(value) "), "\(value): \(row)") }

        // Six steps with a test SQL cannot run (a needle read from the row): the evaluator reads
        // the relationships, a batch at a time, for many seconds.
        let slow = "COUNT Track WHERE ANY playlisttracks.Playlist.playlisttracks.Track.invoicelines.Invoice.BillingCountry BEGINSWITH[n] uppercase:(Name)"
        terminal.type(slow)
        terminal.press("Enter")
        try terminal.waitFor { $0.last == "sift> " + slow }
        Thread.sleep(forTimeInterval: 0.3)
        terminal.press("C-c")
        try terminal.waitFor(seconds: 5) { $0.last == "sift>" && $0.contains { $0.hasSuffix("error: interrupted") } }
        #expect(!terminal.screen().contains { $0.contains("SELECT") })
        terminal.press("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    /// A Sift store of `itemRows` items with 52-character names, filled by one SQL statement.
    static func makeItemStore(at url: URL) throws {
        let model = try JSONModelFormat.read(Data(#"{"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}]}]}"#.utf8))
        _ = try SQLiteStore.create(at: url, model: model)
        let database = try SQLiteDatabase(path: url.path, options: [])
        try database.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(itemRows))
            INSERT INTO "Item" ("_pk", "_id", "_entity", "name")
            SELECT i, 'o' || i, 'Item', 'item number ' || i || ' lorem ipsum dolor sit amet consectetur' FROM n
            """)
    }
}

/// A detached tmux session running `sift`, on a tmux server of its own.
///
/// The server runs in the foreground (`tmux -D`) as a child of the test, on a socket in the
/// test's folder: a server tmux starts by itself becomes a daemon that keeps every file
/// descriptor it inherited, among them the one Foundation's `Process` watches to see the
/// client that started it end, which would then never end.
final class Terminal {
    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    static var tmuxPath: String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin", "/usr/local/bin"]
        return folders.map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let tmux: String
    let socket: String
    let session = "repl"
    private let server: Process
    /// Where the shell running `sift` writes its exit status.
    private let statusFile: String
    private var closed = false

    /// Starts `sift ARGUMENTS` in `folder`, with HOME at `folder/home` and XDG_STATE_HOME at
    /// `folder/state`, in a 100×40 window.
    init(tmux: String, folder: URL, arguments: [String]) throws {
        self.tmux = tmux
        socket = folder.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8))").path
        server = Process()
        server.executableURL = URL(fileURLWithPath: tmux)
        server.arguments = ["-D", "-S", socket, "-f", "/dev/null"]
        server.environment = Self.environment
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: socket) {
            guard Date() < deadline else { throw Timeout(description: "tmux did not start") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let environment = [
            "HOME": folder.appendingPathComponent("home").path,
            "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
            "LANG": "C.UTF-8",
            "EDITRC": "/dev/null",
        ]
        let command = ["env"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + [SiftBinary.url.path] + arguments
        // The exit status goes to a file: tmux 3.3 sometimes misses the end of a pane's process.
        statusFile = folder.appendingPathComponent("status-\(UUID().uuidString.prefix(8))").path
        let shell = command.map(Self.shellQuoted).joined(separator: " ") + "; echo $? > " + Self.shellQuoted(statusFile)
        try run(["new-session", "-d", "-s", session, "-x", "100", "-y", "40", "-c", folder.path, shell])
    }

    /// Whether `statement` was entered at the prompt on `screen`, printed something other than
    /// an error, and the prompt is back.
    static func ran(_ statement: String, on screen: [String]) -> Bool {
        guard let entered = screen.lastIndex(of: "sift> " + statement), entered < screen.count - 2, screen.last == "sift>" else { return false }
        return !screen[(entered + 1)...].contains { $0.hasPrefix("error") }
    }

    /// Types text as it is.
    func type(_ text: String) {
        _ = try? run(["send-keys", "-t", session, "-l", text])
    }

    /// Presses a key (`Enter`, `Tab`, `Up`, `C-c`…).
    func press(_ key: String) {
        _ = try? run(["send-keys", "-t", session, key])
    }

    /// The screen's lines, without trailing spaces or blank lines at the end.
    func screen() -> [String] {
        let text = (try? run(["capture-pane", "-p", "-J", "-t", session])) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.reversed().drop(while: \.isWhitespace).reversed())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Polls the screen until `condition` holds; throws with the screen after `seconds`.
    func waitFor(seconds: Double = 5, _ condition: ([String]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let lines = screen()
            if condition(lines) { return }
            if Date() > deadline {
                throw Timeout(description: "the screen never showed what was expected:\n" + lines.joined(separator: "\n"))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits for the REPL to end; returns its exit status.
    func waitForExit(seconds: Double = 5) throws -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let data = FileManager.default.contents(atPath: statusFile), let text = String(data: data, encoding: .utf8), text.hasSuffix("\n") {
                return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if Date() > deadline { throw Timeout(description: "the REPL did not end:\n" + screen().joined(separator: "\n")) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Ends the tmux server (and the REPL, if it still runs).
    func close() {
        guard !closed else { return }
        closed = true
        _ = try? run(["kill-server"])
        // The server ends on a SIGTERM it sends itself, unless it inherited SIGTERM ignored (as
        // under some test runners): then it is killed.
        let pid = server.processIdentifier
        let deadline = Date().addingTimeInterval(0.3)
        while Self.isAlive(pid) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if Self.isAlive(pid) { kill(pid, SIGKILL) }
    }

    /// Whether a process runs (not `Process.isRunning`: the server closes the descriptors it
    /// inherited, among them the one Foundation watches, so Foundation may think it ended when
    /// it has not, or not yet have reaped it when it has).
    private static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return !stat[end...].hasPrefix(") Z")
    }

    deinit { close() }

    /// The environment tmux runs in: a terminal type it knows, and not inside another tmux.
    private static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = environment["TERM"].flatMap { $0 == "dumb" ? nil : $0 } ?? "xterm-256color"
        environment.removeValue(forKey: "TMUX")
        return environment
    }

    /// Runs a tmux command on the server; returns what it prints.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmux)
        process.arguments = ["-S", socket] + arguments
        process.environment = Self.environment
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
