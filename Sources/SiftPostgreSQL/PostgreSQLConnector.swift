import CLibPQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens libpq connections, reporting a failure with the server's SQLSTATE.
///
/// `PQconnectdb` would be simpler, but a failed connection has no result to read fields from, and
/// its message holds no SQLSTATE: so the connection is started (`PQconnectStartParams`) with
/// verbose errors, which put the SQLSTATE in the message, and polled to the end here (honouring
/// `connect_timeout`, which libpq leaves to whoever polls, and which bounds the whole startup:
/// the TCP or socket connection, TLS negotiation, authentication, up to the server's
/// ReadyForQuery).
enum PostgreSQLConnector {
    /// The seconds a connection may take when neither the connection string nor
    /// `PGCONNECT_TIMEOUT` gives `connect_timeout`: a server or proxy that accepts and never
    /// answers is then an error, not a wait forever. `connect_timeout=0` waits forever, as in libpq.
    static let defaultConnectTimeout = 10

    /// An open connection for `conninfo` (key/value or URL), with `settings` overriding its
    /// keywords and `defaults` taken for those it does not give; the client encoding is always
    /// UTF-8.
    static func connect(_ conninfo: String, settings: [String: String], defaults: [String: String] = [:]) throws(PostgreSQLError) -> OpaquePointer {
        try loadLibPQ()
        let sortedSettings = settings.sorted { $0.key < $1.key }
        let sortedDefaults = defaults.sorted { $0.key < $1.key }
        // libpq takes the keywords in order, the last value of each winning, and `conninfo`'s
        // own where `dbname` stands: so the defaults come before it and the settings after.
        let keywords = sortedDefaults.map(\.key) + ["dbname"] + sortedSettings.map(\.key) + ["client_encoding"]
        let values = sortedDefaults.map(\.value) + [conninfo] + sortedSettings.map(\.value) + ["UTF8"]
        guard !(keywords + values).contains(where: \.containsNUL) else {
            throw PostgreSQLError(sqlState: "08001", severity: "FATAL", message: "the connection string contains a NUL character")
        }
        let started = withCStringArray(keywords) { keywords in
            withCStringArray(values) { values in
                // expand_dbname 1: the first dbname may be a whole conninfo or URL.
                sift_PQconnectStartParams(keywords, values, 1)
            }
        }
        guard let connection = started else {
            throw PostgreSQLError(sqlState: "08001", severity: "FATAL", message: "libpq could not allocate a connection")
        }
        do {
            try finish(connection)
        } catch {
            sift_PQfinish(connection)
            throw error
        }
        sift_PQsetErrorVerbosity(connection, PQERRORS_DEFAULT)
        return connection
    }

    /// Opens the system's libpq the first time (``CLibPQ`` loads it with dlopen, so processes that
    /// never connect do not load it): an error naming the package when it is not installed.
    static func loadLibPQ() throws(PostgreSQLError) {
        var message = [CChar](repeating: 0, count: 512)
        guard sift_pq_load(&message, message.count) != 0 else { return }
        let text = message.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } ?? "" }
        throw PostgreSQLError(sqlState: "08001", severity: "FATAL", message: text)
    }

    /// Polls `connection` until it is open; throws when it fails or `connect_timeout` passes.
    private static func finish(_ connection: OpaquePointer) throws(PostgreSQLError) {
        guard sift_PQstatus(connection) != CONNECTION_BAD else { throw failure(of: connection) }
        sift_PQsetErrorVerbosity(connection, PQERRORS_VERBOSE)
        let timeout = connectTimeoutSeconds(connection)
        let deadline = timeout.map { ContinuousClock.now + .seconds($0) }
        var status = PGRES_POLLING_WRITING
        while true {
            switch status {
            case PGRES_POLLING_OK:
                return
            case PGRES_POLLING_FAILED:
                throw failure(of: connection)
            default:
                let events = Int16(status == PGRES_POLLING_READING ? POLLIN : POLLOUT)
                var descriptor = pollfd(fd: sift_PQsocket(connection), events: events, revents: 0)
                var waitMilliseconds: Int32 = -1
                if let deadline {
                    let left = deadline - ContinuousClock.now
                    guard left > .zero else { throw timedOut(connection, after: timeout ?? 0) }
                    let (seconds, attoseconds) = left.components
                    waitMilliseconds = Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1)
                }
                if poll(&descriptor, 1, waitMilliseconds) < 0, errno != EINTR {
                    throw PostgreSQLError(sqlState: "08001", severity: "FATAL", message: "poll failed while connecting (errno \(errno))")
                }
            }
            status = sift_PQconnectPoll(connection)
        }
    }

    /// The `connect_timeout` the connection was given, in seconds (``connectTimeout(given:)``).
    private static func connectTimeoutSeconds(_ connection: OpaquePointer) -> Int? {
        guard let options = sift_PQconninfo(connection) else { return connectTimeout(given: nil) }
        defer { sift_PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout" {
                return connectTimeout(given: option.pointee.val.map { String(cString: $0) })
            }
            option += 1
        }
        return connectTimeout(given: nil)
    }

    /// The seconds to wait for a connection given libpq's `connect_timeout` value: none (or
    /// empty) is ``defaultConnectTimeout``; 0, a negative number or text that is not one waits
    /// forever (nil), as libpq does; below 2 is 2, libpq's own minimum.
    static func connectTimeout(given value: String?) -> Int? {
        guard let value, !value.isEmpty else { return defaultConnectTimeout }
        let trimmed = value.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        guard let seconds = Int(String(trimmed)), seconds > 0 else { return nil }
        return max(2, seconds)
    }

    /// The error of a connection still not made after `seconds`: the server it waited for (the
    /// host libpq was trying) and what to do.
    private static func timedOut(_ connection: OpaquePointer, after seconds: Int) -> PostgreSQLError {
        let host = sift_PQhost(connection).map { String(cString: $0) } ?? ""
        let port = sift_PQport(connection).map { String(cString: $0) } ?? ""
        return PostgreSQLError(
            sqlState: "08001", severity: "FATAL",
            message: "\(serverDescription(host: host, port: port)) did not answer within \(seconds) s (connect_timeout); "
                + "it accepted the connection but sent nothing: is the server or a proxy in between hung? "
                + "Set connect_timeout (seconds, 0 waits forever) in the connection string to wait longer")
    }

    /// The server as libpq's messages name it: `server on socket "/tmp/pg/.s.PGSQL.5432"`,
    /// `server at "db.example", port 5432`.
    static func serverDescription(host: String, port: String) -> String {
        let port = port.isEmpty ? "5432" : port
        if host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") {
            let directory = host.isEmpty ? "/var/run/postgresql" : host
            return "the server on socket \"\(directory)/.s.PGSQL.\(port)\""
        }
        return "the server at \"\(host)\", port \(port)"
    }

    /// The error of a failed connection, from libpq's verbose message: each attempt's line reads
    /// `… failed: FATAL:  3D000: database "x" does not exist`, followed by `DETAIL:`, `HINT:` and
    /// `LOCATION:` lines. The last attempt's SQLSTATE is taken; `08001` when the server gave none
    /// (no server there, a bad connection string).
    static func failure(of connection: OpaquePointer) -> PostgreSQLError {
        let text = sift_PQerrorMessage(connection).map { String(cString: $0) } ?? ""
        return parseFailure(text)
    }

    static func parseFailure(_ text: String) -> PostgreSQLError {
        var sqlState = "08001"
        var severity = "FATAL"
        var lines: [String] = []
        var detail: String?
        var hint: String?
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("LOCATION:  ") { continue }
            if line.hasPrefix("DETAIL:  ") { detail = String(line.dropFirst(9)); continue }
            if line.hasPrefix("HINT:  ") { hint = String(line.dropFirst(7)); continue }
            if let (state, level, message) = serverError(in: line) {
                sqlState = state
                severity = level
                lines.append(message)
            } else {
                lines.append(String(line))
            }
        }
        let message = lines.isEmpty ? "could not connect" : lines.joined(separator: "\n")
        return PostgreSQLError(sqlState: sqlState, severity: severity, message: message, detail: detail, hint: hint)
    }

    /// The SQLSTATE, severity and message of a line `<context>: FATAL:  3D000: <message>`, the
    /// message being the line without severity and code.
    private static func serverError(in line: Substring) -> (String, String, String)? {
        for level in ["FATAL", "ERROR", "PANIC"] {
            guard let marker = line.firstRange(of: level + ":  ") else { continue }
            let rest = line[marker.upperBound...]
            let code = rest.prefix(5)
            guard code.count == 5, code.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isUppercase) }),
                  rest.dropFirst(5).hasPrefix(": ")
            else { continue }
            let message = line[..<marker.lowerBound] + rest.dropFirst(7)
            return (String(code), level, String(message))
        }
        return nil
    }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings.
    private static func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
