import Foundation
import Testing
import TestTimeLimits

/// Runs the built `sift` binary (it sits beside the test bundle in the build folder).
struct SiftBinary {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// How many times longer than usual the binary may take (``TestTimeLimits/TestTimeScale``).
    static let timeScale: Double = TestTimeScale.factor

    static let url: URL = {
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return testBundle.deletingLastPathComponent().appendingPathComponent("sift")
    }()

    /// The environment the binary runs in: this process's, with the column types Sift keeps for
    /// SQLite databases it did not create in a directory of the test run's own, not the user's
    /// `~/.cache/sift` (``SiftSQL/SQLiteTypeCache``).
    static let environment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        environment["SIFT_CACHE_DIR"] = FileManager.default.temporaryDirectory.appendingPathComponent("sift-tests-type-cache-\(getpid())").path
        environment.removeValue(forKey: "SIFT_CACHE")
        return environment
    }()

    static func run(_ arguments: String..., stdin: String? = nil) throws -> Result {
        try run(arguments: arguments, stdin: stdin)
    }

    static func run(arguments: [String], stdin: String? = nil, environment: [String: String] = environment) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Standard input is written on a thread of its own that blocks SIGPIPE: a child that
        // stops reading early (an error on line 2 of a long input) makes the write fail with
        // EPIPE instead of killing the test process.
        let writer = input.fileHandleForWriting
        let bytes = Data((stdin ?? "").utf8)
        let written = DispatchSemaphore(value: 0)
        let thread = Thread {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &set, nil)
            try? writer.write(contentsOf: bytes)
            try? writer.close()
            written.signal()
        }
        thread.start()
        // Read both pipes before waiting so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        written.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
