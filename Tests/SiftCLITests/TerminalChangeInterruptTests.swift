import Foundation
import Testing

/// Ctrl-C at a real terminal (tmux, as ``TerminalREPLTests``) during a long UPDATE on a
/// 1,000,000-row SQLite store: the REPL says `interrupted; nothing was changed`, answers the
/// next statement, and the store holds no changed row.
@Suite(.serialized) struct TerminalChangeInterruptTests {
    @Test func ctrlCDuringAnUpdateRollsItBack() throws {
        guard let tmuxPath = Terminal.tmuxPath else {
            Issue.record("tmux is not installed: run scripts/ensure-packages (scripts/test does)")
            return
        }
        let folder = try ChangeInterruptCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ChangeInterruptCommandTests.makeSQLiteStore(in: folder)
        let terminal = try Terminal(tmux: tmuxPath, folder: folder, arguments: [store.lastPathComponent])
        defer { terminal.close() }
        try terminal.waitFor { $0.last == "sift>" }
        let update = "UPDATE Item SET name = 'changed'"
        terminal.type(update)
        terminal.press("Enter")
        try terminal.waitFor { $0.last == "sift> " + update }
        // Time for the change to be under way (it runs for many seconds unless stopped).
        Thread.sleep(forTimeInterval: 0.5)
        terminal.press("C-c")
        try terminal.waitFor(seconds: 10) { $0.last == "sift>" && $0.contains { $0.hasSuffix("error: interrupted; nothing was changed") } }
        #expect(!terminal.screen().contains { $0.hasPrefix("updated") })
        terminal.type("COUNT Item WHERE name == 'changed'")
        terminal.press("Enter")
        try terminal.waitFor { Terminal.ran("COUNT Item WHERE name == 'changed'", on: $0) }
        let screen = terminal.screen().drop { !$0.hasPrefix("sift> COUNT Item") }
        #expect(screen.contains { $0.trimmingCharacters(in: .whitespaces) == "0" }, "\(screen)")
        terminal.press("C-d")
        #expect(try terminal.waitForExit() == 0)
        #expect(try ChangeInterruptCommandTests.count(store, "name == 'changed'") == 0)
    }
}
