import Sift

/// csv for `sift query`, `sift filter` (`--output csv`) and the REPL (`.mode csv`): RFC 4180 —
/// a header row of the columns (unless ``RenderOptions/headers`` is off), one row per record,
/// CRLF line ends, nil as an empty field, and a field quoted (with `"` doubled) when it has a
/// comma, a quote, CR or LF. With sections, a `# section "Name": 2 objects` line and a header
/// row come before each section's rows.
///
/// The columns are the union of the keys of the first ``RenderOptions/measuredRecords``
/// records (all of them when nil), which are held until then; later records are written as
/// they come, and one with keys the columns lack (a subentity's attributes) gets a new header
/// row of the wider columns. `sift query` measures one record when every result is known to
/// have the first one's keys (the objects of an entity without subentities), so it streams.
struct CSVWriter: RecordRenderer, SectionStream {
    let output: StandardOutput
    let options: RenderOptions

    private var columns = ColumnSet()
    private var held: HeldBatch
    private var measuring = true
    /// Whether the results are in sections (each section then prints its own header row).
    private var sectioned = false

    init(output: StandardOutput, options: RenderOptions) {
        self.output = output
        self.options = options
        held = HeldBatch(measuredRecords: options.measuredRecords)
    }

    mutating func beginSection(_ section: RecordSection) {
        sectioned = true
        if measuring {
            held.hold(section)
        } else {
            printSection(section)
        }
    }

    mutating func write(_ record: Value) {
        let newColumns = columns.add(record)
        if measuring {
            if held.hold(record) { settle() }
            return
        }
        if newColumns { printHeader() }
        printRecord(record)
    }

    mutating func finish() {
        if measuring { settle() }
    }

    mutating func begin(_ section: RecordSection) { beginSection(section) }

    mutating func write(_ match: Match) { write(match.value) }

    /// Held records were never printed, and every printed row is whole: nothing to close.
    mutating func abandon() {}

    /// The columns are known: the header (unsectioned results), then what is held.
    private mutating func settle() {
        measuring = false
        if !sectioned { printHeader() }
        for item in held.take() {
            switch item {
            case .section(let section): printSection(section)
            case .record(let record): printRecord(record)
            }
        }
    }

    private func printSection(_ section: RecordSection) {
        output.write(SectionHeading.line(name: section.name, count: section.count) + "\r\n")
        printHeader()
    }

    private func printHeader() {
        guard options.headers, !columns.names.isEmpty else { return }
        output.write(Self.record(columns.names))
    }

    private func printRecord(_ record: Value) {
        output.write(Self.record(columns.names.map { CellText.text(ColumnSet.cell(record, $0)) }))
        output.endOfResult()
    }

    static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D })
        else { return text }
        return "\"" + text.replacingScalar("\"", with: "\"\"") + "\""
    }
}
