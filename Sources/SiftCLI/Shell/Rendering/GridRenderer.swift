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
/// section's table opening with the headings again; one footer counts all the records. With
/// ``RenderOptions/SectionStyle/separateTables`` (`sift query --output table`), each section
/// is a `# section "Work": 2 objects` line and a table of its own, measured on its records
/// alone, with its own footer.
///
/// `sift query`, `sift filter` and `sift run --output table|box|markdown` print with it too:
/// the commands' table with ``RenderOptions/commands`` (every result measured, headings
/// left-aligned, trailing spaces trimmed), box and markdown as the REPL prints them.
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
    /// With separate tables: whether a section's table is printing, and its records so far.
    private var inSection = false
    private var sectionTotal = 0

    private var options: RenderOptions { context.options }

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
            printRecord(record, cells: [])  // (printed vertically, not as cells)
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
        switch options.sectionStyle {
        case .headed:
            printFooter(total)
        case .separateTables:
            if inSection {
                endSection()
            } else if !context.sectioned {
                printFooter(total)
            }
        }
    }

    /// Measures the held records and prints what is held: at once, or with separate tables
    /// each section's records on their own.
    private mutating func settle() {
        let items = held.take()
        guard options.sectionStyle == .separateTables else { return lay(out: items) }
        var run: [HeldBatch.Item] = []
        for item in items {
            if case .section = item, !run.isEmpty {
                lay(out: run)
                run = []
            }
            run.append(item)
        }
        lay(out: run)
    }

    /// Measures `items`' records (the first batch chooses a table or vertical records), and
    /// prints them. With separate tables, items opening with a section are a new table.
    private mutating func lay(out items: [HeldBatch.Item]) {
        if options.sectionStyle == .separateTables, case .section = items.first, vertical == nil {
            endSection()
            layout = nil
        }
        var records: [Value] {
            items.compactMap { item in
                if case .record(let record) = item { return record }
                return nil
            }
        }
        // Each record's cells are made once: measured here, printed below.
        let layoutColumns = layout?.columns ?? columns.names
        var rows: [[RenderCell]] = []
        for case .record(let record) in items {
            rows.append(layoutColumns.map { RenderCell(ColumnSet.cell(record, $0), nullValue: options.nullValue, markdown: drawing.isMarkdown) })
        }
        var next = GridLayout(columns: layoutColumns, rows: rows, context: context, markdown: drawing.isMarkdown)
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
        var row = 0
        for item in items {
            switch item {
            case .section(let section):
                printSection(section)
            case .record(let record):
                printRecord(record, cells: rows[row])
                row += 1
            }
        }
    }

    private mutating func printSection(_ section: RecordSection) {
        closeTable()
        let heading: String
        switch options.sectionStyle {
        case .headed:
            heading = section.heading(nullValue: options.nullValue)
        case .separateTables:
            endSection()
            heading = SectionHeading.line(name: section.name, count: section.count)
            inSection = true
            sectionTotal = 0
        }
        var text = printedAnything ? "\n" : ""
        text += context.style.rule(heading) + "\n"
        if drawing.isMarkdown && vertical == nil { text += "\n" }  // a paragraph, then the table
        context.output.write(text)
        printedAnything = true
        if options.sectionStyle == .separateTables { openTable() }  // an empty section's table too
    }

    /// With separate tables: the open section's table ends, and its footer.
    private mutating func endSection() {
        guard inSection else { return }
        closeTable()
        printFooter(sectionTotal)
        inSection = false
    }

    private func printFooter(_ count: Int) {
        if drawing.isMarkdown && vertical == nil && printedAnything { context.output.write("\n") }  // not a row of the table
        context.output.write(context.style.rule(RowCount.footer(count)) + "\n")
    }

    /// Prints a record: vertically, or as a row of `cells` (its cells in the table's columns).
    private mutating func printRecord(_ record: Value, cells: [RenderCell]) {
        printedAnything = true
        sectionTotal += 1
        if var vertical {
            vertical.write(record, columns: columns.names)
            self.vertical = vertical
            context.output.endOfResult()
            return
        }
        guard let layout, !layout.columns.isEmpty else { return }
        openTable()
        var cells = cells
        for c in cells.indices where cells[c].width > layout.widths[c] { cells[c] = cells[c].cut(to: layout.widths[c]) }
        context.output.write(finished(drawing.row(cells, layout)))
        context.output.endOfResult()
    }

    /// Prints the table's opening lines (headings) unless they are printed.
    private mutating func openTable() {
        guard !tableIsOpen, vertical == nil, let layout, !layout.columns.isEmpty else { return }
        context.output.write(drawing.open(layout).map(finished).joined())
        tableIsOpen = true
    }

    /// A line as printed: ended by a line break, without trailing spaces when
    /// ``RenderOptions/trimsTrailingSpaces`` says so.
    private func finished(_ line: String) -> String {
        guard options.trimsTrailingSpaces, line.last == " " else { return line + "\n" }
        var line = line
        while line.last == " " { line.removeLast() }
        return line + "\n"
    }

    private mutating func closeTable() {
        guard tableIsOpen, let layout else { return }
        tableIsOpen = false
        let lines = drawing.close(layout)
        if !lines.isEmpty { context.output.write(lines.map(finished).joined()) }
    }
}
