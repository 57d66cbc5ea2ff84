import Foundation
import Testing
@testable import SiftCLI

/// The parts of the line editor that need no terminal: the history file (libedit's, read and
/// written as the REPL does), where it lives, and how Tab's candidates are shown.
@Suite struct LineEditorTests {
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func historyIsKeptAcrossSessionsInAFolderItMakes() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state/sift/history").path
        do {
            let history = try #require(EditLineHistory(path: path))
            history.add("COUNT Note")
            history.add("Note WHERE title ==\n  \"Groceries\"")
            history.add("Note WHERE title ==\n  \"Groceries\"")
            history.add("   ")
            history.add(".schema Note")
        }
        #expect(FileManager.default.fileExists(atPath: path))
        let reopened = try #require(EditLineHistory(path: path))
        #expect(reopened.entries == ["COUNT Note", "Note WHERE title == \"Groceries\"", ".schema Note"])
    }

    @Test func historyKeepsTheNewestEntries() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("history").path
        do {
            let history = try #require(EditLineHistory(path: path, capacity: 3))
            for n in 1...5 { history.add("COUNT Note WHERE n == \(n)") }
        }
        let reopened = try #require(EditLineHistory(path: path, capacity: 3))
        #expect(reopened.entries == (3...5).map { "COUNT Note WHERE n == \($0)" })
    }

    @Test func historyWithoutAFileStaysInMemory() throws {
        let history = try #require(EditLineHistory(path: nil))
        history.add("COUNT Tag")
        #expect(history.entries == ["COUNT Tag"])
    }

    @Test func historyFileFollowsXDGStateHome() {
        #expect(EditLineHistory.defaultPath(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/ann"]) == "/state/sift/history")
        #expect(EditLineHistory.defaultPath(environment: ["HOME": "/home/ann"]) == "/home/ann/.local/state/sift/history")
        // A relative XDG_STATE_HOME is to be ignored (XDG Base Directory Specification).
        #expect(EditLineHistory.defaultPath(environment: ["XDG_STATE_HOME": "state", "HOME": "/home/ann"]) == "/home/ann/.local/state/sift/history")
        #expect(EditLineHistory.defaultPath(environment: ["XDG_STATE_HOME": "", "HOME": "/home/ann"]) == "/home/ann/.local/state/sift/history")
        #expect(EditLineHistory.defaultPath(environment: [:]) == nil)
    }

    @Test func candidatesShareAPrefix() {
        #expect(LineEditor.commonPrefix(["localizedCompare", "localizedStandardCompare"]) == "localized")
        #expect(LineEditor.commonPrefix(["NOT", "Note"]) == "N")
        #expect(LineEditor.commonPrefix(["title"]) == "title")
        #expect(LineEditor.commonPrefix([]) == "")
    }

    @Test func candidatesAreListedInColumnsDownFirst() {
        let listed = LineEditor.columns(["AND", "ANY", "ANYKEY", "BETWEEN", "BEGINSWITH"], width: 40)
        #expect(listed == """
            AND         ANYKEY      BEGINSWITH
            ANY         BETWEEN

            """)
        #expect(LineEditor.columns(["a-rather-long-candidate", "b"], width: 10) == "a-rather-long-candidate\nb\n")
    }
}
