import CSQLite

extension SQLiteDatabase {
    /// Registers (or replaces) the SQL function `name` taking `argumentCount` arguments (-1: any
    /// number). `deterministic` lets SQLite use it in indexes and factor constant calls out.
    ///
    /// When `body` throws, the statement fails: SQLite's message is the error's description, and
    /// the `SQLiteError` that `step()` (or `run`, `rows`, …) throws carries the error itself as
    /// `underlying`.
    public func createFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ body: @escaping (SQLiteFunctionCall) throws -> SQLiteValue
    ) throws(SQLiteError) {
        let box = FunctionBox(body: body, errors: connection.functionErrors)
        let code = sqlite3_create_function_v2(
            connection.handle, name, argumentCount, Self.functionFlags(deterministic: deterministic),
            Unmanaged.passRetained(box).toOpaque(),
            { context, count, arguments in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let box = Unmanaged<FunctionBox>.fromOpaque(data).takeUnretainedValue()
                do {
                    let result = try box.body(SQLiteFunctionCall(context: context, argumentCount: count, arguments: arguments))
                    SQLiteFunctionResult.set(result, on: context)
                } catch {
                    SQLiteFunctionResult.fail(error, on: context, slot: box.errors)
                }
            },
            nil, nil,
            { data in
                guard let data else { return }
                Unmanaged<FunctionBox>.fromOpaque(data).release()
            })
        // On failure SQLite has already called the destructor, releasing the box.
        guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
    }

    /// Registers (or replaces) the aggregate SQL function `name`: each group gets a new state from
    /// `makeState`, stepped once per row and finished once (a group with no rows is only finished).
    /// Errors thrown by `step` or `finish` fail the statement as in `createFunction`.
    public func createAggregate(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ makeState: @escaping () -> any SQLiteAggregate
    ) throws(SQLiteError) {
        let box = AggregateBox(makeState: makeState, errors: connection.functionErrors)
        let code = sqlite3_create_function_v2(
            connection.handle, name, argumentCount, Self.functionFlags(deterministic: deterministic),
            Unmanaged.passRetained(box).toOpaque(),
            nil,
            { context, count, arguments in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let box = Unmanaged<AggregateBox>.fromOpaque(data).takeUnretainedValue()
                // The group's state: a pointer-sized slot SQLite zeroes on first use.
                guard let slot = sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size)) else {
                    sqlite3_result_error_nomem(context)
                    return
                }
                let stateSlot = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
                let state: any SQLiteAggregate
                if let existing = stateSlot.pointee {
                    state = AggregateState.object(at: existing)
                } else {
                    state = box.makeState()
                    stateSlot.pointee = AggregateState.retain(state)
                }
                do {
                    try state.step(SQLiteFunctionCall(context: context, argumentCount: count, arguments: arguments))
                } catch {
                    SQLiteFunctionResult.fail(error, on: context, slot: box.errors)
                }
            },
            { context in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let box = Unmanaged<AggregateBox>.fromOpaque(data).takeUnretainedValue()
                // Size 0: nil when no row was stepped (the slot is never allocated then).
                let state: any SQLiteAggregate
                if let slot = sqlite3_aggregate_context(context, 0),
                   let existing = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee {
                    state = AggregateState.release(existing)
                    slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee = nil
                } else {
                    state = box.makeState()
                }
                do {
                    SQLiteFunctionResult.set(try state.finish(), on: context)
                } catch {
                    SQLiteFunctionResult.fail(error, on: context, slot: box.errors)
                }
            },
            { data in
                guard let data else { return }
                Unmanaged<AggregateBox>.fromOpaque(data).release()
            })
        guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
    }

    static func functionFlags(deterministic: Bool) -> Int32 {
        SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
    }
}
