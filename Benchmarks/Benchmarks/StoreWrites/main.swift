// Writing to a SQLite store at SQLite's speed, side by side with the sqlite3 shell, in one run:
//
//   1. Importing 1,000,000 rows of a plain four-attribute entity from JSON Lines with
//      `StoreImporter` (what `sift import` runs), against the sqlite3 shell's `.import` of the
//      same rows as CSV into the same table layout (a store Sift created, so the same columns
//      and indexes), in one transaction. Goal: at most 2× the shell. Both run as child
//      processes, alternately (A B A B …), and the import's peak resident memory is read from
//      the kernel (goal: under 200 MB).
//   2. Inserting one object into the 1,000,000-row store and saving (goal: under 5 ms).
//   3. `batchUpdate` of the ~1,000 objects a predicate picks in that store, and saving (goal:
//      under 50 ms).
//
//     swift build -c release --product StoreWrites && .build/release/StoreWrites [rows] [rounds]
//
// Needs the `sqlite3` shell (apt: sqlite3). The fixture (JSON Lines, CSV) is made once, in the
// temporary directory.
import Foundation
import Sift
#if canImport(Glibc)
import Glibc
#endif

let modelJSON = #"""
{"name": "People", "entities": [{"name": "Person", "attributes": [
    {"name": "name", "type": "String"}, {"name": "age", "type": "Integer 64"},
    {"name": "city", "type": "String"}, {"name": "score", "type": "Double"}],
  "indexes": [["age"]]}]}
"""#

struct BenchmarkError: Error, CustomStringConvertible { let description: String }

// MARK: The child that imports

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "import-child" {
    let store = try SQLiteStore.create(at: URL(fileURLWithPath: arguments[3]), model: try JSONModelFormat.read(Data(modelJSON.utf8)))
    guard let handle = FileHandle(forReadingAtPath: arguments[2]) else { throw BenchmarkError(description: "cannot read \(arguments[2])") }
    let summary = try StoreImporter.importJSONLines(JSONRecordReader(fileHandle: handle, keepingText: false), into: store)
    guard summary.total > 0 else { throw BenchmarkError(description: "nothing imported") }
    // The process's own peak resident memory (the kernel's rusage of a spawned child starts from
    // the parent's peak), for the parent to read.
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.map(String.init) ?? "VmHWM: 0 kB"
    try peak.write(toFile: arguments[3] + ".peak", atomically: true, encoding: .utf8)
    exit(0)
}

let rows = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3

// MARK: Fixture

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-bench-writes-\(rows)")
let jsonl = directory.appendingPathComponent("people.jsonl"), csv = directory.appendingPathComponent("people.csv")

/// The same rows as JSON Lines (Sift's import) and CSV with the store's columns (the shell's).
func makeFixture() throws {
    if FileManager.default.fileExists(atPath: csv.path) { return }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var random = SplitMix(seed: 2026)
    let cities = ["Amsterdam", "Berlin", "Cairo", "Denver", "Évora", "Fès"]
    var lines = "", table = "_pk,_id,_entity,name,age,city,score\n"
    lines.reserveCapacity(rows * 100)
    table.reserveCapacity(rows * 60)
    for n in 1...rows {
        let age = random.next() % 1000, city = cities[Int(random.next() % UInt64(cities.count))]
        let score = Double(random.next() % 100_000) / 1000
        lines += #"{"@entity":"Person","@id":"P\#(n)","name":"person \#(n)","age":\#(age),"city":"\#(city)","score":\#(score)}"# + "\n"
        table += "\(n),P\(n),Person,person \(n),\(age),\(city),\(score)\n"
    }
    try lines.write(to: jsonl, atomically: true, encoding: .utf8)
    try table.write(to: csv, atomically: true, encoding: .utf8)
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: Running children

/// Runs a program to its end: wall-clock seconds and peak resident memory (KB).
func runChild(_ program: String, _ arguments: [String]) throws -> (seconds: Double, maxRSS: Int) {
    var pid: pid_t = 0
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let start = ContinuousClock.now
    guard posix_spawnp(&pid, program, nil, nil, argv, environ) == 0 else { throw BenchmarkError(description: "cannot run \(program)") }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { throw BenchmarkError(description: "wait4 failed") }
    let elapsed = ContinuousClock.now - start
    guard status == 0 else { throw BenchmarkError(description: "\(program) \(arguments.joined(separator: " ")) failed (status \(status))") }
    return (seconds(elapsed), usage.ru_maxrss)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

// MARK: 1. Import against the sqlite3 shell

try makeFixture()
let me = URL(fileURLWithPath: CommandLine.arguments[0]).path
let model = try JSONModelFormat.read(Data(modelJSON.utf8))
var siftTimes: [Double] = [], shellTimes: [Double] = [], siftMemory: [Int] = []
let imported = directory.appendingPathComponent("imported.sqlite"), shell = directory.appendingPathComponent("shell.sqlite")
func removeStore(_ url: URL) {
    for suffix in ["", "-wal", "-shm", ".peak"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
}
print("\(rows.formatted()) rows of Person (name, age, city, score), \(rounds) rounds, alternating")
for round in 1...rounds {
    removeStore(imported)
    var sift = try runChild(me, ["import-child", jsonl.path, imported.path])
    let peak = try String(contentsOfFile: imported.path + ".peak", encoding: .utf8)
    sift.maxRSS = Int(peak.filter(\.isNumber)) ?? sift.maxRSS
    removeStore(shell)
    _ = try SQLiteStore.create(at: shell, model: model)  // the same layout, empty
    let baseline = try runChild("sqlite3", [shell.path, "BEGIN", ".import --csv --skip 1 \(csv.path) Person", "COMMIT"])
    siftTimes.append(sift.seconds)
    shellTimes.append(baseline.seconds)
    siftMemory.append(sift.maxRSS)
    print("  round \(round): Sift \(format(sift.seconds)) s (\(sift.maxRSS / 1024) MB), sqlite3 .import \(format(baseline.seconds)) s")
}
let count = try SQLiteStore.open(at: imported).count(FetchRequest(entityName: "Person"))
guard count == rows else { throw BenchmarkError(description: "the import holds \(count) rows, not \(rows)") }
let importRatio = median(siftTimes) / median(shellTimes)

// MARK: 2. One insert and save in the big store

let store = try SQLiteStore.open(at: imported)
var insertTimes: [Double] = []
for n in 0..<21 {
    let start = ContinuousClock.now
    try store.insert("Person", id: ObjectID("new-\(n)"), ["name": .string("new \(n)"), "age": .int(Int64(n)), "city": .string("Ghent"), "score": .double(1)])
    try store.save()
    insertTimes.append(seconds(ContinuousClock.now - start) * 1000)
}

// MARK: 3. batchUpdate of ~1,000 objects a predicate picks

var updateTimes: [Double] = [], updated: [Int] = []
for age in 100..<111 {
    let start = ContinuousClock.now
    let n = try store.batchUpdate(entity: "Person", predicate: try PredicateNode(format: "age == %@", age),
                                  set: ["score": try ExpressionNode(format: "score + 1"), "city": .constant("Ghent")])
    try store.save()
    updateTimes.append(seconds(ContinuousClock.now - start) * 1000)
    updated.append(n)
}

print("""

| workload | Sift | peer | ratio / figure | goal |
|---|---|---|---|---|
| import \(rows.formatted()) rows (JSON Lines vs sqlite3 `.import` CSV, one transaction) | \(format(median(siftTimes))) s | \(format(median(shellTimes))) s | \(format(importRatio))× | ≤ 2× |
| peak memory of that import | \(siftMemory.max()! / 1024) MB | | | < 200 MB |
| insert one object + save, \(rows.formatted())-row store | \(format(median(insertTimes), 2)) ms | | | < 5 ms |
| batchUpdate ~\(updated.sorted()[updated.count / 2]) objects by predicate + save | \(format(median(updateTimes), 1)) ms | | | < 50 ms |
""")
