extension SQLiteDatabase {
    /// SQLite's plan for `sql` (`EXPLAIN QUERY PLAN`), one line per step, each indented two spaces
    /// per level of the plan's tree, as the `sqlite3` shell's `.eqp on` shows it without the box
    /// drawing: e.g. `["SEARCH Note USING INDEX Note_title (title=?)"]`. The statement is
    /// prepared, not run.
    public func explainQueryPlan(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [String] {
        let statement = try prepare("EXPLAIN QUERY PLAN " + sql)
        if !bindings.isEmpty { try statement.bind(bindings) }
        // Rows are (id, parent, notused, detail); a parent precedes its children.
        var depthByID: [Int64: Int] = [:]
        var lines: [String] = []
        while try statement.step() {
            let id = statement.int64(0), parent = statement.int64(1)
            let depth = depthByID[parent].map { $0 + 1 } ?? 0
            depthByID[id] = depth
            lines.append(String(repeating: "  ", count: depth) + statement.text(3))
        }
        return lines
    }
}
