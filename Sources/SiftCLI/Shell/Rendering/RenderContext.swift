import Sift

/// What a REPL renderer needs to know: where to write, the options that shape output (the
/// session's `.headers`, `.nullvalue` and `.width`: ``RenderOptions``), and the terminal (its
/// width, whether to colour). A terminal counts only when results go to it, not to a file
/// (`.output FILE`).
struct RenderContext {
    let output: StandardOutput
    let mode: SessionSettings.Mode
    /// Headings, nil's text, column widths, and the first batch that sets the columns.
    var options = RenderOptions.session
    /// Records printed vertically (`.x`), in table, box and markdown modes.
    var expanded: SessionSettings.Expanded = .auto
    /// The terminal's width in cells, when a terminal shows the results.
    var terminalWidth: Int?
    var style: TerminalStyle = .plain
    /// Whether the results are grouped in sections (json prints `{"sections": […]}`).
    var sectioned = false

    /// The renderer for the context's mode: csv, json and jsonl are the writers
    /// `sift query --output` uses too.
    func makeRenderer() -> any RecordRenderer {
        switch mode {
        case .table: GridRenderer(context: self, drawing: TableDrawing(style: style))
        case .box: GridRenderer(context: self, drawing: BoxDrawing(style: style))
        case .markdown: GridRenderer(context: self, drawing: MarkdownDrawing(style: style))
        case .line: LineModeRenderer(context: self)
        case .json: JSONDocumentWriter(output: output, sectioned: sectioned)
        case .jsonl: JSONLinesWriter(output: output)
        case .csv: CSVWriter(output: output, options: options)
        }
    }
}

extension RenderOptions {
    /// The REPL's defaults: columns measured on a first batch of ``GridRenderer/batchSize``
    /// records, so the first rows of a long result print at once.
    static let session = RenderOptions(measuredRecords: GridRenderer.batchSize)
}

extension Session {
    /// The render context for the session's settings and output: colour and the terminal's
    /// width only when results go to the terminal (not to a `.output` file), and colour never
    /// when the environment sets `NO_COLOR`.
    func renderContext(sectioned: Bool) -> RenderContext {
        let watching = output.isTerminal && output.results === output.standard
        var options = RenderOptions.session
        options.headers = settings.headers
        options.nullValue = settings.nullValue
        options.widths = settings.widths
        return RenderContext(
            output: output.results, mode: settings.mode, options: options, expanded: settings.expanded,
            terminalWidth: watching ? output.terminalWidth() : nil,
            style: .forOutput(isTerminal: watching, environment: settings.environment), sectioned: sectioned)
    }
}
