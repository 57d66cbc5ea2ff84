import CSQLite
import SiftSQLite
import Testing

@Suite struct SQLiteErrorTests {
    // Extended result codes are macros Swift does not import.
    static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)  // SQLITE_CONSTRAINT_UNIQUE
    static let constraintNotNull = SQLITE_CONSTRAINT | (5 << 8)  // SQLITE_CONSTRAINT_NOTNULL

    /// The error `body` throws; fails the test if it throws none.
    static func error(_ body: () throws(SQLiteError) -> Void) -> SQLiteError? {
        do {
            try body()
            Issue.record("no error thrown")
            return nil
        } catch {
            return error
        }
    }

    @Test func syntaxError() throws {
        let database = try SQLiteDatabase.inMemory()
        let error = Self.error { () throws(SQLiteError) in _ = try database.prepare("SELEC 1") }
        #expect(error?.code == SQLITE_ERROR)
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.description.hasSuffix("(code 1) in: SELEC 1") == true)
        #expect(error?.isConstraintViolation == false)
    }

    @Test func uniqueConstraint() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.execute("CREATE TABLE t(x UNIQUE)")
        try database.run("INSERT INTO t VALUES (?)", [.integer(1)])
        let error = Self.error { () throws(SQLiteError) in try database.run("INSERT INTO t VALUES (?)", [.integer(1)]) }
        #expect(error?.isConstraintViolation == true)
        #expect(error?.code == Self.constraintUnique)
        #expect(error?.primaryCode == SQLITE_CONSTRAINT)
        #expect(error?.message.contains("UNIQUE constraint failed: t.x") == true)
        #expect(error?.sql == "INSERT INTO t VALUES (?)")
        // The statement was reset: the cached statement works again.
        try database.run("INSERT INTO t VALUES (?)", [.integer(2)])
        #expect(try database.scalar("SELECT count(*) FROM t") == .integer(2))
    }

    @Test func notNullConstraintHasItsExtendedCode() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.execute("CREATE TABLE t(x NOT NULL)")
        let error = Self.error { () throws(SQLiteError) in try database.run("INSERT INTO t VALUES (NULL)") }
        #expect(error?.code == Self.constraintNotNull)
    }

    @Test func wrongBindingCount() throws {
        let database = try SQLiteDatabase.inMemory()
        let tooFew = Self.error { () throws(SQLiteError) in _ = try database.rows("SELECT ?, ?", [.integer(1)]) }
        #expect(tooFew?.code == SQLITE_RANGE)
        #expect(tooFew?.message == "the statement takes 2 bindings, 1 given")
        let tooMany = Self.error { () throws(SQLiteError) in _ = try database.scalar("SELECT 1", [.integer(1)]) }
        #expect(tooMany?.code == SQLITE_RANGE)
    }

    @Test func descriptionWithoutSQL() {
        let error = SQLiteError(code: SQLITE_BUSY, message: "database is locked")
        #expect(error.description == "database is locked (code 5)")
        #expect(error.isBusy)
        #expect(!error.isInterrupted)
    }

    @Test func executeNamesTheFailingStatement() throws {
        let database = try SQLiteDatabase.inMemory()
        let error = Self.error { () throws(SQLiteError) in try database.execute("CREATE TABLE t(x UNIQUE); INSERT INTO t VALUES (1); INSERT INTO t VALUES (1)") }
        #expect(error?.isConstraintViolation == true)
        #expect(error?.sql == "INSERT INTO t VALUES (1)")
    }
}
