import PostgreSQLTestSupport
import SiftPostgreSQL
import Testing

@Suite struct PostgreSQLConnectionTests {
    /// More values than one statement can bind: an error that says so, not "the connection
    /// failed" (libpq's own refusal), and the connection goes on.
    @Test func moreParametersThanTheProtocolCarries() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        let count = PostgreSQLConnection.parameterLimit + 1
        let sql = "SELECT 1 WHERE 1 IN (" + (1...count).map { "$\($0)::bigint" }.joined(separator: ", ") + ")"
        do {
            _ = try connection.query(sql, (1...count).map { .int64(Int64($0)) })
            Issue.record("the statement ran")
        } catch {
            #expect(error.sqlState == "54023")
            #expect(error.message == "the statement binds 65536 values; PostgreSQL takes at most 65535 in one statement")
        }
        #expect(try connection.scalar("SELECT 40 + 2") == .int64(42))
    }

    @Test func connectsByConninfo() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        #expect(try connection.scalar("SELECT 40 + 2") == .int64(42))
        #expect(connection.serverVersion >= 100_000)
        #expect(!connection.isInTransaction)
    }

    /// The same server by a `postgresql://` URL, every part in the query string (a socket
    /// directory is not a URL host).
    @Test(arguments: ["postgresql", "postgres"])
    func connectsByURL(scheme: String) async throws {
        let byConninfo = try await PostgreSQLTestConnection.make()
        let url = "\(scheme):///\(Self.percentEncoded(byConninfo.database))?host=\(Self.percentEncoded(byConninfo.host))"
            + "&port=\(byConninfo.port)&user=\(Self.percentEncoded(byConninfo.user))"
        let byURL = try PostgreSQLConnection(url)
        #expect(byURL.database == byConninfo.database)
        #expect(try byURL.scalar("SELECT current_user") == .text(byConninfo.user))
    }

    @Test func settingsOverrideTheConninfo() async throws {
        let connection = try PostgreSQLConnection(
            await PostgreSQLTestServer.conninfo(), settings: ["application_name": "sift tests"])
        #expect(try connection.scalar("SELECT current_setting('application_name')") == .text("sift tests"))
        // Whatever the database's encoding, text comes as UTF-8.
        #expect(try connection.scalar("SELECT current_setting('client_encoding')") == .text("UTF8"))
    }

    @Test func aDatabaseThatDoesNotExist() async throws {
        let conninfo = try await PostgreSQLTestServer.conninfo()
        let error = PostgreSQLTestConnection.error {
            _ = try PostgreSQLConnection(conninfo, settings: ["dbname": "sift_no_such_database"])
        }
        #expect(error?.sqlState == "3D000")
        #expect(error?.severity == "FATAL")
        #expect(error?.message.contains(#"database "sift_no_such_database" does not exist"#) == true)
        // libpq's verbose form is taken apart: no code or source location left in the message.
        #expect(error?.message.contains("3D000") == false)
        #expect(error?.message.contains("LOCATION") == false)
        #expect(error?.isConnectionError == false)
    }

    @Test(arguments: [
        "host=/tmp/sift-no-server-here-\(Int.random(in: 0...1_000_000)) dbname=postgres",
        "nonsense_keyword=1",
        "postgresql://[broken",
    ])
    func noConnectionWithoutAServerCode(conninfo: String) {
        let error = PostgreSQLTestConnection.error { _ = try PostgreSQLConnection(conninfo) }
        #expect(error?.sqlState == "08001")
        #expect(error?.isConnectionError == true)
        #expect(error?.message.isEmpty == false)
    }

    @Test func aNULCharacterNeverReachesLibpq() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        // Cut at the NUL, the text would be another statement.
        for sql in ["SELECT 1\0; DROP TABLE x", "SELECT $1::int8\0"] {
            let error = PostgreSQLTestConnection.error { try connection.execute(sql) }
            #expect(error?.sqlState == "22021")
            let prepared = PostgreSQLTestConnection.error { _ = try connection.query(sql, [.int64(1)]) }
            #expect(prepared?.sqlState == "22021")
        }
        let conninfo = PostgreSQLTestConnection.error { _ = try PostgreSQLConnection("dbname=x\0 host=y") }
        #expect(conninfo?.sqlState == "08001")
        #expect(try connection.scalar("SELECT 1") == .int64(1))
    }

    /// RFC 3986 unreserved characters as they are, every other byte as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.properties.isASCIIHexDigit || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "-._~".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
