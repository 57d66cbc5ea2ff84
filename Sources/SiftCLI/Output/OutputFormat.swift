import ArgumentParser

/// `--output`: how `sift filter` and `sift query` print their results.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// A JSON array of the matching records, each as written in the input.
    case json
    /// One matching record per line, as written in the input (a record written over several
    /// lines is put on one).
    case jsonl
    /// Aligned columns: one per top-level key, a header and a `(N rows)` footer.
    case table
    /// RFC 4180 CSV with a header row.
    case csv
    /// A JSON array of the 0-based input positions of the results, in result order.
    case indices
    /// The REPL's `.mode box`: the table drawn with box-drawing lines.
    case box
    /// The REPL's `.mode line`: one `key = value` line per column.
    case line
    /// The REPL's `.mode markdown`: a GitHub Markdown table.
    case markdown

    /// Whether the renderer prints the records' input text (so the reader keeps it).
    var printsRecordText: Bool { self == .json || self == .jsonl }

    /// Whether the renderer prints values (every key of them, not only those the predicate reads).
    var printsWholeValues: Bool { self == .table || self == .csv || replMode != nil }

    /// Whether the renderer keeps every result until the end (its columns are the union of
    /// all results' keys); box, line and markdown keep a batch at a time, as the REPL does.
    var keepsEveryResult: Bool { self == .table || self == .csv }

    /// The REPL mode the format prints as (box, line, markdown: without a terminal, so without
    /// colour and never cut, batches of ``GridRenderer/batchSize`` records, nil as an empty
    /// cell); nil for the commands' own formats.
    var replMode: SessionSettings.Mode? {
        switch self {
        case .box: .box
        case .line: .line
        case .markdown: .markdown
        case .json, .jsonl, .table, .csv, .indices: nil
        }
    }

    /// The renderer of this format. `sameKeys`: every result will have the first one's keys in
    /// its order (the objects of an entity without subentities), so CSV can stream.
    func makeRenderer(_ output: StandardOutput, sameKeys: Bool = false) -> any ResultRenderer {
        switch self {
        case .json: JSONRenderer(output: output)
        case .jsonl: JSONLinesRenderer(output: output)
        case .table: TableRenderer(output: output)
        case .csv: CSVRenderer(output: output, sameKeys: sameKeys)
        case .indices: IndicesRenderer(output: output)
        case .box, .line, .markdown: RecordRendering(RenderContext(output: output, mode: replMode ?? .box).makeRenderer())
        }
    }
}

/// A ``RecordRenderer`` printing `sift query` and `sift filter` results: each result's value
/// as a record, sections as the renderer prints them.
struct RecordRendering: ResultRenderer, SectionStream {
    /// What is printed when an error stops the results midway.
    enum Abandoned {
        /// What was printed is whole lines: the footer counts what was printed, as the REPL
        /// ends results an error stopped.
        case finishes
        /// The renderer holds every record until the end (the commands' table): nothing was
        /// printed, and nothing is.
        case printsNothing
    }

    private var renderer: any RecordRenderer
    private let abandoned: Abandoned

    init(_ renderer: any RecordRenderer, abandoned: Abandoned = .finishes) {
        self.renderer = renderer
        self.abandoned = abandoned
    }

    mutating func write(_ match: Match) { renderer.write(match.value) }

    mutating func finish() { renderer.finish() }

    mutating func begin(_ section: RecordSection) { renderer.beginSection(section) }

    mutating func writeSections(_ sections: [MatchSection]) {
        var stream = self
        stream.write(sections)
    }

    func sectionStream() -> any SectionStream { self }

    mutating func abandon() {
        switch abandoned {
        case .finishes: renderer.finish()
        case .printsNothing: break
        }
    }
}
