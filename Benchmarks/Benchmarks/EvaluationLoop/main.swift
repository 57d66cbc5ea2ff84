// A plain timing loop for profiling evaluation (perf, valgrind --tool=callgrind), without the
// benchmark harness:
//
//     swift build -c release --product EvaluationLoop
//     .build/release/EvaluationLoop [dictionaries|values|structs|foundation|all] [evaluations]
import Foundation
import Sift

struct Person: PredicateQueryable {
    var name: String
    var age: Int
    static let queryableKeys: QueryableKeys<Person> = ["name": .key(\.name), "age": .key(\.age)]
}

let arguments = CommandLine.arguments
let which = arguments.count > 1 ? arguments[1] : "all"
let total = arguments.count > 2 ? Int(arguments[2]) ?? 10_000_000 : 10_000_000

let people: [Person] = (0..<1_000).map { i in Person(name: "person \(i)", age: i % 80) }
let dictionaries: [Value] = (0..<1_000).map { i in
    .dictionary(ValueDictionary([("name", .string("person \(i)")), ("age", .int(Int64(i % 80))), ("city", .string("Oslo"))]))
}
let values: [Value] = people.map { Value($0) }

func time(_ name: String, _ body: () throws -> Int) rethrows {
    let start = ContinuousClock.now
    let count = try body()
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let perEvaluation = seconds / Double(total) * 1e9
    print("\(name): \(String(format: "%.1f", perEvaluation)) ns/evaluation, \(String(format: "%.1f", 1e3 / perEvaluation)) M/s (matched \(count))")
}

let rounds = max(1, total / 1_000)
let predicate = try CompiledPredicate(format: "age > 30")

if which == "all" || which == "dictionaries" {
    try time("Sift, dictionaries") {
        var count = 0
        for _ in 0..<rounds { for value in dictionaries where try predicate.evaluate(value) { count += 1 } }
        return count
    }
}
if which == "all" || which == "values" {
    try time("Sift, PredicateQueryable structs as Values") {
        var count = 0
        for _ in 0..<rounds { for value in values where try predicate.evaluate(value) { count += 1 } }
        return count
    }
}
if which == "all" || which == "structs" {
    try time("Sift, PredicateQueryable structs") {
        var count = 0
        for _ in 0..<rounds { for person in people where try predicate.evaluate(Value(person)) { count += 1 } }
        return count
    }
}
if which == "all" || which == "foundation", #available(macOS 14, *) {
    let foundation = #Predicate<Person> { $0.age > 30 }
    try time("Foundation #Predicate, structs") {
        var count = 0
        for _ in 0..<rounds { for person in people where try foundation.evaluate(person) { count += 1 } }
        return count
    }
}
