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
/// The REPL's table (``GridRenderer`` drawing a ``TableDrawing``) with the commands' options
/// (``RenderOptions/commands``): columns are the union of the results' top-level keys in the
/// order first seen, so every result is held until the end; headings are left-aligned, nothing
/// is cut, and lines have no trailing spaces. With sections, each section is a `# section`
/// line and a table measured on its own results (the same columns in each), with its footer.
struct TableRenderer: ResultRenderer {
    private let output: StandardOutput
    private var renderer: GridRenderer

    init(output: StandardOutput) {
        self.output = output
        renderer = Self.renderer(output, sectioned: false)
    }

    mutating func write(_ match: Match) { renderer.write(match.value) }

    mutating func finish() { renderer.finish() }

    mutating func writeSections(_ sections: [MatchSection]) {
        var stream = sectionStream()
        stream.write(sections)
    }

    /// Sections go straight to a renderer that holds their records until the end.
    func sectionStream() -> any SectionStream {
        RecordRendering(Self.renderer(output, sectioned: true), abandoned: .printsNothing)
    }

    private static func renderer(_ output: StandardOutput, sectioned: Bool) -> GridRenderer {
        let context = RenderContext(output: output, mode: .table, options: .commands, sectioned: sectioned)
        return GridRenderer(context: context, drawing: TableDrawing(style: context.style))
    }
}
