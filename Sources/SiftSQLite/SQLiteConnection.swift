import CSQLite

/// The open `sqlite3*` handle and what must live exactly as long as it: the slot where registered
/// functions leave the Swift error they threw, and the trace callback's box.
///
/// `SQLiteDatabase` and every `SQLiteStatement` it prepared hold this object strongly, so the
/// handle is closed only after the last statement was finalized (and a statement kept past its
/// database still works). The database's statement cache holds statements, which hold this:
/// no reference cycle.
final class SQLiteConnection {
    let handle: OpaquePointer
    /// Where registered functions, aggregates and collations report to (retained by their boxes).
    let functionErrors = FunctionErrorSlot()
    /// The trace callback, referenced unretained by SQLite while installed.
    var traceBox: TraceBox?

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        // Every statement that referenced this connection has been finalized by now.
        sqlite3_close_v2(handle)
    }

    /// An `SQLiteError` for a failed call returning `code`, carrying the Swift error a registered
    /// function threw during that call, if any.
    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError.from(code, on: handle, sql: sql, underlying: functionErrors.take())
    }
}

/// The first Swift error thrown by a registered function or aggregate during the current
/// statement step, kept until the step's `SQLiteError` takes it.
final class FunctionErrorSlot {
    private var error: (any Error & Sendable)?

    /// Keeps `error` unless an earlier one of this step is still waiting (the first error wins: an
    /// aggregate's cleanup after a failed step must not replace the error that failed it).
    func record(_ error: any Error & Sendable) {
        if self.error == nil { self.error = error }
    }

    /// Forgets any error left from an earlier call (before a new step starts).
    @inline(__always)
    func clear() {
        if error != nil { error = nil }
    }

    /// The recorded error, now forgotten.
    func take() -> (any Error & Sendable)? {
        defer { error = nil }
        return error
    }
}
