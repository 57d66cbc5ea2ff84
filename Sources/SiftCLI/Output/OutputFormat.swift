import ArgumentParser

/// `--output`: how `sift filter` prints its results.
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

    /// Whether the renderer prints the records' input text (so the reader keeps it).
    var printsRecordText: Bool { self == .json || self == .jsonl }

    /// Whether the renderer prints values (every key of them, not only those the predicate reads).
    var printsWholeValues: Bool { self == .table || self == .csv }

    /// The renderer of this format. `sameKeys`: every result will have the first one's keys in
    /// its order (the objects of an entity without subentities), so CSV can stream.
    func makeRenderer(_ output: StandardOutput, sameKeys: Bool = false) -> any ResultRenderer {
        switch self {
        case .json: JSONRenderer(output: output)
        case .jsonl: JSONLinesRenderer(output: output)
        case .table: TableRenderer(output: output)
        case .csv: CSVRenderer(output: output, sameKeys: sameKeys)
        case .indices: IndicesRenderer(output: output)
        }
    }
}
