import Sift

/// `--output table`: aligned columns, as psql or sqlite3's `.mode column` print them — a header,
/// a rule, one row per result (numbers right-aligned, nil empty), and a `(N rows)` footer:
///
///     name  age  city
///     ----  ---  ------
///     Ann    30  Berlin
///     Bob    41
///     (2 rows)
///
/// Columns are the union of the results' top-level keys in the order first seen. With
/// sections, each section is a `# section` line and a table (the same columns in each).
/// Cells and lines are the REPL's (``RenderCell``, ``TableDrawing/line(_:_:)``), with nil
/// empty, headings left-aligned and nothing cut; every result sets the widths.
struct TableRenderer: ResultRenderer {
    let output: StandardOutput
    private var matches: [Match] = []

    init(output: StandardOutput) { self.output = output }

    mutating func write(_ match: Match) {
        matches.append(match)
    }

    mutating func finish() {
        render(matches, ColumnSet(matches.lazy.map(\.value)))
    }

    mutating func writeSections(_ sections: [MatchSection]) {
        let columns = ColumnSet(sections.lazy.flatMap(\.matches).map(\.value))
        for (i, section) in sections.enumerated() {
            if i > 0 { output.write("\n") }
            output.write(SectionHeading.line(section) + "\n")
            render(section.matches, columns)
        }
    }

    private func render(_ matches: [Match], _ columns: ColumnSet) {
        let footer = RowCount.footer(matches.count) + "\n"
        guard !columns.names.isEmpty else { return output.write(footer) }
        let header = columns.names.map { RenderCell(heading: $0) }
        var rows: [[RenderCell]] = []
        rows.reserveCapacity(matches.count)
        var widths = header.map(\.width)
        for match in matches {
            var row: [RenderCell] = []
            row.reserveCapacity(columns.names.count)
            for (c, column) in columns.names.enumerated() {
                let cell = RenderCell(ColumnSet.cell(match.value, column), nullValue: RenderOptions.commands.nullValue)
                widths[c] = max(widths[c], cell.width)
                row.append(cell)
            }
            rows.append(row)
        }
        output.write(line(header.map { ($0, false) }, widths))
        output.write(line(widths.map { (RenderCell(heading: String(repeating: "-", count: $0)), false) }, widths))
        for row in rows { output.write(line(row.map { ($0, $0.isNumber) }, widths)) }
        output.write(footer)
    }

    /// A line of cells without trailing spaces (not even a cell's own).
    private func line(_ cells: [(cell: RenderCell, rightAligned: Bool)], _ widths: [Int]) -> String {
        var text = TableDrawing.line(cells.map { ($0.cell, $0.rightAligned, $0.cell.text) }, widths)
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }
}
