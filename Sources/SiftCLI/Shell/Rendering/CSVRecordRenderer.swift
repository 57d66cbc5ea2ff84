import Sift

/// `.mode csv`: RFC 4180 as `sift query --output csv` prints it (``CSVRenderer``): a header row
/// of the columns (unless `.headers off`), one row per record, CRLF line ends, nil as an empty
/// field; with sections, a `# section "Name": 2 objects` line and a header row before each
/// section's rows.
///
/// The columns are the union of the keys of the first ``GridRenderer/firstBatch`` records,
/// which are held until then; later records are written as they come. A later record with keys
/// the columns lack (a subentity's attributes) gets a new header row of the wider columns.
struct CSVRecordRenderer: RecordRenderer {
    let context: RenderContext

    private enum Held {
        case section(RecordSection)
        case record(Value)
    }

    private var columns = ColumnSet()
    private var held: [Held] = []
    private var heldRecords = 0
    private var measuring = true

    init(context: RenderContext) { self.context = context }

    mutating func beginSection(_ section: RecordSection) {
        if measuring {
            held.append(.section(section))
        } else {
            printSection(section)
        }
    }

    mutating func write(_ record: Value) {
        let newColumns = columns.add(record)
        if measuring {
            held.append(.record(record))
            heldRecords += 1
            if heldRecords >= GridRenderer.batchSize { settle() }
            return
        }
        if newColumns { printHeader() }
        printRecord(record)
    }

    mutating func finish() {
        if measuring { settle() }
    }

    /// The columns are known: the header (unsectioned results), then what is held.
    private mutating func settle() {
        measuring = false
        if !context.sectioned { printHeader() }
        let replay = held
        held = []
        for item in replay {
            switch item {
            case .section(let section): printSection(section)
            case .record(let record): printRecord(record)
            }
        }
    }

    private func printSection(_ section: RecordSection) {
        context.output.write(SectionHeading.line(name: section.name, count: section.count) + "\r\n")
        printHeader()
    }

    private func printHeader() {
        guard context.headers, !columns.names.isEmpty else { return }
        context.output.write(CSVRenderer.record(columns.names))
    }

    private func printRecord(_ record: Value) {
        context.output.write(CSVRenderer.record(columns.names.map { CellText.text(ColumnSet.cell(record, $0)) }))
        context.output.endOfResult()
    }
}
