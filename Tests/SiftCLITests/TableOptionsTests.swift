import Sift
import Testing
@testable import SiftCLI

/// The one table renderer (``GridRenderer``) under each ``RenderOptions`` that tells the
/// commands' `--output table` from the REPL's `.mode table`, one option at a time, where the
/// golden outputs show them only together.
@Suite struct TableOptionsTests {
    /// A column named "" holding only nil, a column of numbers, and a text ending in a space.
    static let records: [Value] = [
        .dictionary(ValueDictionary([("", .null), ("n", .int(1)), ("t", .string("a "))])),
        .dictionary(ValueDictionary([("", .null), ("n", .int(22)), ("t", .string("b"))])),
    ]

    /// What the table renderer prints for `records` (and `sections` before them, when given).
    static func printed(_ options: RenderOptions, sectioned: Bool = false, _ feed: (inout GridRenderer) -> Void) -> String {
        var text = ""
        let output = StandardOutput(collector: { text += $0 })
        let context = RenderContext(output: output, mode: .table, options: options, sectioned: sectioned)
        var renderer = GridRenderer(context: context, drawing: TableDrawing(style: context.style))
        feed(&renderer)
        renderer.finish()
        output.flush()
        return text
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let options: RenderOptions
        let expected: String
        var testDescription: String { name }
    }

    static func session(_ change: (inout RenderOptions) -> Void) -> RenderOptions {
        var options = RenderOptions.session
        change(&options)
        return options
    }

    static let cases: [Case] = [
        Case(name: "the REPL's", options: .session, expected: "    n  t\n-  --  --\n    1  a \n   22  b\n(2 rows)\n"),
        Case(name: "a column 0 wide", options: session { $0.narrowestColumn = 0 },
             expected: "   n  t\n  --  --\n   1  a \n  22  b\n(2 rows)\n"),
        Case(name: "headings left-aligned", options: session { $0.alignsHeadingsWithNumbers = false },
             expected: "   n   t\n-  --  --\n    1  a \n   22  b\n(2 rows)\n"),
        Case(name: "trailing spaces trimmed", options: session { $0.trimsTrailingSpaces = true },
             expected: "    n  t\n-  --  --\n    1  a\n   22  b\n(2 rows)\n"),
        Case(name: "the commands'", options: .commands, expected: "  n   t\n  --  --\n   1  a\n  22  b\n(2 rows)\n"),
    ]

    @Test(arguments: cases)
    func eachOptionChangesItsPart(_ c: Case) {
        let text = Self.printed(c.options) { renderer in
            for record in Self.records { renderer.write(record) }
        }
        #expect(text == c.expected)
    }

    @Test func separateTablesMeasureEachSectionAndCountIt() {
        let text = Self.printed(.commands, sectioned: true) { renderer in
            renderer.beginSection(RecordSection(name: "A", indexTitle: "A", count: 1))
            renderer.write(Self.records[0])
            renderer.beginSection(RecordSection(name: "B", indexTitle: "B", count: 1))
            renderer.write(Self.records[1])
            renderer.beginSection(RecordSection(name: "C", indexTitle: "C", count: 0))
        }
        #expect(text == """
            # section "A": 1 object
              n  t
              -  --
              1  a
            (1 row)

            # section "B": 1 object
              n   t
              --  -
              22  b
            (1 row)

            # section "C": 0 objects
              n  t
              -  -
            (0 rows)

            """)
    }

    @Test func headedSectionsShareOneTableAndOneFooter() {
        let text = Self.printed(.session) { renderer in
            renderer.beginSection(RecordSection(name: "A", indexTitle: "A", count: 1))
            renderer.write(Self.records[0])
            renderer.beginSection(RecordSection(name: "B", indexTitle: "B", count: 1))
            renderer.write(Self.records[1])
        }
        #expect(text == "── A (1 row) ──\n    n  t\n-  --  --\n    1  a \n\n── B (1 row) ──\n    n  t\n-  --  --\n   22  b\n(2 rows)\n")
    }

    @Test func noSectionsPrintNothingButNoResultsAFooter() {
        #expect(Self.printed(.commands, sectioned: true) { _ in }.isEmpty)
        #expect(Self.printed(.commands) { _ in } == "(0 rows)\n")
    }

    @Test func aTableStoppedByAnErrorPrintsNothing() {
        var text = ""
        let output = StandardOutput(collector: { text += $0 })
        let renderer = TableRenderer(output: output)
        var stream = renderer.sectionStream()
        stream.begin(RecordSection(name: "A", indexTitle: "A", count: 2))
        stream.write(Match(value: Self.records[0], position: 0, text: []))
        stream.abandon()
        output.flush()
        #expect(text.isEmpty)
    }
}
