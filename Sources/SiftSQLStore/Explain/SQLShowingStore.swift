import SiftStore

/// A store whose fetches run SQL it can show without running them: what `sift sql`,
/// `sift explain` and the REPL's `.sql` and `.plan` print. SQLite and PostgreSQL stores adopt it.
public protocol SQLShowingStore: PersistentStore {
    /// The SQL a request runs, its bound values, and what runs in memory.
    func generatedSQL(for request: FetchRequest) throws -> GeneratedSQL
    /// The database's plan for that SQL, one line per step.
    func queryPlan(for request: FetchRequest) throws -> [String]
    /// Whether the plan's lines are SQLite's `EXPLAIN QUERY PLAN` steps (indented by depth, drawn
    /// as sqlite3's `.eqp` tree) rather than PostgreSQL's `EXPLAIN` text (printed as it is).
    var plansAsSQLiteSteps: Bool { get }
}
