import Sift

/// A store whose fetches run SQL, which `sift sql` and `sift explain` show: SQLite and
/// PostgreSQL stores.
protocol SQLShowingStore {
    /// The SQL a request runs, its bound values, and what runs in memory.
    func generatedSQL(for request: FetchRequest) throws -> GeneratedSQL
    /// The database's plan for that SQL, one line per step.
    func queryPlan(for request: FetchRequest) throws -> [String]
    /// Whether the plan's lines are SQLite's `EXPLAIN QUERY PLAN` steps (indented by depth, drawn
    /// as sqlite3's `.eqp` tree) rather than PostgreSQL's `EXPLAIN` text (printed as it is).
    var plansAsSQLiteSteps: Bool { get }
}

extension SQLiteStore: SQLShowingStore {
    var plansAsSQLiteSteps: Bool { true }
}

extension PostgreSQLStore: SQLShowingStore {
    var plansAsSQLiteSteps: Bool { false }
}
