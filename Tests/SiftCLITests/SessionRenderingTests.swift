import ChinookSupport
import Foundation
import Sift
import Synchronization
import Testing
@testable import SiftCLI

/// The session's renderers where transcripts cannot show them: on a terminal (its width,
/// colour, `NO_COLOR`, `.x auto`), and streaming (rows printed before the results end).
@Suite struct SessionRenderingTests {
    /// What a session prints for `lines` on the Notes store, with a terminal of `width` cells
    /// when `terminal` is set.
    static func run(_ lines: [String], terminal: Bool, width: Int? = nil, environment: [String: String] = [:],
                    prepare: (Session, URL) -> Void = { _, _ in }) throws -> String {
        let directory = try TranscriptTests.fixtureDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let collected = Mutex("")
        let output = SessionOutput.collecting(into: { text in collected.withLock { $0 += text } }, isTerminal: terminal, width: width)
        let session = Session(output: output, source: .script(name: "test.sift"))
        session.settings.environment = environment
        session.open(store: try SessionStores.open(directory.appendingPathComponent("notes.sqlite").path), label: "notes.sqlite")
        prepare(session, directory)
        for line in lines { session.feed(line) }
        session.endOfInput()
        return collected.withLock { $0 }
    }

    static let escape = "\u{1B}["

    /// `text` without SGR escapes.
    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    static let wideTable = "Note SORT BY title"

    /// What a session prints for `lines` on a Chinook-shaped database (a database Sift did not
    /// create), on a terminal of `width` cells.
    static func runChinook(_ lines: [String], width: Int?) throws -> String {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        return try run(lines, on: url.path, width: width)
    }

    /// What a session prints for `lines` on the store at `path` (standard output and standard
    /// error together), on a terminal of `width` cells (none when nil), without colour.
    static func run(_ lines: [String], on path: String, width: Int?) throws -> String {
        let collected = Mutex("")
        let output = SessionOutput.collecting(into: { text in collected.withLock { $0 += text } }, isTerminal: width != nil, width: width)
        let session = Session(output: output, source: .script(name: "test.sift"))
        session.settings.environment = ["NO_COLOR": "1"]
        session.open(store: try SessionStores.open(path), label: URL(fileURLWithPath: path).lastPathComponent)
        for line in lines { session.feed(line) }
        session.endOfInput()
        return collected.withLock { $0 }
    }

    @Test func aTerminalGetsColourAndATableCutToItsWidth() throws {
        let text = try Self.run([".x off", Self.wideTable], terminal: true, width: 60)
        #expect(text.contains(Self.escape + "1m@entity"), "bold headings")
        #expect(text.contains(Self.escape + "2m(5 rows)"), "a dim footer")
        let lines = Self.plain(text).split(separator: "\n")
        #expect(lines.count == 8)
        for line in lines { #expect(TerminalWidth.of(String(line)) <= 60, "\(line)") }
        #expect(lines.contains { $0.contains("…") }, "cut cells")
        #expect(lines.contains { $0.hasPrefix("Note     N5   Café") }, "narrow columns keep their width")
    }

    @Test(arguments: ["", "1", "0"])
    func noColourWhenNO_COLORIsSet(_ value: String) throws {
        let text = try Self.run([".x off", Self.wideTable], terminal: true, width: 60, environment: ["NO_COLOR": value])
        #expect(!text.contains("\u{1B}"))
        for line in text.split(separator: "\n") { #expect(TerminalWidth.of(String(line)) <= 60, "\(line)") }
    }

    @Test func noColourAndNoCuttingWithoutATerminal() throws {
        let text = try Self.run([Self.wideTable], terminal: false, width: 60)
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("…"))
        #expect(text.split(separator: "\n").contains { TerminalWidth.of(String($0)) > 60 })
    }

    @Test func nilValuesAreDimmedOnATerminal() throws {
        let text = try Self.run([".nullvalue NULL", "SELECT title, contents FROM Note WHERE title == \"My Second Note\""], terminal: true, width: 80)
        #expect(text.contains(Self.escape + "2mNULL" + Self.escape + "0m"))
    }

    @Test func boxBordersAreDimOnATerminal() throws {
        let text = try Self.run([".mode box", "COUNT Note"], terminal: true, width: 80)
        #expect(text.contains(Self.escape + "2m┌───────┐" + Self.escape + "0m"))
        #expect(Self.plain(text).contains("│     5 │"))
    }

    @Test func expandedAutoPrintsRecordsWhenTheTableIsWiderThanTheTerminal() throws {
        let narrow = try Self.plain(Self.run([".x auto", Self.wideTable], terminal: true, width: 60))
        #expect(narrow.contains("-[ RECORD 1 ]"))
        #expect(narrow.contains("title     | Café ideas"))
        let wide = try Self.plain(Self.run([".x auto", Self.wideTable], terminal: true, width: 200))
        #expect(!wide.contains("RECORD"))
        #expect(wide.contains("@entity  @id  title"))
    }

    @Test func aTableWiderThanTheTerminalPrintsVerticallyByDefault() throws {
        let narrow = try Self.plain(Self.run([Self.wideTable], terminal: true, width: 60))
        #expect(narrow.contains("-[ RECORD 1 ]"))
        let wide = try Self.plain(Self.run([Self.wideTable], terminal: true, width: 200))
        #expect(!wide.contains("RECORD"))
        #expect(wide.contains("@entity  @id  title"))
        let piped = try Self.run([Self.wideTable], terminal: false)
        #expect(!piped.contains("RECORD"), "no terminal, no width to exceed")
    }

    @Test(arguments: [SessionSettings.Mode.table, .box])
    func numbersAreNeverCutToFitATerminal(_ mode: SessionSettings.Mode) throws {
        let statement = "SELECT TrackId, Name, Composer, Milliseconds, Bytes, UnitPrice FROM Track WHERE TrackId <= 12 SORT BY TrackId"
        let whole = try Self.runChinook([".mode \(mode)", statement], width: nil)
        let cut = try Self.runChinook([".mode \(mode)", ".x off", statement], width: 40)
        #expect(cut.contains("…"), "text is cut: \(cut)")
        #expect(!cut.contains("RECORD"))
        // Every number of the uncut table is in the cut one, whole.
        let numbers = whole.split(whereSeparator: { " │|\n".contains($0) }).filter { Double($0) != nil && $0.count > 2 }
        #expect(numbers.count > 20)
        let cutWords = Set(cut.split(whereSeparator: { " │|\n".contains($0) }))
        for number in numbers { #expect(cutWords.contains(number), "\(number) cut: \(cut)") }
        for line in cut.split(separator: "\n") where line.contains("…") {
            #expect(!line.split(separator: " ").contains { $0.hasSuffix("…") && Double($0.dropLast()) != nil }, "a number cut: \(line)")
        }
    }

    @Test func aColumnSetByWidthWidensToItsNumbers() throws {
        let text = try Self.runChinook([".width 3 3", "SELECT Bytes, Name FROM Track WHERE TrackId == 1"], width: nil)
        #expect(text == "  Bytes  Na…\n-------  ---\n5167513  Lo…\n(1 row)\n", "the number whole, the text cut to .width")
    }

    @Test func markdownIsNeverCutNorTurnedVertical() throws {
        let statement = "SELECT TrackId, Name, Composer, Milliseconds, Bytes FROM Track WHERE TrackId <= 3 SORT BY TrackId"
        let piped = try Self.runChinook([".mode markdown", statement], width: nil)
        for x in ["auto", "off"] {
            let text = try Self.runChinook([".mode markdown", ".x \(x)", statement], width: 30)
            #expect(text == piped, ".x \(x)")
        }
        #expect(!piped.contains("…"))
        #expect(try Self.runChinook([".mode markdown", ".width 2 2 2", statement], width: nil) == piped, ".width pads, never cuts")
        #expect(try Self.runChinook([".mode markdown", ".x on", statement], width: 30).contains("-[ RECORD 1 ]"), ".x on still prints records")
    }

    @Test func aFileGetsPlainUncutText() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sift-rendering-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let shown = try Self.run([Self.wideTable], terminal: true, width: 60) { session, _ in
            #expect(throws: Never.self) { try session.output.redirect(to: file, once: true) }
        }
        #expect(shown.isEmpty)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!written.contains("\u{1B}"))
        #expect(!written.contains("…"))
        #expect(written.contains("Note     N1   My First Note   Some text ..."))
    }

    // MARK: Streaming

    /// Output a renderer has printed so far (flushed after each record, as for a terminal).
    final class Printed {
        var text = ""
        private(set) lazy var output = StandardOutput(collector: { [unowned self] in self.text += $0 }, interactive: true)

        /// The text with the footer (written but not flushed: the session flushes at the end of
        /// each result).
        var flushed: String {
            output.flush()
            return text
        }
    }

    static func renderer(_ mode: SessionSettings.Mode, _ printed: Printed) -> any RecordRenderer {
        RenderContext(output: printed.output, mode: mode).makeRenderer()
    }

    static func record(_ n: Int, title: String? = nil, extra: Bool = false) -> Value {
        var pairs: [(String, Value)] = [("n", .int(Int64(n))), ("title", .string(title ?? "row \(n)"))]
        if extra { pairs.append(("more", .bool(true))) }
        return .dictionary(ValueDictionary(pairs))
    }

    @Test(arguments: [SessionSettings.Mode.table, .box, .markdown])
    func tablesPrintABatchAtOnceAndWidenForALaterLongerValue(_ mode: SessionSettings.Mode) {
        let printed = Printed()
        var renderer = Self.renderer(mode, printed)
        for n in 1..<GridRenderer.batchSize { renderer.write(Self.record(n)) }
        #expect(printed.text.isEmpty, "measuring the first batch")
        renderer.write(Self.record(GridRenderer.batchSize))
        let first = printed.text
        #expect(first.contains("title") && first.contains("row 1") && first.contains("row 100"))
        renderer.write(Self.record(101, title: "a much longer title than any before"))
        #expect(!printed.text.contains("(101 rows)"))
        renderer.finish()
        let text = printed.flushed
        #expect(text.contains("a much longer title than any before"), "never cut to an earlier batch's width")
        #expect(!text.contains("…"))
        #expect(text.components(separatedBy: "title").count - 1 == 3, "the headings again, in the wider columns: \(text)")
        #expect(text.contains("(101 rows)"))
    }

    @Test func aLaterRecordWithNewKeysStartsANewTable() {
        let printed = Printed()
        var renderer = Self.renderer(.table, printed)
        for n in 1...GridRenderer.batchSize { renderer.write(Self.record(n)) }
        renderer.write(Self.record(101, extra: true))
        renderer.finish()
        let lines = printed.flushed.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("  n") }.count == 2, "two headings lines")
        #expect(lines.contains("101  row 101  true"))
        #expect(lines.last == "(101 rows)")
    }

    @Test(arguments: [SessionSettings.Mode.line, .json, .jsonl])
    func recordModesPrintEachRecordAsItComes(_ mode: SessionSettings.Mode) {
        let printed = Printed()
        var renderer = Self.renderer(mode, printed)
        renderer.write(Self.record(1))
        #expect(printed.text.contains("row 1"))
    }

    @Test func csvPrintsItsHeaderOnceTheFirstBatchIsIn() {
        let printed = Printed()
        var renderer = Self.renderer(.csv, printed)
        for n in 1...GridRenderer.batchSize { renderer.write(Self.record(n)) }
        #expect(printed.text.hasPrefix("n,title\r\n1,row 1\r\n"))
        renderer.write(Self.record(101, extra: true))
        renderer.write(Self.record(102))
        renderer.finish()
        #expect(printed.flushed.hasSuffix("100,row 100\r\nn,title,more\r\n101,row 101,true\r\n102,row 102,\r\n"))
    }
}
