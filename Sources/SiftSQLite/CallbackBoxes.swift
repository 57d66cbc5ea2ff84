/// What SQLite's C callbacks get back through their `void*` user data: the Swift closures,
/// retained with `Unmanaged.passRetained` when registered and released by SQLite's destructor
/// callback (when the function is replaced or the connection closes).

/// A scalar function's body.
final class FunctionBox {
    let body: (SQLiteFunctionCall) throws -> SQLiteValue
    let errors: FunctionErrorSlot

    init(body: @escaping (SQLiteFunctionCall) throws -> SQLiteValue, errors: FunctionErrorSlot) {
        self.body = body
        self.errors = errors
    }
}

/// An aggregate's state factory.
final class AggregateBox {
    let makeState: () -> any SQLiteAggregate
    let errors: FunctionErrorSlot

    init(makeState: @escaping () -> any SQLiteAggregate, errors: FunctionErrorSlot) {
        self.makeState = makeState
        self.errors = errors
    }
}

/// A collation's comparison of two UTF-8 strings.
final class CollationBox {
    let compare: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32

    init(compare: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32) {
        self.compare = compare
    }
}

/// The trace callback (held by `SQLiteConnection`, passed to SQLite unretained).
final class TraceBox {
    let body: @Sendable (String) -> Void

    init(body: @escaping @Sendable (String) -> Void) {
        self.body = body
    }
}

/// An aggregate's per-group state, kept in SQLite's aggregate context as a retained pointer to a
/// box (an existential does not fit in one pointer).
final class AggregateState {
    let state: any SQLiteAggregate

    private init(_ state: any SQLiteAggregate) {
        self.state = state
    }

    /// A retained pointer to a box holding `state`.
    static func retain(_ state: any SQLiteAggregate) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(AggregateState(state)).toOpaque()
    }

    /// The state behind a pointer from `retain`, still retained.
    static func object(at pointer: UnsafeMutableRawPointer) -> any SQLiteAggregate {
        Unmanaged<AggregateState>.fromOpaque(pointer).takeUnretainedValue().state
    }

    /// The state behind a pointer from `retain`, whose retain this gives up.
    static func release(_ pointer: UnsafeMutableRawPointer) -> any SQLiteAggregate {
        Unmanaged<AggregateState>.fromOpaque(pointer).takeRetainedValue().state
    }
}
