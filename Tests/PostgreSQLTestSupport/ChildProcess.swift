import Foundation

/// Runs a command to its end with posix_spawn and waitpid, its output and errors caught in
/// temporary files. Not Foundation's `Process`: under Swift Testing its `waitUntilExit` never
/// returned here (its run loop did not hear of the exit while the other test threads waited for
/// this static's initializer), and at exit Foundation may be torn down already. Files, not pipes:
/// a server the command leaves running could hold a pipe open forever.
enum ChildProcess {
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
