import Foundation
import SiftPostgreSQL
import Synchronization

/// The PostgreSQL server the tests use, one per test process: the server `SIFT_TEST_POSTGRES`
/// names (a conninfo or URL), or else a throw-away cluster that `scripts/postgres-cluster` makes in
/// a temporary directory, on a Unix socket only, and stops (removing the directory) when the
/// process exits — or, should it crash, its watchdog does within a second.
///
/// When there is no server and none can be started, `conninfo()` throws with the reason, so every
/// PostgreSQL test fails saying so: they are never skipped silently.
public enum PostgreSQLTestServer {
    /// The server's conninfo, starting the cluster on the first call.
    public static func conninfo() async throws -> String {
        try await startup.result().get()
    }

    /// A new empty database on the server, its name unique to this call (and process); `label`
    /// (letters and digits) only helps to recognize it. Tests run concurrently: each uses its own.
    public static func makeDatabase(_ label: String = "test") async throws -> PostgreSQLTestDatabase {
        let base = try await conninfo()
        let name = "sift_\(label.prefix(24))_\(getpid())_\(databaseCounter.add(1, ordering: .relaxed).newValue)"
        let admin = try PostgreSQLConnection(base)
        try admin.execute("CREATE DATABASE \(PostgreSQLIdentifier.quoted(name))")
        return PostgreSQLTestDatabase(serverConninfo: base, name: name)
    }

    private static let databaseCounter = Atomic<Int>(0)

    /// Started once, by the first test that asks.
    private static let startup = ServerStartup(start)

    private static func start() -> Result<String, PostgreSQLTestServerError> {
        if let given = ProcessInfo.processInfo.environment["SIFT_TEST_POSTGRES"], !given.isEmpty {
            return .success(given)
        }
        // Always under /tmp: the server's user must reach the directory (a private TMPDIR may
        // not let it), and a Unix socket's path must stay under 108 bytes.
        let directory = "/tmp/sift-postgres-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let script = packageRoot.appendingPathComponent("scripts/postgres-cluster").path
        let run = ChildProcess.run(["/bin/bash", script, "start", directory, String(getpid())])
        // Whatever happened, the directory goes when the process ends.
        StartedCluster.register(directory: directory, script: script)
        guard run.status == 0, let conninfo = run.output.split(separator: "\n").last else {
            return .failure(PostgreSQLTestServerError(
                "scripts/postgres-cluster could not start a server (exit status \(run.status)): \(run.errors)"))
        }
        return .success(String(conninfo))
    }

    /// The package's root directory (this file is Tests/PostgreSQLTestSupport/…).
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
