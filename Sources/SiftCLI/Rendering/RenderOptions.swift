/// The choices that shape output and differ between `sift query`/`sift filter` and the REPL,
/// as options of the one renderer family (``CSVWriter``, ``JSONLinesWriter``,
/// ``JSONDocumentWriter``, and the tables of ``GridRenderer`` through ``RenderContext``).
///
/// The commands' csv and table use `RenderOptions.commands` (every result sets the columns;
/// a table per section), their box, line and markdown print as the REPL does; the REPL uses
/// its settings (`.headers`, `.nullvalue`, `.width`) and a first batch of
/// ``GridRenderer/batchSize``.
struct RenderOptions {
    /// How a table (table, box, markdown) prints the sections of sectioned results.
    enum SectionStyle {
        /// The REPL's: a `── Work (2 rows) ──` heading before each section's records, its table
        /// opening with the headings again, and one `(N rows)` footer counting all the records.
        case headed
        /// The commands': a `# section "Work": 2 objects` line, then the section's own table,
        /// measured on its records alone, and its own `(N rows)` footer; no footer after the
        /// sections (none at all when there are no sections).
        case separateTables
    }

    /// Column headings (`.headers`): csv's header row, a table's headings.
    var headers = true
    /// How nil shows in table, box, line and markdown (`.nullvalue`). csv, json and jsonl never
    /// use it: nil is an empty field and `null` there.
    var nullValue = ""
    /// Column widths (`.width`; 0: as wide as the values).
    var widths: [Int] = []
    /// How many records set the columns (the union of their keys) before any row is printed:
    /// nil for all of them (the results are held until the end); a later record with keys the
    /// columns lack widens them (csv prints a new header row).
    var measuredRecords: Int?
    /// How tables print sections.
    var sectionStyle = SectionStyle.headed
    /// Whether a table's heading is right-aligned over a column of numbers, as its values are
    /// (otherwise every heading is left-aligned).
    var alignsHeadingsWithNumbers = true
    /// The narrowest a table's column is: 1 keeps a column of empty headings and values a
    /// visible cell; 0 lets it take no room.
    var narrowestColumn = 1
    /// Whether a table's lines end without a space, not even one of a cell's own text (else
    /// only the padding after the last cell is left out).
    var trimsTrailingSpaces = false

    /// `sift query` and `sift filter`'s csv and table: every result sets the columns; a table
    /// per section, headings left-aligned, columns as narrow as 0, no trailing spaces.
    static let commands = RenderOptions(
        sectionStyle: .separateTables, alignsHeadingsWithNumbers: false, narrowestColumn: 0, trimsTrailingSpaces: true)
}
