import Sift

/// Prints a fetch's results in one `.mode`, as they come: records (dictionaries: objects as
/// `{"@entity", "@id", attributes…, relationships}`, result dictionaries, counts) one at
/// a time, each section announced before its records, then ``finish()``. Renderers print as
/// soon as they can — the modes that line up columns (table, box, markdown) and csv's header
/// wait for a first batch of records, the others print each record as it comes — and flush
/// after each record when a person watches, so the first rows of a long fetch show at once.
protocol RecordRenderer {
    /// A section begins (`SECTION BY`); its records follow.
    mutating func beginSection(_ section: RecordSection)
    /// One record.
    mutating func write(_ record: Value)
    /// The results are complete: what is held is printed, and the footer.
    mutating func finish()
}

/// A section of a sectioned fetch: its name, index title and how many records it holds.
struct RecordSection {
    let name: String
    let indexTitle: String
    let count: Int

    /// The heading table, box, line and markdown modes print before a section's records:
    /// `── Work (2 rows) ──` (an empty name shows as `.nullvalue`, or `(empty)`).
    func heading(nullValue: String) -> String {
        let name = name.isEmpty ? (nullValue.isEmpty ? "(empty)" : nullValue) : name
        return "── \(TerminalText.printable(name)) (\(RowCount.text(count))) ──"
    }
}

/// `1 row`, `3 rows`.
enum RowCount {
    static func text(_ count: Int) -> String { "\(count) row\(count == 1 ? "" : "s")" }

    /// The footer after a table: `(3 rows)`.
    static func footer(_ count: Int) -> String { "(\(text(count)))" }
}
