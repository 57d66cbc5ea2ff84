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
struct TableRenderer: ResultRenderer {
    let output: StandardOutput
    private var matches: [Match] = []

    init(output: StandardOutput) { self.output = output }

    mutating func write(_ match: Match) {
        matches.append(match)
    }

    mutating func finish() {
        let columns = Columns(matches.lazy.map(\.value))
        render(matches, columns)
    }

    mutating func writeSections(_ sections: [MatchSection]) {
        let columns = Columns(sections.lazy.flatMap(\.matches).map(\.value))
        for (i, section) in sections.enumerated() {
            if i > 0 { output.write("\n") }
            output.write(SectionHeading.line(section) + "\n")
            render(section.matches, columns)
        }
    }

    private func render(_ matches: [Match], _ columns: Columns) {
        let footer = "(\(matches.count) row\(matches.count == 1 ? "" : "s"))\n"
        guard !columns.names.isEmpty else { return output.write(footer) }
        let header = columns.names.map(Self.printable)
        var rows: [[(text: String, number: Bool)]] = []
        rows.reserveCapacity(matches.count)
        var widths = header.map(Self.displayWidth)
        for match in matches {
            var row: [(text: String, number: Bool)] = []
            row.reserveCapacity(columns.names.count)
            for (c, column) in columns.names.enumerated() {
                let value = columns.cell(match.value, column)
                let text = Self.printable(CellText.text(value))
                widths[c] = max(widths[c], Self.displayWidth(text))
                row.append((text, CellText.isNumber(value)))
            }
            rows.append(row)
        }
        output.write(line(header.map { ($0, false) }, widths))
        output.write(line(widths.map { (String(repeating: "-", count: $0), false) }, widths))
        for row in rows { output.write(line(row, widths)) }
        output.write(footer)
    }

    private func line(_ cells: [(text: String, number: Bool)], _ widths: [Int]) -> String {
        var text = ""
        for (c, cell) in cells.enumerated() {
            if c > 0 { text += "  " }
            let padding = String(repeating: " ", count: widths[c] - Self.displayWidth(cell.text))
            text += cell.number ? padding + cell.text : cell.text + padding
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }

    /// Control characters shown as escapes, so a cell stays on its line (as the REPL shows them).
    static func printable(_ text: String) -> String { TerminalText.printable(text) }

    /// Columns a terminal uses for `text` (wide characters two, combining marks none).
    static func displayWidth(_ text: String) -> Int { TerminalWidth.of(text) }
}
