import Testing
import SiftSQLite

@Suite struct SQLiteValueTests {
    @Test func printsLikeSQLLiterals() {
        #expect(SQLiteValue.text("it's").description == "'it''s'")
        #expect(SQLiteValue.blob([0x01, 0xAB]).description == "X'01AB'")
        #expect(SQLiteValue.null.description == "NULL")
    }
}
