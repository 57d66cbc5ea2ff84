/// The state of one group of a registered aggregate function: `createAggregate` makes a new one
/// per group, calls `step` with each row's arguments, then `finish` once for the result. A group
/// with no rows (an aggregate over an empty table) gets a new state and only `finish`.
public protocol SQLiteAggregate: AnyObject {
    /// Takes one row's arguments. A thrown error fails the statement (see `createFunction`).
    func step(_ call: SQLiteFunctionCall) throws
    /// The aggregate's result for the group.
    func finish() throws -> SQLiteValue
}
