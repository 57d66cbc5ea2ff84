/// `.mode table`: aligned columns as sqlite3's `.mode column` and psql print them — headings,
/// a rule of dashes, rows, two spaces between columns, no trailing spaces:
///
///     title      rating  year
///     ---------  ------  ----
///     Alien         8.5  1979
///     Gravity         7  2013
///
/// `sift query --output table` draws with it too, under the commands' options (``TableRenderer``).
struct TableDrawing: GridDrawing {
    let style: TerminalStyle

    var isMarkdown: Bool { false }

    static let gap = 2

    func width(of widths: [Int]) -> Int {
        widths.reduce(0, +) + Self.gap * max(0, widths.count - 1)
    }

    func open(_ layout: GridLayout) -> [String] {
        guard let headings = layout.headings else { return [] }
        let line = Self.line(headings.enumerated().map { c, heading in
            let cut = heading.cut(to: layout.widths[c])
            return (cut, layout.rightAlignedHeadings[c], style.heading(cut.text))
        }, layout.widths)
        let rule = layout.widths.map { String(repeating: "-", count: $0) }.joined(separator: String(repeating: " ", count: Self.gap))
        return [line, style.rule(rule)]
    }

    func row(_ cells: [RenderCell], _ layout: GridLayout) -> String {
        Self.line(cells.map { ($0, $0.isNumber, style.cell($0)) }, layout.widths)
    }

    func close(_ layout: GridLayout) -> [String] { [] }

    /// Cells ``gap`` spaces apart, each padded to its column's width (on the left when it is
    /// right-aligned; `styled` is its text as printed), with no padding at the end.
    static func line(_ cells: [(cell: RenderCell, rightAligned: Bool, styled: String)], _ widths: [Int]) -> String {
        var line = GridLine()
        for (c, cell) in cells.enumerated() {
            if c > 0 { line.pad(gap) }
            line.cell(cell.cell, width: widths[c], rightAligned: cell.rightAligned, styled: cell.styled)
        }
        return line.text
    }
}
