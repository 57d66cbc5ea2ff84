// Sift's side (and the Swift peers' side) of the library workloads Benchmarks/run times against
// its peers. Each run sets up, then times only the work, and prints one line Benchmarks/run
// reads: `seconds=<CPU seconds of the work> checksum=<what the work added up to>`.
//
//     PeerWorkloads parse FILE ROUNDS                        parse every line of FILE, ROUNDS times
//     PeerWorkloads dictionaries plain|compound|any COUNT ROUNDS [shared|own]
//                                                            evaluate over COUNT dictionaries (shared:
//                                                            built through DictionaryShapes, one key
//                                                            list for all, as the JSON reader builds
//                                                            them; own: each with its own keys)
//     PeerWorkloads filter plain|compound|any COUNT ROUNDS   predicate.filter(_:) of the same (shared) dictionaries
//     PeerWorkloads indices plain|compound|any COUNT ROUNDS  predicate.matchingIndices(in:) of the same
//     PeerWorkloads structs plain|any sift|sift-wrapped|foundation|closure COUNT ROUNDS
//                                                            evaluate over COUNT structs (sift: in
//                                                            place; sift-wrapped: each wrapped as a Value)
//     PeerWorkloads sections STORE sift|raw                   section names and counts by city
//     PeerWorkloads search STORE index|scan ROUNDS [PREFIX]   COUNT … name BEGINSWITH[cd] PREFIX ("ab"), ROUNDS times
//     PeerWorkloads live latency|update|memory …               live results (Live.swift)
//
// The dictionaries and structs are the records of Benchmarks/Peers/gnustep-predicates.m: the
// same names, ages and tags, so the two sides match the same records.
import CSQLite3Raw
import Foundation
import Sift

struct WorkloadError: Error, CustomStringConvertible {
    let description: String
}

/// The process's CPU time in seconds.
func cpuTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func report(_ seconds: Double, _ checksum: some CustomStringConvertible) {
    print("seconds=\(String(format: "%.6f", seconds)) checksum=\(checksum)")
}

/// Record `i` of the evaluation workloads (the Objective-C peer builds the same).
enum Records {
    static let names = ["stella", "Stan", "anna", "Ángel", "bob", "stéphane", "Zoe", "Steve", "maria", "Ali"]
    static func name(_ i: Int) -> String { "\(names[i % names.count]) \(i)" }
    static func age(_ i: Int) -> Int { (i * 7) % 80 }
    static func tags(_ i: Int) -> [String] { i % 3 == 0 ? ["x", "y"] : ["y", "z"] }
}

struct Person: PredicateQueryable {
    var name: String
    var age: Int
    var tags: [String]
    static let queryableKeys: QueryableKeys<Person> = ["name": .key(\.name), "age": .key(\.age), "tags": .key(\.tags)]
}

func predicateFormat(_ kind: String) throws -> String {
    switch kind {
    case "plain": return "age > 30"
    case "compound": return #"name BEGINSWITH[cd] "st" AND age > 30"#
    case "any": return #"ANY tags == "x""#
    default: throw WorkloadError(description: "unknown predicate kind \(kind): plain, compound or any")
    }
}

func number(_ text: String?, _ name: String) throws -> Int {
    guard let text, let value = Int(text), value > 0 else { throw WorkloadError(description: "\(name) must be a positive number") }
    return value
}

func parse(_ arguments: [String]) throws {
    guard arguments.count == 2 else { throw WorkloadError(description: "parse FILE ROUNDS") }
    let formats = try String(contentsOfFile: arguments[0], encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    let rounds = try number(arguments[1], "ROUNDS")
    let start = cpuTime()
    var parsed = 0
    for _ in 0..<rounds {
        for format in formats {
            let node = try PredicateNode(format: format)
            withExtendedLifetime(node) { parsed += 1 }
        }
    }
    report(cpuTime() - start, parsed)
}

func dictionaries(_ arguments: [String]) throws {
    guard arguments.count == 3 || arguments.count == 4 else { throw WorkloadError(description: "dictionaries KIND COUNT ROUNDS [shared|own]") }
    let predicate = try CompiledPredicate(format: try predicateFormat(arguments[0]))
    let count = try number(arguments[1], "COUNT")
    let rounds = try number(arguments[2], "ROUNDS")
    let shared: Bool
    switch arguments.count == 4 ? arguments[3] : "shared" {
    case "shared": shared = true
    case "own": shared = false
    default: throw WorkloadError(description: "dictionaries: shared or own, not \(arguments[3])")
    }
    let records = dictionaryRecords(count, shared: shared)
    let start = cpuTime()
    var matched = 0
    for _ in 0..<rounds { for record in records where try predicate.evaluate(record) { matched += 1 } }
    report(cpuTime() - start, matched)
}

/// `filter KIND COUNT ROUNDS`: the records (of one shape) filtered whole, `predicate.filter(_:)`
/// (GNUstep's peer: `filteredArrayUsingPredicate:`); the checksum counts the matches.
func filterDictionaries(_ arguments: [String]) throws {
    guard arguments.count == 3 else { throw WorkloadError(description: "filter KIND COUNT ROUNDS") }
    let predicate = try CompiledPredicate(format: try predicateFormat(arguments[0]))
    let records = dictionaryRecords(try number(arguments[1], "COUNT"), shared: true)
    let rounds = try number(arguments[2], "ROUNDS")
    let start = cpuTime()
    var matched = 0
    for _ in 0..<rounds { matched += try predicate.filter(records).count }
    report(cpuTime() - start, matched)
}

/// `indices KIND COUNT ROUNDS`: the records (of one shape) evaluated where they lie,
/// `predicate.matchingIndices(in:)` (GNUstep's peer: the `evaluateWithObject:` loop); the
/// checksum counts the matches.
func matchingIndices(_ arguments: [String]) throws {
    guard arguments.count == 3 else { throw WorkloadError(description: "indices KIND COUNT ROUNDS") }
    let predicate = try CompiledPredicate(format: try predicateFormat(arguments[0]))
    let records = dictionaryRecords(try number(arguments[1], "COUNT"), shared: true)
    let rounds = try number(arguments[2], "ROUNDS")
    let start = cpuTime()
    var matched = 0
    for _ in 0..<rounds { matched += try predicate.matchingIndices(in: records).count }
    report(cpuTime() - start, matched)
}

/// The records of Benchmarks/Peers/gnustep-predicates.m as dictionaries, built through
/// `DictionaryShapes` (one shape for all, as the JSON reader makes them) or each with its own keys.
func dictionaryRecords(_ count: Int, shared: Bool) -> [Value] {
    var shapes = DictionaryShapes()
    return (0..<count).map { i in
        let pairs: [(String, Value)] = [("name", .string(Records.name(i))), ("age", .int(Int64(Records.age(i)))),
                                        ("tags", .array(Records.tags(i).map { .string($0) }))]
        return .dictionary(shared ? shapes.dictionary(pairs) : ValueDictionary(pairs))
    }
}

func structs(_ arguments: [String]) throws {
    guard arguments.count == 4 else { throw WorkloadError(description: "structs KIND ENGINE COUNT ROUNDS") }
    let kind = arguments[0]
    let count = try number(arguments[2], "COUNT")
    let rounds = try number(arguments[3], "ROUNDS")
    let people = (0..<count).map { Person(name: Records.name($0), age: Records.age($0), tags: Records.tags($0)) }
    let matches: (Person) throws -> Bool
    switch (arguments[1], kind) {
    case ("sift", _):
        let predicate = try CompiledPredicate(format: try predicateFormat(kind))
        matches = { try predicate.evaluate($0) }
    case ("sift-wrapped", _):
        let predicate = try CompiledPredicate(format: try predicateFormat(kind))
        matches = { try predicate.evaluate(Value($0)) }
    case ("foundation", "plain"):
        let predicate = #Predicate<Person> { $0.age > 30 }
        matches = { try predicate.evaluate($0) }
    case ("foundation", "any"):
        let predicate = #Predicate<Person> { person in person.tags.contains { $0 == "x" } }
        matches = { try predicate.evaluate($0) }
    case ("closure", "plain"):
        matches = { $0.age > 30 }
    case ("closure", "any"):
        matches = { $0.tags.contains("x") }
    default:
        throw WorkloadError(description: "structs: engine sift, sift-wrapped, foundation or closure; kind plain or any")
    }
    let start = cpuTime()
    var matched = 0
    for _ in 0..<rounds { for person in people where try matches(person) { matched += 1 } }
    report(cpuTime() - start, matched)
}

/// Section names and counts of `Person SORT BY city SECTION BY city`, by Sift or by the
/// hand-written GROUP BY.
func sections(_ arguments: [String]) throws {
    guard arguments.count == 2 else { throw WorkloadError(description: "sections STORE sift|sift-page|raw|raw-page") }
    let url = URL(fileURLWithPath: arguments[0])
    var summary: [String] = []
    switch arguments[1] {
    case "sift", "sift-page":
        let store = try SQLiteStore.open(at: url)
        // `sift-page`: the first page of a sectioned list (its sections from the page's rows).
        let page = arguments[1] == "sift-page" ? " LIMIT 20" : ""
        var request = try FetchRequest(statement: "Person SORT BY city SECTION BY city" + page)
        request.fetchBatchSize = 1_000
        let start = cpuTime()
        let results = try store.fetchSections(request)
        for section in results.sections { summary.append("\(section.name):\(section.numberOfObjects)") }
        report(cpuTime() - start, summary.joined(separator: ","))
    case "raw", "raw-page":
        var db: OpaquePointer?
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
            throw WorkloadError(description: "cannot open \(url.path)")
        }
        defer { sqlite3_close(db) }
        let start = cpuTime()
        var statement: OpaquePointer?
        // `raw-page`: the same answer as `sift-page`, by hand: the page's rows grouped.
        let sql = arguments[1] == "raw-page"
            ? #"SELECT "city", count(*) FROM (SELECT "city" FROM "Person" ORDER BY "city", "_pk" LIMIT 20) GROUP BY "city" ORDER BY "city""#
            : #"SELECT "city", count(*) FROM "Person" GROUP BY "city" ORDER BY "city""#
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK,
              let statement else { throw WorkloadError(description: String(cString: sqlite3_errmsg(db))) }
        defer { sqlite3_finalize(statement) }
        while sqlite3_step(statement) == SQLITE_ROW {
            let city = sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
            summary.append("\(city):\(sqlite3_column_int64(statement, 1))")
        }
        report(cpuTime() - start, summary.joined(separator: ","))
    default:
        throw WorkloadError(description: "sections STORE sift|sift-page|raw|raw-page")
    }
}

/// `COUNT Person WHERE name BEGINSWITH[cd] "ab"` (or another prefix) through the library, `rounds` times: as Sift
/// compiles it on a store whose `name` is searchable (a range of the indexed `[cd]`-folded
/// column), or as it compiled before searchable attributes (and still does without the flag): a
/// scan calling the registered Swift function on every row.
func search(_ arguments: [String]) throws {
    guard arguments.count == 3 || arguments.count == 4 else { throw WorkloadError(description: "search STORE index|scan ROUNDS [PREFIX]") }
    let store = try SQLiteStore.open(at: URL(fileURLWithPath: arguments[0]))
    let rounds = try number(arguments[2], "ROUNDS")
    let prefix = arguments.count == 4 ? arguments[3] : "ab"
    var total = 0
    switch arguments[1] {
    case "index":
        let request = try FetchRequest(statement: "Person WHERE name BEGINSWITH[cd] %@", arguments: [prefix])
        guard try store.generatedSQL(for: request).sql.contains("_cd_name") else {
            throw WorkloadError(description: "\(arguments[0]): name is not searchable")
        }
        let start = cpuTime()
        for _ in 0..<rounds { total += try store.count(request) }
        report(cpuTime() - start, total)
    case "scan":
        let sql = #"SELECT count(*) FROM "Person" WHERE sift_beginswith("name", ?1, 3)"#
        let start = cpuTime()
        for _ in 0..<rounds {
            if case .integer(let count)? = try store.rawRows(sql, [.text(prefix)]).first?.first { total += Int(count) }
        }
        report(cpuTime() - start, total)
    default:
        throw WorkloadError(description: "search STORE index|scan ROUNDS [PREFIX]")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "parse": try parse(Array(arguments.dropFirst()))
    case "dictionaries": try dictionaries(Array(arguments.dropFirst()))
    case "filter": try filterDictionaries(Array(arguments.dropFirst()))
    case "indices": try matchingIndices(Array(arguments.dropFirst()))
    case "structs": try structs(Array(arguments.dropFirst()))
    case "sections": try sections(Array(arguments.dropFirst()))
    case "search": try search(Array(arguments.dropFirst()))
    case "live": try live(Array(arguments.dropFirst()))
    default: throw WorkloadError(description: "usage: PeerWorkloads parse|dictionaries|filter|structs|sections|search|live …")
    }
} catch {
    FileHandle.standardError.write(Data("PeerWorkloads: \(error)\n".utf8))
    exit(1)
}
