import Sift

/// What a renderer needs to know: where to write, the settings that shape output, and the
/// terminal (its width, whether to colour). A terminal counts only when results go to it, not
/// to a file (`.output FILE`).
struct RenderContext {
    let output: StandardOutput
    let mode: SessionSettings.Mode
    /// Column headings (`.headers`).
    var headers = true
    /// How nil shows in table, box, line and markdown modes (`.nullvalue`).
    var nullValue = ""
    /// Column widths (`.width`; 0: as wide as the values).
    var widths: [Int] = []
    /// Records printed vertically (`.x`), in table, box and markdown modes.
    var expanded: SessionSettings.Expanded = .auto
    /// The terminal's width in cells, when a terminal shows the results.
    var terminalWidth: Int?
    var style: TerminalStyle = .plain
    /// Whether the results are grouped in sections (json prints `{"sections": […]}`).
    var sectioned = false

    /// The renderer for the context's mode.
    func makeRenderer() -> any RecordRenderer {
        switch mode {
        case .table: GridRenderer(context: self, drawing: TableDrawing(style: style))
        case .box: GridRenderer(context: self, drawing: BoxDrawing(style: style))
        case .markdown: GridRenderer(context: self, drawing: MarkdownDrawing(style: style))
        case .line: LineModeRenderer(context: self)
        case .json: JSONRecordRenderer(context: self)
        case .jsonl: JSONLinesRecordRenderer(context: self)
        case .csv: CSVRecordRenderer(context: self)
        }
    }
}

extension Session {
    /// The render context for the session's settings and output: colour and the terminal's
    /// width only when results go to the terminal (not to a `.output` file), and colour never
    /// when the environment sets `NO_COLOR`.
    func renderContext(sectioned: Bool) -> RenderContext {
        let watching = output.isTerminal && output.results === output.standard
        return RenderContext(
            output: output.results, mode: settings.mode, headers: settings.headers, nullValue: settings.nullValue,
            widths: settings.widths, expanded: settings.expanded, terminalWidth: watching ? output.terminalWidth() : nil,
            style: .forOutput(isTerminal: watching, environment: settings.environment), sectioned: sectioned)
    }
}
