import Foundation

/// What a session's dot commands set (`.show` lists them).
struct SessionSettings {
    /// How results are printed (`.mode`).
    enum Mode: String, CaseIterable {
        case table, box, line, json, jsonl, csv, markdown

        /// Whether the mode is read by people (a to-one relationship shows its destination's
        /// key where the database has one: ``ToOneKeys``) rather than by programs (json, jsonl
        /// and csv print object IDs, as `sift query` does).
        var showsToOneKeys: Bool {
            switch self {
            case .table, .box, .line, .markdown: true
            case .json, .jsonl, .csv: false
            }
        }
    }

    /// Which engine runs fetches (`.engine`): the store's own (SQL on SQLite), the in-memory
    /// evaluator over the same objects, or both, comparing their answers.
    enum Engine: String, CaseIterable {
        case sql, memory, both
    }

    /// Records printed vertically, one `key | value` line each (`.x`): always (`on`), never
    /// (`off`: a table too wide for the terminal has its text cut), or when a table would be
    /// wider than the terminal (`auto`, the default, as psql's `\x auto`).
    enum Expanded: String, CaseIterable {
        case off, on, auto
    }

    var mode: Mode = .table
    /// Column headings in table, box, csv and markdown modes (`.headers`).
    var headers = true
    /// How a nil value is shown in table, box, line and markdown modes (`.nullvalue`).
    var nullValue = ""
    /// Column widths set by `.width` (0: as wide as the values).
    var widths: [Int] = []
    var expanded: Expanded = .auto
    /// How objects show their to-many relationships (`.relationships`).
    var relationships: RelationshipDetail = .counts
    /// The page a bare predicate fetches (`.limit`; nil: all).
    var limit: Int?
    /// Parse, compile and execute times after each statement (`.timer`).
    var timer = false
    /// The generated SQL and its bindings before results (`.sql`).
    var showSQL = false
    /// SQLite's query plan before results (`.eqp`).
    var showPlan = false
    var engine: Engine = .sql
    /// Stop at the first error (`.bail`).
    var bail = false
    /// Print each statement before running it (`.echo`).
    var echo = false
    /// The environment output depends on (`NO_COLOR` turns colour off); tests set their own.
    var environment = ProcessInfo.processInfo.environment
}
