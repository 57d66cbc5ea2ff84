import CSQLite
import SiftSQLite
import Testing

@Suite struct SQLiteFunctionTests {
    struct CustomError: Error, Equatable, CustomStringConvertible {
        let detail: String
        var description: String { "custom failure: \(detail)" }
    }

    @Test(arguments: SQLiteBindingTests.values)
    func identityFunctionSeesEveryStorageClass(_ value: SQLiteValue) throws {
        let database = try SQLiteDatabase.inMemory()
        try database.createFunction("identity", argumentCount: 1) { call in call.value(0) }
        try database.createFunction("kind", argumentCount: 1) { call in
            switch call.type(0) {
            case .integer: .text("integer")
            case .real: .text("real")
            case .text: .text("text")
            case .blob: .text("blob")
            case .null: .text("null")
            }
        }
        #expect(try database.scalar("SELECT identity(?)", [value]) == value)
        let expectedKind: String
        switch value {
        case .null: expectedKind = "null"
        case .integer: expectedKind = "integer"
        case .real: expectedKind = "real"
        case .text: expectedKind = "text"
        case .blob: expectedKind = "blob"
        }
        #expect(try database.scalar("SELECT kind(?)", [value]) == .text(expectedKind))
        #expect(try database.scalar("SELECT typeof(identity(?))", [value]) == .text(expectedKind))
    }

    @Test func typedArgumentReaders() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.createFunction("describe", argumentCount: -1) { call in
            var parts: [String] = ["\(call.argumentCount)"]
            parts.append("\(call.int64(0))")
            parts.append("\(call.double(1))")
            parts.append(call.text(2))
            parts.append("\(call.withUTF8(2) { $0.count })")
            parts.append("\(call.isNull(3))")
            parts.append("\(call.value(9))")  // out of range
            return .text(parts.joined(separator: "|"))
        }
        let result = try database.scalar("SELECT describe(?, ?, ?, ?)", [.integer(Int64.max), .real(1.5), .text("a\u{0}é"), .null])
        #expect(result == .text("4|9223372036854775807|1.5|a\u{0}é|4|true|NULL"))
    }

    @Test func throwingFunctionPassesItsErrorThrough() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.createFunction("fail", argumentCount: 1) { call in
            throw CustomError(detail: call.text(0))
        }
        do {
            _ = try database.scalar("SELECT fail('boom')")
            Issue.record("no error")
        } catch {
            #expect(error.message == "custom failure: boom")
            #expect(error.code == SQLITE_ERROR)
            #expect(error.sql == "SELECT fail('boom')")
            #expect(error.underlying as? CustomError == CustomError(detail: "boom"))
        }
        // A later error from SQLite itself carries no stale Swift error.
        do {
            _ = try database.scalar("SELECT * FROM missing")
            Issue.record("no error")
        } catch {
            #expect(error.underlying == nil)
        }
    }

    @Test func throwingFunctionOnALaterRow() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        try database.createFunction("check_small", argumentCount: 1) { call in
            if call.int64(0) > 2 { throw CustomError(detail: "\(call.int64(0))") }
            return call.value(0)
        }
        let statement = try database.prepare("SELECT check_small(x) FROM t")
        #expect(try statement.step())
        #expect(try statement.step())
        do {
            _ = try statement.step()
            Issue.record("no error")
        } catch {
            #expect(error.underlying as? CustomError == CustomError(detail: "3"))
        }
    }

    @Test func auxiliaryDataIsReusedAcrossRows() throws {
        final class Compiled { let pattern: String; init(_ pattern: String) { self.pattern = pattern } }
        let database = try SQLiteDatabase.inMemory()
        try database.execute("""
            CREATE TABLE t(x);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 500) INSERT INTO t SELECT 'row' || i FROM c;
            """)
        var compilations = 0
        try database.createFunction("has_prefix", argumentCount: 2) { call in
            let compiled: Compiled
            if let cached = call.auxiliaryData(for: 1) as? Compiled {
                compiled = cached
            } else {
                compilations += 1
                compiled = Compiled(call.text(1))
                call.setAuxiliaryData(compiled, for: 1)
            }
            return .integer(call.text(0).hasPrefix(compiled.pattern) ? 1 : 0)
        }
        #expect(try database.scalar("SELECT count(*) FROM t WHERE has_prefix(x, ?)", [.text("row1")]) == .integer(111))
        #expect(compilations == 1)
        #expect(try database.scalar("SELECT count(*) FROM t WHERE has_prefix(x, 'row2')") == .integer(111))
        #expect(compilations == 2)
        // A non-constant argument is compiled per row.
        #expect(try database.scalar("SELECT count(*) FROM t WHERE has_prefix(x, x)") == .integer(500))
        #expect(compilations > 2)
    }

    @Test func auxiliaryDataIsReleased() throws {
        final class Tracked {
            let onDeinit: () -> Void
            init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
            deinit { onDeinit() }
        }
        var released = 0
        do {
            let database = try SQLiteDatabase.inMemory()
            try database.createFunction("remember", argumentCount: 1) { call in
                if call.auxiliaryData(for: 0) == nil { call.setAuxiliaryData(Tracked { released += 1 }, for: 0) }
                return .null
            }
            _ = try database.scalar("SELECT remember(1)")
            _ = try database.rows("SELECT remember(2)")
        }
        #expect(released == 2)
    }

    @Test func functionBoxIsReleasedWhenTheDatabaseCloses() throws {
        final class Tracked {
            let onDeinit: () -> Void
            init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
            deinit { onDeinit() }
        }
        var released = false
        do {
            let database = try SQLiteDatabase.inMemory()
            let tracked = Tracked { released = true }
            try database.createFunction("f", argumentCount: 0) { _ in _ = tracked; return .null }
            _ = try database.scalar("SELECT f()")
        }
        #expect(released)
    }

    @Test func wrongArgumentCountIsAnError() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.createFunction("two", argumentCount: 2) { _ in .integer(2) }
        #expect(throws: SQLiteError.self) { try database.scalar("SELECT two(1)") }
        #expect(try database.scalar("SELECT two(1, 2)") == .integer(2))
    }
}
