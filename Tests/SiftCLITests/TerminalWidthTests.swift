import Sift
import Testing
@testable import SiftCLI

/// Terminal cell widths (``TerminalWidth``), cutting with `…` and escaping control characters
/// (``TerminalText``), and fitting a table's columns to a terminal (``GridLayout``).
@Suite struct TerminalWidthTests {
    @Test(arguments: [
        ("", 0), ("abc", 3), ("Café", 4),
        ("漢字", 4), ("日本語のメモ", 12), ("한국어", 6), ("Ａ", 2), ("ｱ", 1),  // fullwidth A; halfwidth katakana
        ("e\u{301}", 1), ("Cafe\u{301}", 4), ("\u{301}", 0),  // combining acute accent
        ("🎉", 2), ("👩‍💻", 2), ("👍🏽", 2), ("🇯🇵", 2),  // emoji, a ZWJ sequence, a skin tone, a flag
        ("☺", 1), ("☺\u{FE0F}", 2),  // text-style emoji, made emoji-style
        ("a\u{200B}b", 2), ("a\u{200D}b", 2),  // zero width space and joiner
        ("\u{1B}", 0), ("\u{85}", 0),  // C0 and C1 controls
    ])
    func widths(_ text: String, _ cells: Int) {
        #expect(TerminalWidth.of(text) == cells, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test(arguments: [
        ("Groceries", 9, "Groceries"), ("Groceries", 20, "Groceries"), ("Groceries", 8, "Groceri…"),
        ("Groceries", 5, "Groc…"), ("Groceries", 1, "…"), ("Groceries", 0, ""),
        ("漢字かな", 8, "漢字かな"), ("漢字かな", 7, "漢字か…"), ("漢字かな", 6, "漢字…"), ("漢字かな", 5, "漢字…"),
        ("漢字かな", 2, "…"),
        ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),  // a cluster is kept whole
        ("👩‍💻👩‍💻", 3, "👩‍💻…"),
    ])
    func cutting(_ text: String, _ width: Int, _ expected: String) {
        let cut = TerminalText.cut(text, to: width)
        #expect(cut == expected)
        #expect(TerminalWidth.of(cut) <= max(width, 0))
    }

    @Test(arguments: [
        ("plain", "plain"), ("a\nb", "a\\nb"), ("tab\there", "tab\\there"), ("\r", "\\r"),
        ("\u{1B}[1m", "\\u001b[1m"), ("\u{7F}", "\\u007f"), ("\u{9B}", "\\u009b"), ("é漢", "é漢"),
    ])
    func controlCharactersAreEscaped(_ text: String, _ expected: String) {
        #expect(TerminalText.printable(text) == expected)
    }

    /// A layout of columns whose values are `widths` cells wide (no headings).
    static func layout(_ widths: [Int], set: [Int] = []) -> GridLayout {
        let columns = widths.indices.map { "c\($0)" }
        let record = Value.dictionary(ValueDictionary(zip(columns, widths).map { ($0, .string(String(repeating: "x", count: $1))) }))
        let context = RenderContext(output: StandardOutput(collector: { _ in }), mode: .table, options: RenderOptions(headers: false, widths: set))
        return GridLayout(columns: columns, records: [record], context: context, markdown: false)
    }

    @Test(arguments: [
        ([3, 4], 10, [3, 4]),  // fits already
        ([10, 30, 5], 30, [10, 15, 5]),  // only the widest is cut
        ([10, 30, 5], 28, [10, 13, 5]),
        ([20, 20, 5], 30, [13, 12, 5]),  // both cut; the cell left over goes to the first
        ([20, 20, 20], 10, [4, 4, 4]),  // never below 4 cells: too narrow a terminal overflows
        ([2, 50], 10, [2, 8]),
    ])
    func fittingCutsTheWidestColumns(_ widths: [Int], _ available: Int, _ expected: [Int]) {
        var layout = Self.layout(widths)
        layout.fit(into: available)
        #expect(layout.widths == expected)
    }

    /// A layout of one record's columns (no headings): a positive entry is a number of that
    /// many digits, a negative one text of that many cells.
    static func numberLayout(_ columns: [Int], set: [Int] = [], markdown: Bool = false) -> GridLayout {
        let names = columns.indices.map { "c\($0)" }
        let record = Value.dictionary(ValueDictionary(zip(names, columns).map { name, width in
            (name, width > 0 ? .int(Int64(String(repeating: "9", count: width))!) : .string(String(repeating: "x", count: -width)))
        }))
        let context = RenderContext(output: StandardOutput(collector: { _ in }), mode: .table, options: RenderOptions(headers: false, widths: set))
        return GridLayout(columns: names, records: [record], context: context, markdown: markdown)
    }

    @Test(arguments: [
        ([7, -30], 20, [7, 13]),  // the text is cut, the number kept
        ([7, -30, 10], 20, [7, 4, 10]),  // too narrow: the text as narrow as it goes, the numbers whole
        ([-10, 12, -10], 24, [6, 12, 6]),
        ([15, 15], 10, [15, 15]),  // numbers alone overflow
    ])
    func fittingNeverCutsANumber(_ columns: [Int], _ available: Int, _ expected: [Int]) {
        var layout = Self.numberLayout(columns)
        layout.fit(into: available)
        #expect(layout.widths == expected)
    }

    @Test func widthNeverCutsANumberNorMarkdown() {
        #expect(Self.numberLayout([7, -10], set: [3, 3]).widths == [7, 3])
        #expect(Self.numberLayout([7, -10], set: [3, 3], markdown: true).widths == [7, 10])
        #expect(Self.numberLayout([7, -10], set: [9, 12], markdown: true).widths == [9, 12])
        #expect(RenderCell(.int(3_304_404), nullValue: "").cut(to: 3).text == "3304404")
        #expect(RenderCell(.double(0.982), nullValue: "").cut(to: 3).text == "0.982")
        #expect(RenderCell(.string("3304404"), nullValue: "").cut(to: 4).text == "330…", "text of digits is text")
    }

    @Test func widthSetsColumnsAndZeroLeavesThemAutomatic() {
        #expect(Self.layout([10, 2, 7], set: [4, 0, 9]).widths == [4, 2, 9])
        #expect(Self.layout([10, 2], set: [0, 0, 5, 5]).widths == [10, 2])
    }

    @Test func cellsAreCutByTheirCells() {
        let cell = RenderCell(.string("日本語のメモ"), nullValue: "")
        #expect(cell.width == 12)
        #expect(cell.cut(to: 7).text == "日本語…")
        #expect(cell.cut(to: 7).width == 7)
        let null = RenderCell(.null, nullValue: "NULL")
        #expect(null.text == "NULL" && null.isNull && !null.isNumber)
        #expect(RenderCell(.double(8.5), nullValue: "").isNumber)
        #expect(RenderCell(.string("a|b"), nullValue: "", markdown: true).text == "a\\|b")
    }
}
