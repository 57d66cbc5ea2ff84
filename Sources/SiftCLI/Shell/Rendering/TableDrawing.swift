/// `.mode table`: aligned columns as sqlite3's `.mode column` and psql print them — headings,
/// a rule of dashes, rows, two spaces between columns, no trailing spaces:
///
///     title      rating  year
///     ---------  ------  ----
///     Alien         8.5  1979
///     Gravity         7  2013
struct TableDrawing: GridDrawing {
    let style: TerminalStyle

    var isMarkdown: Bool { false }

    static let gap = 2

    func width(of widths: [Int]) -> Int {
        widths.reduce(0, +) + Self.gap * max(0, widths.count - 1)
    }

    func open(_ layout: GridLayout) -> [String] {
        guard let headings = layout.headings else { return [] }
        var line = GridLine()
        for (c, heading) in headings.enumerated() {
            if c > 0 { line.pad(Self.gap) }
            let cut = heading.cut(to: layout.widths[c])
            line.cell(cut, width: layout.widths[c], rightAligned: layout.numeric[c], styled: style.heading(cut.text))
        }
        let rule = layout.widths.map { String(repeating: "-", count: $0) }.joined(separator: String(repeating: " ", count: Self.gap))
        return [line.text, style.rule(rule)]
    }

    func row(_ cells: [RenderCell], _ layout: GridLayout) -> String {
        var line = GridLine()
        for (c, cell) in cells.enumerated() {
            if c > 0 { line.pad(Self.gap) }
            line.cell(cell, width: layout.widths[c], rightAligned: cell.isNumber, styled: style.cell(cell))
        }
        return line.text
    }

    func close(_ layout: GridLayout) -> [String] { [] }
}
