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

/// A server's start on a thread of its own, begun when made: the tests waiting for it hold none of
/// Swift Testing's few threads (those may all be busy with other tests, which would otherwise
/// delay the start itself until they are done). A failure is kept, so every test reports it
/// without trying again.
private final class ServerStartup: Sendable {
    private enum State {
        case starting([CheckedContinuation<Result<String, PostgreSQLTestServerError>, Never>])
        case finished(Result<String, PostgreSQLTestServerError>)
    }

    private let state = Mutex(State.starting([]))

    init(_ start: @escaping @Sendable () -> Result<String, PostgreSQLTestServerError>) {
        Thread { [self] in
            let result = start()
            let waiting = state.withLock { state in
                defer { state = .finished(result) }
                if case .starting(let waiting) = state { return waiting }
                return []
            }
            for continuation in waiting { continuation.resume(returning: result) }
        }.start()
    }

    /// The start's result, when it is known.
    func result() async -> Result<String, PostgreSQLTestServerError> {
        await withCheckedContinuation { continuation in
            let known: Result<String, PostgreSQLTestServerError>? = state.withLock { state in
                switch state {
                case .starting(let waiting):
                    state = .starting(waiting + [continuation])
                    return nil
                case .finished(let result):
                    return result
                }
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}

/// A database made for one test: connect to it, and drop it when done (with the throw-away
/// cluster it would go with the cluster anyway; on a server of `SIFT_TEST_POSTGRES` it would stay).
public struct PostgreSQLTestDatabase: Sendable {
    /// The conninfo of the server (its own database, not this one).
    public let serverConninfo: String
    /// The database's name.
    public let name: String

    /// A new connection to the database.
    public func connect() throws -> PostgreSQLConnection {
        try PostgreSQLConnection(serverConninfo, settings: ["dbname": name])
    }

    /// Drops the database, closing any connection still open to it; errors are ignored.
    public func drop() {
        guard let admin = try? PostgreSQLConnection(serverConninfo) else { return }
        try? admin.execute("DROP DATABASE IF EXISTS \(PostgreSQLIdentifier.quoted(name)) WITH (FORCE)")
    }
}

/// Why the tests have no PostgreSQL server.
public struct PostgreSQLTestServerError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ reason: String) {
        description = "The PostgreSQL tests need a server. \(reason)\nInstall PostgreSQL (bash scripts/ensure-packages) or set SIFT_TEST_POSTGRES to a server's conninfo or URL."
    }
}

/// The cluster this process started, stopped by an `atexit` handler.
private enum StartedCluster {
    private static let stopArguments = Mutex<[String]?>(nil)

    static func register(directory: String, script: String) {
        stopArguments.withLock { $0 = ["/bin/bash", script, "stop", directory] }
        atexit {
            guard let arguments = StartedCluster.stopArguments.withLock({ $0 }) else { return }
            _ = ChildProcess.run(arguments)
        }
    }
}

/// Runs a command to its end with posix_spawn and waitpid, its output and errors caught in
/// temporary files. Not Foundation's `Process`: under Swift Testing its `waitUntilExit` never
/// returned here (its run loop did not hear of the exit while the other test threads waited for
/// this static's initializer), and at exit Foundation may be torn down already. Files, not pipes:
/// a server the command leaves running could hold a pipe open forever.
private enum ChildProcess {
    static func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let base = "/tmp/sift-postgres-command-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let outputPath = base + ".out"
        let errorsPath = base + ".err"
        defer {
            unlink(outputPath)
            unlink(errorsPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { return (-1, "", "cannot run \(arguments[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return (-1, "", "waitpid failed: error \(errno)") }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, contents(of: outputPath), contents(of: errorsPath))
    }

    /// The file's text, read with POSIX calls (Foundation's `String(contentsOfFile:)` leaks its
    /// buffer for small files, which LeakSanitizer reports).
    private static func contents(of path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
