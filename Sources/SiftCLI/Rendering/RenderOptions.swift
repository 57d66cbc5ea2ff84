/// The choices that shape output and differ between `sift query`/`sift filter` and the REPL,
/// as options of the one renderer family (``CSVWriter``, ``JSONLinesWriter``,
/// ``JSONDocumentWriter``, and the REPL's tables through ``RenderContext``).
///
/// The commands use the defaults (`RenderOptions.commands`), the REPL its settings
/// (`.headers`, `.nullvalue`, `.width`) and a first batch of ``GridRenderer/batchSize``.
struct RenderOptions {
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

    /// `sift query` and `sift filter`: every result sets the columns.
    static let commands = RenderOptions()
}
