import ArgumentParser
import Dispatch
import Foundation
import Sift

/// `sift watch`: a fetch's results followed live, one JSON line per change set.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow a fetch's results as the store changes: one JSON line per change set.",
        discussion: """
            The fetch is given as for 'sift query' (a statement or --request FILE.json, with --arg and --var); it must return objects and have SORT BY (SECTION BY makes sections). The first line is the whole result as inserts; then, each time this or another process commits a change to the store that changes the result, one line:

              {"sections": {"deletes": [{"index": 1, "name": "b"}], "inserts": []}, "objects": [{"change": "delete", "id": "o3", "indexPath": [1, 0]}, {"change": "insert", "id": "o9", "newIndexPath": [0, 2]}, {"change": "move", "id": "o4", "indexPath": [0, 0], "newIndexPath": [0, 1]}, {"change": "update", "id": "o5", "indexPath": [0, 3], "newIndexPath": [0, 3]}]}

            in Core Data's order of application (docs/LIVE-RESULTS.md): section deletes and object deletes by old index path, then section inserts, object inserts and moves by new index path; updates name both. Runs until SIGINT (Ctrl-C) or SIGTERM, then exits with status 0. Other processes' commits are seen on SQLite, JSON and plist stores (inotify, else polling every 100 ms) and on PostgreSQL (LISTEN/NOTIFY from triggers the store installs on its tables; polling every 100 ms where it may not, as in a database Sift did not create).

            Examples:
              $ sift watch --store notes.sqlite 'Note WHERE title CONTAINS "tea" SORT BY category.name, title SECTION BY category.name'
              $ sift watch --store notes.json 'Note SORT BY updatedAt DESC' | jq -c '.objects[]'
            """
    )

    @Option(help: ArgumentHelp("The store file (.sqlite, .db, .json or .plist), or a PostgreSQL database (postgres://USER@HOST/DB).", valueName: "STORE"))
    var store: String

    @OptionGroup var fetch: FetchInput

    @Option(help: ArgumentHelp("jsonl (one change set per line).", valueName: "FORMAT"))
    var output: String = "jsonl"

    func validate() throws {
        guard output == "jsonl" else { throw ValidationError("sift watch prints jsonl (one change set per line); '\(output)' is not supported") }
    }

    func run() throws {
        var request = try fetch.makeRequest()
        if request.fetchBatchSize == 0 { request.fetchBatchSize = FetchPrinter.batchSize }
        let store = try StoreFile.open(self.store, readOnly: true)
        fetch.printWarnings(request, on: store)
        let printer = ChangeLinePrinter()
        // SIGINT and SIGTERM end the watch: taken from the default action, and waited for.
        let stop = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            sources.append(source)
        }
        let controller: LiveFetchController
        do {
            controller = try LiveFetchController(store: store, request: request)
            controller.delegate = printer
            // The first line, the whole result, comes before any change.
            try controller.performFetch(reportingTheResult: true)
        } catch {
            Output.error("error: \(ErrorText.message(of: error))")
            throw ExitCode(1)
        }
        stop.wait()
        controller.stopFollowing()
        printer.finish()
        _ = sources
    }
}

/// Prints each change set as one JSON line, flushed at once (a pipeline follows it live).
final class ChangeLinePrinter: LiveFetchControllerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var finished = false

    func controller(_ controller: LiveFetchController, didChange changes: ResultsChangeSet) {
        print(changes)
    }

    func print(_ changes: ResultsChangeSet) {
        lock.lock(); defer { lock.unlock() }
        guard !finished else { return }
        FileHandle.standardOutput.write(Data((changes.jsonLine + "\n").utf8))
    }

    /// No line after this one.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        finished = true
    }
}
