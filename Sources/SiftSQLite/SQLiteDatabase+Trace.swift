import CSQLite

extension SQLiteDatabase {
    /// Calls `body` with the SQL of each statement as it starts running, bindings written in
    /// (`sqlite3_expanded_sql`; statements run by triggers come as their `-- trigger` comment).
    /// `nil` stops tracing. `body` runs on the thread stepping the statement.
    public func setTrace(_ body: (@Sendable (String) -> Void)?) {
        guard let body else {
            sqlite3_trace_v2(connection.handle, 0, nil, nil)
            connection.traceBox = nil
            return
        }
        let box = TraceBox(body: body)
        sqlite3_trace_v2(
            connection.handle, UInt32(SQLITE_TRACE_STMT), { _, data, statement, unexpanded in
                guard let data else { return 0 }
                let box = Unmanaged<TraceBox>.fromOpaque(data).takeUnretainedValue()
                let comment = unexpanded.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
                if let comment, comment.hasPrefix("--") {
                    box.body(comment)
                } else if let statement, let expanded = sqlite3_expanded_sql(OpaquePointer(statement)) {
                    box.body(String(cString: expanded))
                    sqlite3_free(expanded)
                } else if let comment {
                    box.body(comment)
                }
                return 0
            }, Unmanaged.passUnretained(box).toOpaque())
        // SQLite now points at the new box; the old one (if any) can go.
        connection.traceBox = box
    }
}
