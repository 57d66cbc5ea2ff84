/// `.mode markdown`: a GitHub Markdown table, as sqlite3's `.mode markdown` prints it, with
/// number columns right-aligned (`--:`) and `|` in cells escaped as `\|`:
///
///     | title   | rating |
///     |---------|-------:|
///     | Alien   |    8.5 |
///
/// With `.headers off` the heading cells are left empty (a Markdown table must have a heading
/// row).
struct MarkdownDrawing: GridDrawing {
    let style: TerminalStyle

    var isMarkdown: Bool { true }

    func width(of widths: [Int]) -> Int {
        widths.reduce(0, +) + 3 * widths.count + 1
    }

    func open(_ layout: GridLayout) -> [String] {
        let headings = layout.headings?.enumerated().map { c, heading in
            let cut = heading.cut(to: layout.widths[c])
            return (cut, layout.rightAlignedHeadings[c], style.heading(cut.text))
        } ?? layout.widths.map { _ in (RenderCell(heading: ""), false, "") }
        let rule = "|" + zip(layout.widths, layout.numeric).map { width, numeric in
            numeric ? String(repeating: "-", count: width + 1) + ":" : String(repeating: "-", count: width + 2)
        }.joined(separator: "|") + "|"
        return [line(headings, layout.widths), style.rule(rule)]
    }

    func row(_ cells: [RenderCell], _ layout: GridLayout) -> String {
        line(cells.map { ($0, $0.isNumber, style.cell($0)) }, layout.widths)
    }

    func close(_ layout: GridLayout) -> [String] { [] }

    private func line(_ cells: [(cell: RenderCell, rightAligned: Bool, styled: String)], _ widths: [Int]) -> String {
        var line = GridLine()
        line.append("|")
        for (c, cell) in cells.enumerated() {
            line.pad(1)
            line.cell(cell.cell, width: widths[c], rightAligned: cell.rightAligned, styled: cell.styled)
            line.pad(1)
            line.append("|")
        }
        return line.text
    }
}
