import CLibPQ
import CPCRE2
import CSQLite
import Testing

/// The system libraries the next layers build on are found, linked and usable.
@Suite("System libraries")
struct SystemLibrariesTests {
    @Test func sqliteOpensAnInMemoryDatabase() {
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        #expect(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (42);", nil, nil, nil) == SQLITE_OK)
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT x FROM t", -1, &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        #expect(sqlite3_column_int64(statement, 0) == 42)
    }

    @Test func pcre2MatchesUTF8() {
        var errorCode: Int32 = 0
        var errorOffset = 0
        let pattern = "^st.r$"
        let code = pattern.withCString { p in
            pcre2_compile_8(UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), sift_pcre2_zero_terminated(),
                            sift_pcre2_utf() | sift_pcre2_caseless(), &errorCode, &errorOffset, nil)
        }
        #expect(code != nil)
        defer { pcre2_code_free_8(code) }
        let matchData = pcre2_match_data_create_from_pattern_8(code, nil)
        defer { pcre2_match_data_free_8(matchData) }
        let subject = "STÁR"
        let result = subject.withCString { s in
            pcre2_match_8(code, UnsafeRawPointer(s).assumingMemoryBound(to: UInt8.self), subject.utf8.count, 0, 0, matchData, nil)
        }
        #expect(result > 0)
    }

    /// libpq loads (with dlopen: CLibPQ) and parses a connection URL (no server needed:
    /// SiftPostgreSQLTests has one).
    @Test func libpqParsesAConnectionURL() throws {
        var message = [CChar](repeating: 0, count: 512)
        let loaded = sift_pq_load(&message, message.count)
        try #require(loaded == 0, "\(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })")
        #expect(sift_PQlibVersion() >= 100_000)
        var error: UnsafeMutablePointer<CChar>?
        let options = sift_PQconninfoParse("postgresql://sift@localhost:5433/shop?application_name=tests", &error)
        defer { sift_PQconninfoFree(options) }
        #expect(error == nil)
        var parsed: [String: String] = [:]
        var option = options
        while let current = option, let keyword = current.pointee.keyword {
            if let value = current.pointee.val { parsed[String(cString: keyword)] = String(cString: value) }
            option = current + 1
        }
        #expect(parsed["user"] == "sift")
        #expect(parsed["port"] == "5433")
        #expect(parsed["dbname"] == "shop")
        #expect(parsed["application_name"] == "tests")
    }
}
