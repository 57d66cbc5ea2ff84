import Sift

/// Table, box and markdown modes: records in aligned columns (drawn by a ``GridDrawing``),
/// sections as headed groups, and a `(N rows)` footer.
///
/// **Streaming.** Records are measured and printed a batch of ``batchSize`` at a time (psql's
/// FETCH_COUNT behaviour), so the first rows of a long result print at once. Widths only grow:
/// a later batch with a longer value widens its column, and the table goes on under the
/// headings printed again in the new widths, so no value is ever cut to fit an earlier batch
/// (only to fit `.width` or the terminal). A later record with keys the columns lack (a
/// subentity's attributes) ends the table and starts a new one, measured anew.
///
/// **Fitting a terminal.** When a terminal shows the results, a table whose first batch is
/// wider than it is printed as vertical records instead (``ExpandedRecords``) under `.x auto`
/// (the default), as under `.x on` always; under `.x off`, and for a later batch, its widest
/// columns are cut (``GridLayout/fit(into:)``): text only, never a number. A Markdown table
/// is never cut and never turns vertical on its own (only `.x on` prints it vertically): it is
/// text to paste elsewhere.
///
/// Sections print a heading line each (`── Work (2 rows) ──`) and their records under it, each
/// section's table opening with the headings again; one footer counts all the records.
struct GridRenderer: RecordRenderer {
    let context: RenderContext
    let drawing: any GridDrawing

    /// How many records are measured and printed together in the REPL
    /// (``RenderOptions/measuredRecords``).
    static let batchSize = 100

    private var columns = ColumnSet()
    /// What is held while a batch is measured.
    private var held: HeldBatch
    /// The measured columns; nil while a batch is measured.
    private var layout: GridLayout?
    /// Set when records print vertically.
    private var vertical: ExpandedRecords?
    /// Whether a table's opening lines are printed and its closing ones are not yet.
    private var tableIsOpen = false
    private var printedAnything = false
    private var total = 0

    init(context: RenderContext, drawing: any GridDrawing) {
        self.context = context
        self.drawing = drawing
        held = HeldBatch(measuredRecords: context.options.measuredRecords)
    }

    mutating func beginSection(_ section: RecordSection) {
        if vertical != nil {
            printSection(section)
        } else {
            held.hold(section)
        }
    }

    mutating func write(_ record: Value) {
        total += 1
        let newColumns = columns.add(record)
        if vertical != nil {
            printRecord(record)
        } else if newColumns && layout != nil {
            // Keys the table lacks: what is held prints in the table so far, then a new table
            // is measured from this record on.
            settle()
            closeTable()
            layout = nil
            _ = held.hold(record)
        } else if held.hold(record) {
            settle()
        }
    }

    mutating func finish() {
        if !held.isEmpty { settle() }
        closeTable()
        if drawing.isMarkdown && vertical == nil && printedAnything { context.output.write("\n") }  // not a row of the table
        context.output.write(context.style.rule(RowCount.footer(total)) + "\n")
    }

    /// Measures the held records (the first batch chooses a table or vertical records), and
    /// prints what is held.
    private mutating func settle() {
        let records = held.records
        var next = GridLayout(columns: layout?.columns ?? columns.names, records: records, context: context, markdown: drawing.isMarkdown)
        if let layout {
            // Widths only grow, from one batch to the next.
            next.widen(toAtLeast: layout.widths)
        }
        let tableWidth = drawing.width(of: next.widths)
        switch (context.expanded, context.terminalWidth) {
        case (.on, _) where layout == nil:
            vertical = ExpandedRecords(context: context, columns: columns.names, records: records)
        case (.auto, let terminal?) where layout == nil && tableWidth > terminal && !drawing.isMarkdown:
            vertical = ExpandedRecords(context: context, columns: columns.names, records: records)
        case (_, let terminal?) where !drawing.isMarkdown:
            next.fit(into: terminal - (tableWidth - next.widths.reduce(0, +)))
        default:
            break
        }
        if let layout, layout.widths != next.widths { closeTable() }  // the headings again, in the new widths
        self.layout = next
        for item in held.take() {
            switch item {
            case .section(let section): printSection(section)
            case .record(let record): printRecord(record)
            }
        }
    }

    private mutating func printSection(_ section: RecordSection) {
        closeTable()
        var text = printedAnything ? "\n" : ""
        text += context.style.rule(section.heading(nullValue: context.options.nullValue)) + "\n"
        if drawing.isMarkdown && vertical == nil { text += "\n" }  // a paragraph, then the table
        context.output.write(text)
        printedAnything = true
    }

    private mutating func printRecord(_ record: Value) {
        printedAnything = true
        if var vertical {
            vertical.write(record, columns: columns.names)
            self.vertical = vertical
            context.output.endOfResult()
            return
        }
        guard let layout, !layout.columns.isEmpty else { return }
        var text = ""
        if !tableIsOpen {
            for line in drawing.open(layout) { text += line + "\n" }
            tableIsOpen = true
        }
        let cells = layout.columns.enumerated().map { c, column in
            RenderCell(ColumnSet.cell(record, column), nullValue: context.options.nullValue, markdown: drawing.isMarkdown).cut(to: layout.widths[c])
        }
        text += drawing.row(cells, layout) + "\n"
        context.output.write(text)
        context.output.endOfResult()
    }

    private mutating func closeTable() {
        guard tableIsOpen, let layout else { return }
        tableIsOpen = false
        let lines = drawing.close(layout)
        if !lines.isEmpty { context.output.write(lines.map { $0 + "\n" }.joined()) }
    }
}
