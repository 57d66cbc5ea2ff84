import Foundation

/// A throw-away cluster of one test's own that runs as a real server must — `fsync`,
/// `synchronous_commit` and `full_page_writes` on (`scripts/postgres-cluster start --durable`) —
/// for the crash-safety tests, which stop it at once (``crash()``, as a power cut or a killed
/// server would) and start it again (``restart()``, recovering from its WAL). The shared test
/// server (``PostgreSQLTestServer``) runs with them off, under which an acknowledged commit may
/// be lost by such a stop.
public final class PostgreSQLDurableCluster: Sendable {
    /// The cluster's conninfo (its `postgres` database).
    public let conninfo: String
    private let directory: String
    private let script: String

    /// Starts a durable cluster in a new directory under /tmp, removed by ``stop()`` (or by the
    /// script's watchdog should the test process die first).
    public static func start() throws -> PostgreSQLDurableCluster {
        let directory = "/tmp/sift-pgdurable-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let script = packageRoot.appendingPathComponent("scripts/postgres-cluster").path
        let run = ChildProcess.run(["/bin/bash", script, "start", "--durable", directory, String(getpid())])
        guard run.status == 0, let conninfo = run.output.split(separator: "\n").last else {
            _ = ChildProcess.run(["/bin/bash", script, "stop", directory])
            throw PostgreSQLTestServerError("scripts/postgres-cluster could not start a durable server (exit status \(run.status)): \(run.errors)")
        }
        return PostgreSQLDurableCluster(conninfo: String(conninfo), directory: directory, script: script)
    }

    private init(conninfo: String, directory: String, script: String) {
        self.conninfo = conninfo
        self.directory = directory
        self.script = script
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`): every connection is cut, nothing
    /// is written but what was already in the WAL.
    public func crash() throws { try run("crash") }

    /// Starts the server again, after its crash recovery.
    public func restart() throws { try run("restart") }

    /// Stops the server and removes its directory.
    public func stop() { _ = ChildProcess.run(["/bin/bash", script, "stop", directory]) }

    private func run(_ command: String) throws {
        let run = ChildProcess.run(["/bin/bash", script, command, directory])
        guard run.status == 0 else {
            throw PostgreSQLTestServerError("scripts/postgres-cluster \(command) failed (exit status \(run.status)): \(run.errors)")
        }
    }

    /// The package's root directory (this file is Tests/PostgreSQLTestSupport/…).
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
