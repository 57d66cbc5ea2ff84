// The REPL's latency as a person at a terminal sees it: `sift` runs under a pseudo-terminal
// (line editor, history, the table renderer for a terminal), and the clock stops when the
// awaited text has come out of the terminal:
//
//   1. From starting `sift STORE` (a 1,000,000-row SQLite store) until its prompt is printed.
//      Goal: under 100 ms.
//   2. From pressing Enter on `FETCH Item` until the first row is printed, in the default
//      table mode and in `.mode jsonl` (one record a line, nothing to align). Goal: under 50 ms.
//
//     swift build -c release --product sift                      (in the main package)
//     swift build -c release --product REPLLatency && .build/release/REPLLatency [SIFT] [rounds]
//
// SIFT is the `sift` binary to time (default: the main package's .build/release/sift). The
// store is SQLiteFetchFixture's, made once in the temporary directory; HOME and XDG_STATE_HOME
// point at an empty temporary folder, so the history starts empty.
import Foundation
import SQLiteFetchFixture
#if canImport(Glibc)
import Glibc
#endif

struct BenchmarkError: Error, CustomStringConvertible { let description: String }

let arguments = CommandLine.arguments
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let sift = arguments.count > 1 ? arguments[1] : mainPackage.appendingPathComponent(".build/release/sift").path
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 15 : 15
guard FileManager.default.isExecutableFile(atPath: sift) else {
    throw BenchmarkError(description: "no sift binary at \(sift): build it (swift build -c release --product sift) or give its path")
}

// MARK: A pseudo-terminal

/// A pseudo-terminal pair: `sift` gets the replica as standard input, output and error; the
/// benchmark reads and types on the main side.
struct PseudoTerminal {
    let main: Int32
    let replica: Int32

    init(columns: UInt16 = 160, rows: UInt16 = 50) throws {
        var main: Int32 = -1, replica: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&main, &replica, nil, nil, &size) == 0 else { throw BenchmarkError(description: "no pseudo-terminal") }
        // Neither side leaks into another child (the spawn gives `sift` its own copies).
        _ = fcntl(main, F_SETFD, FD_CLOEXEC)
        _ = fcntl(replica, F_SETFD, FD_CLOEXEC)
        self.main = main
        self.replica = replica
    }

    func close() {
        Glibc.close(main)
        Glibc.close(replica)
    }

    /// Types text.
    func type(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(main, &bytes, bytes.count)
    }

    /// Reads until `text` has come out (keeping what came before it in `output`); nil after
    /// `timeout` seconds.
    func read(until text: String, timeout: Double = 10, output: inout [UInt8]) -> ContinuousClock.Instant? {
        let needle = Array(text.utf8)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: main, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = Glibc.read(main, &buffer, buffer.count)
            guard count > 0 else { return nil }
            let searchFrom = max(0, output.count - needle.count)
            output += buffer[0..<count]
            if output[searchFrom...].firstRange(of: needle) != nil { return ContinuousClock.now }
        }
        return nil
    }
}

/// Starts `sift ARGUMENTS` on the terminal, in a session of its own.
func start(_ arguments: [String], on terminal: PseudoTerminal, home: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in 0...2 { posix_spawn_file_actions_adddup2(&actions, terminal.replica, descriptor) }
    let environment = ["TERM=xterm-256color", "HOME=\(home)", "XDG_STATE_HOME=\(home)/state", "LANG=C.UTF-8", "EDITRC=/dev/null",
                       "PATH=/usr/bin:/bin"]
    let argv = ([sift] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, sift, &actions, nil, argv, envp) == 0 else { throw BenchmarkError(description: "cannot run \(sift)") }
    return pid
}

func stop(_ pid: pid_t) {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func format(_ value: Double) -> String { String(format: "%.1f", value) }

// MARK: Measuring

let rows = 1_000_000
let store = try SQLiteFetchFixture.storeURL(rows: rows).path
let home = FileManager.default.temporaryDirectory.appendingPathComponent("sift-bench-repl-\(getpid())").path
try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: home) }

/// Starting until the prompt: milliseconds.
func startup() throws -> Double {
    let terminal = try PseudoTerminal()
    defer { terminal.close() }
    let started = ContinuousClock.now
    let pid = try start([store], on: terminal, home: home)
    defer { stop(pid) }
    var output: [UInt8] = []
    guard let prompted = terminal.read(until: "sift> ", output: &output) else {
        throw BenchmarkError(description: "no prompt; sift printed: \(String(decoding: output, as: UTF8.self))")
    }
    return milliseconds(prompted - started)
}

/// Enter on `FETCH Item` until the first row (`item number 1`) is printed: milliseconds.
func firstRow(mode: String?) throws -> Double {
    let terminal = try PseudoTerminal()
    defer { terminal.close() }
    let pid = try start([store], on: terminal, home: home)
    defer { stop(pid) }
    var output: [UInt8] = []
    guard terminal.read(until: "sift> ", output: &output) != nil else { throw BenchmarkError(description: "no prompt") }
    if let mode {
        terminal.type(".mode \(mode)\r")
        output = []
        guard terminal.read(until: "sift> ", output: &output) != nil else { throw BenchmarkError(description: "no prompt after .mode") }
    }
    terminal.type("FETCH Item")
    output = []
    guard terminal.read(until: "FETCH Item", output: &output) != nil else { throw BenchmarkError(description: "the line was not echoed") }
    output = []
    let entered = ContinuousClock.now
    terminal.type("\r")
    guard let printed = terminal.read(until: "item number 1", timeout: 60, output: &output) else {
        throw BenchmarkError(description: "no first row; sift printed: \(String(decoding: output.prefix(2000), as: UTF8.self))")
    }
    return milliseconds(printed - entered)
}

print("sift: \(sift)")
print("\(rows.formatted())-row store: \(store); \(rounds) rounds")
_ = try startup()  // the binary and the store into the page cache
var startups: [Double] = [], tableRows: [Double] = [], jsonlRows: [Double] = []
for round in 1...rounds {
    startups.append(try startup())
    tableRows.append(try firstRow(mode: nil))
    jsonlRows.append(try firstRow(mode: "jsonl"))
    print("  round \(round): prompt \(format(startups.last ?? 0)) ms, first row \(format(tableRows.last ?? 0)) ms (table), \(format(jsonlRows.last ?? 0)) ms (jsonl)")
}

print("""

| workload | median | best | goal |
|---|---|---|---|
| `sift STORE` until the prompt (\(rows.formatted()) rows) | \(format(median(startups))) ms | \(format(startups.min() ?? 0)) ms | < 100 ms |
| Enter on `FETCH Item` until the first row, table mode | \(format(median(tableRows))) ms | \(format(tableRows.min() ?? 0)) ms | < 50 ms |
| Enter on `FETCH Item` until the first row, `.mode jsonl` | \(format(median(jsonlRows))) ms | \(format(jsonlRows.min() ?? 0)) ms | < 50 ms |
""")
