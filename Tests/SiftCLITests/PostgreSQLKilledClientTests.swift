import Foundation
import PostgreSQLTestSupport
import SiftPostgreSQL
import Testing

/// A `sift import` killed while the server runs its save's checks (issue 30): the server notices
/// the dead client within a second (`client_connection_check_interval`), ends the query and the
/// transaction, and the store's write lock is free — the next write goes through within
/// seconds, not when the orphan query would have ended.
@Suite struct PostgreSQLKilledClientTests {
    @Test func aKilledImportLetsGoOfTheStoreWithinSeconds() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("killed")
        defer { database.drop() }
        let words = PostgreSQLStoreCommandTests.words(database.serverConninfo)
        var uri = "postgresql://\(words["user"] ?? "postgres")@/\(database.name)?port=\(words["port"] ?? "5432")"
        if let host = words["host"] { uri += "&host=\(host)" }
        let notes = PostgreSQLStoreCommandTests.notes
        let made = try SiftBinary.run("import", "--store", uri, "--model", notes.appendingPathComponent("model.json").path,
                                      notes.appendingPathComponent("data.json").path)
        try #require(made.status == 0, "\(made.stderr)")

        // An import whose checks sleep in the server for ten minutes (the test hook), killed
        // while they do.
        let process = Process()
        process.executableURL = SiftBinary.url
        process.arguments = ["import", "--store", uri, "--format", "jsonl", "-"]
        var environment = SiftBinary.environment
        environment["SIFT_TEST_POSTGRES_CHECK_SLEEP"] = "600"
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(#"{"@entity": "Category", "@id": "C9", "name": "Killed"}"#.utf8 + [10]))
        try input.fileHandleForWriting.close()
        let watcher = try database.connect()
        let sleeping = "SELECT pid::bigint FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'SELECT pg_sleep(%'"
        // (Polled with a blocking sleep: a suspended task may resume long after, past any
        // deadline, when the whole suite keeps the cooperative threads busy.)
        var orphan: Int64?
        let deadline = ContinuousClock.now + .seconds(120 * SiftBinary.timeScale)
        while true {
            orphan = try watcher.scalar(sleeping).int64Value
            if orphan != nil || !process.isRunning || ContinuousClock.now > deadline { break }
            usleep(50_000)
        }
        guard orphan != nil else {
            let running = process.isRunning
            if running { kill(process.processIdentifier, SIGKILL) }
            Issue.record("the import never reached its checks (\(running ? "still running" : "exit status \(process.terminationStatus)"))")
            return
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let killed = ContinuousClock.now

        // The next write: retried while the store is still locked, for at most 30 seconds.
        var write: SiftBinary.Result
        repeat {
            write = try SiftBinary.run(arguments: ["import", "--store", uri, "--format", "jsonl", "-"],
                                       stdin: #"{"@entity": "Category", "@id": "C10", "name": "After"}"# + "\n")
        } while write.status != 0 && write.stderr.contains("55P03") && ContinuousClock.now - killed < .seconds(30 * SiftBinary.timeScale)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(ContinuousClock.now - killed < .seconds(30 * SiftBinary.timeScale))
        // The orphan query is gone, and the killed import left nothing.
        #expect(try watcher.scalar(sleeping).isNull)
        let ids = try SiftBinary.run("query", "--store", uri, "Category SORT BY name", "--output", "jsonl", "--properties", "name")
        #expect(ids.stdout.contains(#""@id":"C10""#) && !ids.stdout.contains(#""@id":"C9""#), "\(ids.stdout)")
    }
}
