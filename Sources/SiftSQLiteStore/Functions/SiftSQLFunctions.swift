import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite

/// The registration of ``SiftSQLFunctions`` on a SQLite connection: the functions, aggregates
/// and collations the compiler names, implemented by the evaluator's own Swift functions.
extension SiftSQLFunctions {
    /// Registers every function, the aggregates and the collations on `database` (again: replacing
    /// earlier registrations).
    public static func register(on database: SQLiteDatabase) throws(SQLiteError) {
        try registerStringFunctions(on: database)
        try registerLike(on: database)
        try registerMatches(on: database)
        try registerCalls(on: database)
        try registerCollations(on: database)
        try registerKeyedAggregates(on: database)
        try registerGroupFirst(on: database)
        try registerDecimalFunctions(on: database)
        try registerForeignColumnFunctions(on: database)
        try registerExternalData(on: database)
    }
}
