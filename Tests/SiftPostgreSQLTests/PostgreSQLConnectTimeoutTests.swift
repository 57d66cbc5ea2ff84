import Foundation
@testable import SiftPostgreSQL
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A server (or proxy) that accepts connections and never answers: connecting fails after
/// `connect_timeout` — the connection string's, or 10 s when it gives none — with an error naming
/// the server and the timeout, instead of waiting forever. The listeners here accept (the kernel
/// completes the connection) and read nothing, so libpq's first packet (an SSL request over TCP,
/// the startup packet over a Unix socket) is never answered: the timeout covers the handshake.
@Suite struct PostgreSQLConnectTimeoutTests {
    @Test(arguments: ["url", "keywords"])
    func aSilentTCPServerTimesOut(_ form: String) throws {
        let listener = try SilentListener.tcp()
        defer { listener.close() }
        let conninfo = form == "url"
            ? "postgresql://postgres@127.0.0.1:\(listener.port)/postgres?connect_timeout=2"
            : "host=127.0.0.1 port=\(listener.port) user=postgres dbname=postgres connect_timeout=2"
        let started = ContinuousClock.now
        let error = try #require(PostgreSQLTestConnection.error { _ = try PostgreSQLConnection(conninfo) })
        let waited = ContinuousClock.now - started
        #expect(error.sqlState == "08001")
        #expect(error.message.hasPrefix(#"the server at "127.0.0.1", port \#(listener.port) did not answer within 2 s (connect_timeout)"#),
                "\(error.message)")
        #expect(error.message.contains("Set connect_timeout"))
        // The connection string's 2 s, not the default 10 s (a generous bound, not a timing test).
        #expect(waited < .seconds(9), "waited \(waited)")
    }

    @Test func aSilentUnixSocketTimesOut() throws {
        let listener = try SilentListener.unix()
        defer { listener.close() }
        let error = try #require(PostgreSQLTestConnection.error {
            _ = try PostgreSQLConnection("host=\(listener.directory) port=5432 user=postgres dbname=postgres connect_timeout=2")
        })
        #expect(error.sqlState == "08001")
        #expect(error.message.hasPrefix(#"the server on socket "\#(listener.directory)/.s.PGSQL.5432" did not answer within 2 s"#),
                "\(error.message)")
    }

    /// Without `connect_timeout`, the default (10 s) ends the wait all the same.
    @Test func theDefaultTimeoutEndsTheWait() throws {
        let listener = try SilentListener.tcp()
        defer { listener.close() }
        let error = try #require(PostgreSQLTestConnection.error {
            _ = try PostgreSQLConnection("host=127.0.0.1 port=\(listener.port) user=postgres dbname=postgres")
        })
        #expect(error.message.contains("did not answer within \(PostgreSQLConnector.defaultConnectTimeout) s (connect_timeout)"),
                "\(error.message)")
    }

    struct TimeoutCase: Sendable, CustomStringConvertible {
        let given: String?
        let seconds: Int?
        var description: String { given.map { "connect_timeout=\($0)" } ?? "none" }
    }

    /// libpq's `connect_timeout` as the poll loop reads it.
    @Test(arguments: [
        TimeoutCase(given: nil, seconds: 10), TimeoutCase(given: "", seconds: 10),
        TimeoutCase(given: "30", seconds: 30), TimeoutCase(given: " 5 ", seconds: 5),
        TimeoutCase(given: "1", seconds: 2),  // libpq's minimum
        TimeoutCase(given: "0", seconds: nil), TimeoutCase(given: "-3", seconds: nil),  // forever, as libpq
    ])
    func theTimeoutGiven(_ timeout: TimeoutCase) {
        #expect(PostgreSQLConnector.connectTimeout(given: timeout.given) == timeout.seconds)
    }
}

/// A listening socket that never accepts nor reads: connections to it are made by the kernel
/// (up to its backlog) and then hear nothing.
struct SilentListener {
    let descriptor: Int32
    /// The TCP port on 127.0.0.1 (0 for a Unix socket).
    let port: UInt16
    /// The directory of the Unix socket `.s.PGSQL.5432` ("" for TCP).
    let directory: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func tcp() throws -> SilentListener {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(descriptor)
            throw Failure(description: "bind/listen: errno \(errno)")
        }
        return SilentListener(descriptor: descriptor, port: UInt16(bigEndian: address.sin_port), directory: "")
    }

    static func unix() throws -> SilentListener {
        // Short, under /tmp: a socket's path must stay under 108 bytes.
        let directory = "/tmp/sift-silent-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((directory + "/.s.PGSQL.5432").utf8CString)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.enumerated() where index < bytes.count { bytes[index] = UInt8(bitPattern: byte) }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 && listen(descriptor, 16) == 0
            }
        }
        guard bound else {
            Glibc.close(descriptor)
            try? FileManager.default.removeItem(atPath: directory)
            throw Failure(description: "bind/listen: errno \(errno)")
        }
        return SilentListener(descriptor: descriptor, port: 0, directory: directory)
    }

    func close() {
        Glibc.close(descriptor)
        if !directory.isEmpty { try? FileManager.default.removeItem(atPath: directory) }
    }
}
