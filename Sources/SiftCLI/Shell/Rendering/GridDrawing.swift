/// How a table is drawn in one mode (table, box, markdown): the lines that open it (borders,
/// headings, the rule under them), one line per row, and the lines that close it. Cells arrive
/// already cut to their column's width; a drawing pads and aligns them (numbers right).
protocol GridDrawing {
    /// Whether cells are escaped for Markdown (`|` as `\|`).
    var isMarkdown: Bool { get }
    /// The cells a table with columns of `widths` takes, borders and gaps included.
    func width(of widths: [Int]) -> Int
    /// The lines before the first row: a top border, the headings (unless nil) and the rule
    /// under them.
    func open(_ layout: GridLayout) -> [String]
    func row(_ cells: [RenderCell], _ layout: GridLayout) -> String
    /// The lines after the last row (a bottom border).
    func close(_ layout: GridLayout) -> [String]
}

extension TerminalStyle {
    /// A value cell's text: nil values dimmed.
    func cell(_ cell: RenderCell) -> String {
        cell.isNull ? null(cell.text) : cell.text
    }
}
