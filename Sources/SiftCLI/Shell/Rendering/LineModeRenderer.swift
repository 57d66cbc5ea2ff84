import Sift

/// `.mode line`: one `key = value` line per column, keys right-aligned, a blank line between
/// records, as sqlite3's `.mode line` prints them; then a `(N rows)` footer:
///
///       title = Alien
///      rating = 8.5
///
///       title = Gravity
///      rating = 7
///
///     (2 rows)
///
/// Values are shown whole (nil as `.nullvalue`), each record as it comes. Sections print a
/// heading line (`── Work (2 rows) ──`) before their records.
struct LineModeRenderer: RecordRenderer {
    let context: RenderContext
    private var total = 0
    private var printedAnything = false

    init(context: RenderContext) { self.context = context }

    mutating func beginSection(_ section: RecordSection) {
        context.output.write((printedAnything ? "\n" : "") + context.style.rule(section.heading(nullValue: context.options.nullValue)) + "\n")
        printedAnything = false
    }

    mutating func write(_ record: Value) {
        total += 1
        var columns = ColumnSet()
        columns.add(record)
        let keys = columns.names.map { RenderCell(heading: $0) }
        let keyWidth = keys.map(\.width).max() ?? 0
        var text = printedAnything ? "\n" : ""
        for (key, column) in zip(keys, columns.names) {
            let cell = RenderCell(ColumnSet.cell(record, column), nullValue: context.options.nullValue)
            var line = GridLine()
            line.cell(key, width: keyWidth, rightAligned: true, styled: context.style.heading(key.text))
            line.pad(1)
            line.append("=")
            line.pad(1)
            line.append(context.style.cell(cell))
            text += line.text + "\n"
        }
        context.output.write(text)
        context.output.endOfResult()
        printedAnything = true
    }

    mutating func finish() {
        context.output.write((printedAnything ? "\n" : "") + context.style.rule(RowCount.footer(total)) + "\n")
    }
}
