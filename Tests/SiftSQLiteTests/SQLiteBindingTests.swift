import CSQLite
import SiftSQLite
import Testing

@Suite struct SQLiteBindingTests {
    static let values: [SQLiteValue] = [
        .null,
        .integer(0), .integer(Int64.min), .integer(Int64.max), .integer(-1),
        .real(0.5), .real(-1e300), .real(Double.greatestFiniteMagnitude), .real(Double.infinity),
        .text(""), .text("plain"), .text("a\u{0}b"), .text("\u{0}"), .text("é 🎉 ß"),
        .blob([]), .blob([0]), .blob([0, 1, 2, 255]),
    ]

    @Test(arguments: values)
    func valueRoundTripsThroughATable(_ value: SQLiteValue) throws {
        let database = try SQLiteDatabase.inMemory()
        try database.execute("CREATE TABLE t(v)")
        try database.run("INSERT INTO t VALUES (?)", [value])
        #expect(try database.scalar("SELECT v FROM t") == value)
        #expect(try database.scalar("SELECT ?", [value]) == value)
    }

    @Test func storageClassesAndTypedReaders() throws {
        let database = try SQLiteDatabase.inMemory()
        let statement = try database.prepare("SELECT ?, ?, ?, ?, ?, ?")
        try statement.bind([.null, .integer(Int64.min), .real(2.5), .text("x\u{0}y"), .blob([]), .blob([9, 0, 9])])
        #expect(try statement.step())
        #expect(statement.columnType(0) == .null)
        #expect(statement.isNull(0))
        #expect(statement.columnType(1) == .integer)
        #expect(statement.int64(1) == Int64.min)
        #expect(statement.columnType(2) == .real)
        #expect(statement.double(2) == 2.5)
        #expect(statement.columnType(3) == .text)
        #expect(statement.text(3) == "x\u{0}y")
        #expect(statement.text(3).utf8.count == 3)
        #expect(statement.columnType(4) == .blob)
        #expect(!statement.isNull(4))
        #expect(statement.blob(4) == [])
        #expect(statement.blob(5) == [9, 0, 9])
        #expect(try !statement.step())
    }

    @Test func typedBindsBindWhatTheEnumBinds() throws {
        let database = try SQLiteDatabase.inMemory()
        let statement = try database.prepare("SELECT ?1, typeof(?1), ?2, typeof(?2), ?3, typeof(?3)")
        try statement.bind(.text("left over"), at: 3)
        try statement.bind(integer: Int64.min, at: 1)
        try statement.bind(real: -0.5, at: 2)
        try statement.bindNull(at: 3)
        #expect(try statement.step())
        #expect(statement.int64(0) == Int64.min)
        #expect(statement.text(1) == "integer")
        #expect(statement.double(2) == -0.5)
        #expect(statement.text(3) == "real")
        #expect(statement.isNull(4))
        #expect(statement.text(5) == "null")
        statement.reset()
        #expect(throws: SQLiteError.self) { try statement.bind(integer: 1, at: 4) }
        #expect(throws: SQLiteError.self) { try statement.bind(real: 1, at: 0) }
        #expect(throws: SQLiteError.self) { try statement.bindNull(at: 4) }
    }

    @Test func emptyBlobIsNotNull() throws {
        let database = try SQLiteDatabase.inMemory()
        #expect(try database.scalar("SELECT typeof(?)", [.blob([])]) == .text("blob"))
        #expect(try database.scalar("SELECT length(?)", [.blob([])]) == .integer(0))
        #expect(try database.scalar("SELECT typeof(?)", [.text("")]) == .text("text"))
        #expect(try database.scalar("SELECT typeof(?)", [.null]) == .text("null"))
    }

    @Test func textWithNULKeepsItsLength() throws {
        let database = try SQLiteDatabase.inMemory()
        #expect(try database.scalar("SELECT length(CAST(? AS BLOB))", [.text("a\u{0}b\u{0}")]) == .integer(4))
    }

    @Test func bindByIndexAndRebind() throws {
        let database = try SQLiteDatabase.inMemory()
        let statement = try database.prepare("SELECT ?1 + ?2")
        try statement.bind(.integer(40), at: 1)
        try statement.bind(.integer(2), at: 2)
        #expect(try statement.step())
        #expect(statement.value(0) == .integer(42))
        try statement.bind([.integer(1), .integer(1)])
        #expect(try statement.step())
        #expect(statement.value(0) == .integer(2))
        statement.reset()
        #expect(throws: SQLiteError.self) { try statement.bind(.integer(1), at: 3) }
        do {
            try statement.bind(.integer(1), at: 3)
        } catch {
            #expect(error.code == SQLITE_RANGE)
        }
    }
}
