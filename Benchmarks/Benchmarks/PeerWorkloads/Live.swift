// Live results (issue 33), Sift only:
//
//     PeerWorkloads live latency DIR COMMITS     another process (this program, `live writer`)
//                                                commits COMMITS inserts to a SQLite store, 50 ms
//                                                apart; seconds= the longest time from a commit to
//                                                its change set reaching the controller (wall clock)
//     PeerWorkloads live update DIR ROWS ROUNDS  one update (or move) and save in a ROWS-object
//                                                sectioned live result, ROUNDS times; seconds= the
//                                                median time from the update to its change set
//     PeerWorkloads live memory STORE CHANGES    a live result of every person of the people store
//                                                (batch size 1,000), followed through CHANGES saves
//                                                (each undone by the next); seconds= CPU of the
//                                                changes, checksum= resident memory after the
//                                                fetch and after the changes
import Foundation
import Sift

/// Collects the arrival times of change sets, from whichever thread.
final class ArrivalClock: LiveFetchControllerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var arrivals: [Double] = []
    private(set) var last: ResultsChangeSet?
    func controller(_ controller: LiveFetchController, didChange changes: ResultsChangeSet) {
        let now = wallTime()
        lock.lock(); arrivals.append(now); last = changes; lock.unlock()
    }
    var count: Int { lock.lock(); defer { lock.unlock() }; return arrivals.count }
    var times: [Double] { lock.lock(); defer { lock.unlock() }; return arrivals }
}

/// Seconds since 1970 (comparable between processes on one machine).
func wallTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Resident memory in MB (`/proc/self/statm`).
func residentMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1e6
}

let liveModel = """
    {"name": "Live", "entities": [{"name": "Item", "attributes": [
      {"name": "serial", "type": "integer64", "optional": false}, {"name": "group", "type": "string", "optional": false},
      {"name": "rank", "type": "integer64", "optional": false}]}]}
    """

/// A new SQLite store of `rows` items in 10 groups.
func liveStore(at url: URL, rows: Int) throws -> SQLiteStore {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    let store = try SQLiteStore.create(at: url, model: try JSONModelFormat.read(Data(liveModel.utf8)))
    try store.performChanges {
        for serial in 0..<rows {
            try store.insert(entity: "Item", id: nil, attributes: [
                "serial": .int(Int64(serial)), "group": .string("g\(serial % 10)"), "rank": .int(Int64(serial % 7)),
            ], relationships: [:])
        }
    }
    try store.save()
    return store
}

func liveRequest() throws -> FetchRequest {
    var request = try FetchRequest(statement: "Item SORT BY group, serial SECTION BY group")
    request.fetchBatchSize = 100
    return request
}

func live(_ arguments: [String]) throws {
    let usage = WorkloadError(description: "live latency DIR COMMITS | live update DIR ROWS ROUNDS | live memory STORE CHANGES | live writer FILE COMMITS")
    guard let mode = arguments.first else { throw usage }
    let rest = Array(arguments.dropFirst())
    switch mode {
    case "writer":
        guard rest.count == 2 else { throw usage }
        let store = try SQLiteStore.open(at: URL(fileURLWithPath: rest[0]))
        for serial in 0..<(try number(rest[1], "COMMITS")) {
            usleep(50_000)
            try store.insert(entity: "Item", id: nil, attributes: [
                "serial": .int(Int64(1_000_000 + serial)), "group": .string("g\(serial % 10)"), "rank": .int(0),
            ], relationships: [:])
            try store.save()
            print(String(format: "%.6f", wallTime()))
            fflush(nil)
        }
    case "latency":
        guard rest.count == 2 else { throw usage }
        let commits = try number(rest[1], "COMMITS")
        let url = URL(fileURLWithPath: rest[0]).appendingPathComponent("live-latency.sqlite")
        let store = try liveStore(at: url, rows: 1_000)
        let controller = try LiveFetchController(store: store, request: liveRequest())
        let clock = ArrivalClock()
        controller.delegate = clock
        try controller.performFetch()
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        writer.arguments = ["live", "writer", url.path, String(commits)]
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        let written = output.fileHandleForReading.readDataToEndOfFile()
        writer.waitUntilExit()
        let committed = String(decoding: written, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
        let deadline = wallTime() + 5
        while clock.count < committed.count && wallTime() < deadline { usleep(1_000) }
        let arrivals = clock.times
        guard writer.terminationStatus == 0, committed.count == commits, arrivals.count == commits else {
            throw WorkloadError(description: "\(committed.count) commits, \(arrivals.count) change sets")
        }
        let latencies = zip(committed, arrivals).map { max(0, $1 - $0) }.sorted()
        report(latencies.last ?? 0, String(format: "median=%.1fms", latencies[latencies.count / 2] * 1000))
    case "update":
        guard rest.count == 3 else { throw usage }
        let rows = try number(rest[1], "ROWS"), rounds = try number(rest[2], "ROUNDS")
        let store = try liveStore(at: URL(fileURLWithPath: rest[0]).appendingPathComponent("live-update.sqlite"), rows: rows)
        let ids = try store.fetch(FetchRequest(statement: "Item SORT BY serial")).objectIDs
        let controller = try LiveFetchController(store: store, request: liveRequest())
        let clock = ArrivalClock()
        controller.delegate = clock
        try controller.performFetch()
        var times: [Double] = []
        var changed = 0
        for round in 0..<rounds {
            let id = ids[(round * 7_919) % ids.count]
            let start = wallTime()
            // Even rounds an update in place (rank), odd ones a move (serial, a sort key).
            if round % 2 == 0 {
                try store.update(id, attributes: ["rank": .int(Int64(100 + round))], relationships: [:])
            } else {
                try store.update(id, attributes: ["serial": .int(Int64(-round))], relationships: [:])
            }
            try store.save()
            times.append(wallTime() - start)
            if let last = clock.last { changed += last.updates.count + last.moves.count }
        }
        times.sort()
        report(times[times.count / 2], "changes=\(changed)")
    case "memory":
        guard rest.count == 2 else { throw usage }
        let changes = try number(rest[1], "CHANGES")
        let store = try SQLiteStore.open(at: URL(fileURLWithPath: rest[0]))
        var request = try FetchRequest(statement: "Person SORT BY city, name SECTION BY city")
        request.fetchBatchSize = 1_000
        let controller = try LiveFetchController(store: store, request: request)
        let clock = ArrivalClock()
        controller.delegate = clock
        try controller.performFetch()
        let afterFetch = residentMB()
        let people = try store.fetch(FetchRequest(statement: "Person WHERE age < 3 SORT BY name LIMIT \(max(1, changes))"))
        var originals: [(ObjectID, Value)] = []
        try people.forEachObject { originals.append(($0.objectID, $0[attribute: "name"] ?? .null)) }
        let start = cpuTime()
        for change in 0..<changes {
            let (id, name) = originals[(change / 2) % originals.count]
            // A rename (a sort key: a move), undone by the next change: the store ends as it began.
            try store.update(id, attributes: ["name": change % 2 == 0 ? .string("Zz live \(change)") : name], relationships: [:])
            try store.save()
        }
        let seconds = cpuTime() - start
        report(seconds, String(format: "rss=%.0fMB->%.0fMB,changesets=%d", afterFetch, residentMB(), clock.count))
    default:
        throw usage
    }
}
