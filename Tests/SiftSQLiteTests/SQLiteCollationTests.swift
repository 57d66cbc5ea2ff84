import SiftSQLite
import Testing

@Suite struct SQLiteCollationTests {
    /// Orders by length first, then bytes.
    static func byLength(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int32 {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    @Test func collationOrdersRows() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.createCollation("by_length", Self.byLength)
        try database.execute("CREATE TABLE t(s); INSERT INTO t VALUES ('ccc'), ('a'), ('bb'), ('é'), ('aa')")
        let sorted = try database.rows("SELECT s FROM t ORDER BY s COLLATE by_length").map { $0[0] }
        // "é" is two UTF-8 bytes.
        #expect(sorted == [.text("a"), .text("aa"), .text("bb"), .text("é"), .text("ccc")])
        let descending = try database.rows("SELECT s FROM t ORDER BY s COLLATE by_length DESC").map { $0[0] }
        #expect(descending == sorted.reversed())
        #expect(try database.scalar("SELECT 'xy' = 'zz' COLLATE by_length") == .integer(0))
        #expect(try database.scalar("SELECT 'xy' < 'a' COLLATE by_length") == .integer(0))
    }

    @Test func collationSeesUTF8Bytes() throws {
        let database = try SQLiteDatabase.inMemory()
        var seen: [[UInt8]] = []
        try database.createCollation("record") { a, b in
            seen.append(Array(a))
            seen.append(Array(b))
            return 0
        }
        _ = try database.scalar("SELECT ? = ? COLLATE record", [.text("é"), .text("a\u{0}")])
        #expect(seen.contains([0xC3, 0xA9]))
        #expect(seen.contains([0x61, 0x00]))
    }

    @Test func unknownCollationIsAnError() throws {
        let database = try SQLiteDatabase.inMemory()
        #expect(throws: SQLiteError.self) { try database.scalar("SELECT 'a' < 'b' COLLATE nope") }
    }
}
