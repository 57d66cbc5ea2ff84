import Foundation
import Sift
import Synchronization
@testable import SiftCLI
import Testing

/// `.watch` in the REPL at a real terminal (tmux, as ``TerminalREPLTests``): another process
/// (this test) commits to the store, and the REPL draws the results again with the inserted and
/// moved rows marked; Ctrl-C returns to the prompt, which answers the next statement.
@Suite(.serialized) struct TerminalWatchTests {
    @Test func watchRedrawsAfterAnotherProcessWrites() throws {
        guard let tmuxPath = Terminal.tmuxPath else {
            Issue.record("tmux is not installed: run scripts/ensure-packages (scripts/test does)")
            return
        }
        let folder = try TranscriptTests.fixtureDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.sqlite")
        let terminal = try Terminal(tmux: tmuxPath, folder: folder, arguments: ["notes.sqlite"])
        defer { terminal.close() }
        try terminal.waitFor { $0.last == "sift>" }
        terminal.type(".watch Tag SORT BY name")
        terminal.press("Enter")
        // A row of the last drawing (on a terminal with colour the screen is cleared before each;
        // under NO_COLOR the drawings follow one another).
        func row(_ id: String, _ screen: [String]) -> String? {
            let last = screen.lastIndex { $0.hasPrefix("±") }.map { screen[$0...] } ?? screen[...]
            return last.first { $0.split(separator: " ").contains(Substring(id)) && $0.contains("Tag") }
        }
        try terminal.waitFor { screen in screen.contains { $0.hasPrefix("-- watching") } && row("T3", screen) != nil }
        #expect(terminal.screen().contains { $0.hasPrefix("±") && $0.contains("@id") })

        // Another process inserts a tag: drawn again, the new row marked +.
        let writer = try SQLiteStore.open(at: file)
        try writer.insert(entity: "Tag", id: ObjectID("T9"), attributes: ["name": .string("Aardvark")], relationships: [:])
        try writer.save()
        try terminal.waitFor { screen in screen.contains { $0.hasPrefix("-- changed: 1 inserted") } }
        #expect(row("T9", terminal.screen())?.hasPrefix("+") == true, "\(terminal.screen())")
        #expect(row("T1", terminal.screen())?.hasPrefix(" ") == true, "\(terminal.screen())")

        // A rename that moves a row: marked >, the + gone.
        try writer.update(ObjectID("T3"), attributes: ["name": .string("Zzz")], relationships: [:])
        try writer.save()
        try terminal.waitFor { screen in screen.contains { $0.hasPrefix("-- changed: 1 moved") } }
        let moved = terminal.screen()
        #expect(row("T3", moved)?.hasPrefix(">") == true, "\(moved)")
        #expect(row("T9", moved)?.hasPrefix(" ") == true, "\(moved)")
        #expect(moved.lastIndex { $0.contains(" T3 ") } ?? 0 > moved.lastIndex { $0.contains(" T1 ") } ?? 0)

        // Ctrl-C: back at the prompt, no error, and the next statement runs.
        terminal.press("C-c")
        try terminal.waitFor { $0.last == "sift>" }
        #expect(!terminal.screen().contains { $0.contains("error") })
        terminal.type("COUNT Tag")
        terminal.press("Enter")
        try terminal.waitFor { Terminal.ran("COUNT Tag", on: $0) }
        terminal.press("C-d")
        #expect(try terminal.waitForExit() == 0)
    }

    /// Where nothing stops it with Ctrl-C (a session whose lines no interrupter runs: piped
    /// input), `.watch` is refused, not left waiting for ever.
    @Test func refusedWhereCtrlCCannotEndIt() throws {
        let folder = try TranscriptTests.fixtureDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let collected = Mutex("")
        let session = Session(output: .collecting(into: { text in collected.withLock { $0 += text } }), source: .interactive)
        session.open(store: try SQLiteStore.open(at: folder.appendingPathComponent("notes.sqlite")), label: "notes.sqlite")
        session.feed(".watch Tag SORT BY name")
        session.output.flush()
        #expect(collected.withLock { $0 }.contains("error: .watch runs until Ctrl-C"), "\(collected.withLock { $0 })")
        #expect(session.failures == 1)
    }
}

/// What `.watch` draws: the marks of a change set's rows (by new index path; none in the first
/// drawing), and the marked rows of a table or box coloured on a terminal.
@Suite struct LiveWatchDrawingTests {
    @Test func marksByNewIndexPath() {
        let snapshot = ResultsSnapshot(sections: [.init(name: "a", objectIDs: ["o1", "o2", "o3"])])
        let changes = ResultsChangeSet(
            inserts: [.init(kind: .insert, objectID: "o1", oldIndexPath: nil, newIndexPath: .init(section: 0, row: 0))],
            moves: [.init(kind: .move, objectID: "o3", oldIndexPath: .init(section: 0, row: 0), newIndexPath: .init(section: 0, row: 2))],
            updates: [.init(kind: .update, objectID: "o2", oldIndexPath: .init(section: 0, row: 1), newIndexPath: .init(section: 0, row: 1))],
            snapshot: snapshot)
        #expect(LiveWatch.marks(changes, first: false) == [.init(section: 0, row: 0): "+", .init(section: 0, row: 1): "*", .init(section: 0, row: 2): ">"])
        #expect(LiveWatch.marks(changes, first: true).isEmpty)
        #expect(LiveWatch.summary(changes, first: false) == "changed: 1 inserted, 1 moved, 1 updated")
        #expect(LiveWatch.summary(ResultsChangeSet(snapshot: snapshot), first: false) == "changed: nothing shown")
    }

    @Test func colouredRows() {
        let table = "±  @id  name\n-  ---  ----\n+  o1   x\n   o2   y\n*  o3   z\n>  o4   w"
        #expect(LiveWatch.coloured(table) == "±  @id  name\n-  ---  ----\n\u{1B}[32m+  o1   x\u{1B}[0m\n   o2   y\n\u{1B}[33m*  o3   z\u{1B}[0m\n\u{1B}[36m>  o4   w\u{1B}[0m")
        #expect(LiveWatch.coloured("│ + │ o1 │") == "\u{1B}[32m│ + │ o1 │\u{1B}[0m")
        #expect(LiveWatch.coloured("│   │ o2 │") == "│   │ o2 │")
    }

    @Test func markedRecordsPutTheMarkerFirst() {
        let record = Value.dictionary(ValueDictionary([("@id", .string("o1")), ("name", .string("x"))]))
        guard case .dictionary(let marked) = LiveWatch.marked(record, "+") else {
            Issue.record("not a dictionary")
            return
        }
        #expect(marked.keys == ["±", "@id", "name"])
        #expect(marked.values.map { CellText.text($0) } == ["+", "o1", "x"])
    }
}
