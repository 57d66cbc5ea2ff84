/// `.mode box`: the table drawn with box-drawing lines, as sqlite3's `.mode box` draws it —
/// a space either side of each cell:
///
///     ┌─────────┬────────┐
///     │ title   │ rating │
///     ├─────────┼────────┤
///     │ Alien   │    8.5 │
///     │ Gravity │      7 │
///     └─────────┴────────┘
struct BoxDrawing: GridDrawing {
    let style: TerminalStyle

    var isMarkdown: Bool { false }

    func width(of widths: [Int]) -> Int {
        widths.reduce(0, +) + 3 * widths.count + 1
    }

    func open(_ layout: GridLayout) -> [String] {
        var lines = [border(layout.widths, "┌", "┬", "┐")]
        if let headings = layout.headings {
            lines.append(line(headings.enumerated().map { c, heading in
                let cut = heading.cut(to: layout.widths[c])
                return (cut, layout.rightAlignedHeadings[c], style.heading(cut.text))
            }, layout.widths))
            lines.append(border(layout.widths, "├", "┼", "┤"))
        }
        return lines
    }

    func row(_ cells: [RenderCell], _ layout: GridLayout) -> String {
        line(cells.map { ($0, $0.isNumber, style.cell($0)) }, layout.widths)
    }

    func close(_ layout: GridLayout) -> [String] {
        [border(layout.widths, "└", "┴", "┘")]
    }

    private func border(_ widths: [Int], _ left: String, _ middle: String, _ right: String) -> String {
        style.rule(left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right)
    }

    private func line(_ cells: [(cell: RenderCell, rightAligned: Bool, styled: String)], _ widths: [Int]) -> String {
        let bar = style.rule("│")
        var line = GridLine()
        line.append(bar)
        for (c, cell) in cells.enumerated() {
            line.pad(1)
            line.cell(cell.cell, width: widths[c], rightAligned: cell.rightAligned, styled: cell.styled)
            line.pad(1)
            line.append(bar)
        }
        return line.text
    }
}
