import Benchmark
import Foundation
import Sift

struct Person: PredicateQueryable {
    var name: String
    var age: Int
    static let queryableKeys: QueryableKeys<Person> = ["name": .key(\.name), "age": .key(\.age)]
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration.maxDuration = .seconds(3)
    Benchmark.defaultConfiguration.metrics = [.throughput, .wallClock, .mallocCountTotal]

    // 1,000 dictionaries of the shape a JSON record has.
    let dictionaries: [Value] = (0..<1_000).map { i in
        .dictionary(ValueDictionary([("name", .string("person \(i)")), ("age", .int(Int64(i % 80))), ("city", .string("Oslo"))]))
    }
    let structs: [Value] = (0..<1_000).map { i in Value(Person(name: "person \(i)", age: i % 80)) }

    Benchmark("age > 30 over dictionaries (per 1,000)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let predicate = try CompiledPredicate(format: "age > 30")
        for _ in benchmark.scaledIterations {
            var count = 0
            for value in dictionaries where try predicate.evaluate(value) { count += 1 }
            blackHole(count)
        }
    }

    Benchmark("age > 30 over PredicateQueryable structs (per 1,000)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let predicate = try CompiledPredicate(format: "age > 30")
        for _ in benchmark.scaledIterations {
            var count = 0
            for value in structs where try predicate.evaluate(value) { count += 1 }
            blackHole(count)
        }
    }

    // The same structs, wrapped as a Value at each evaluation (what filtering a [Person] costs).
    let people: [Person] = (0..<1_000).map { i in Person(name: "person \(i)", age: i % 80) }
    Benchmark("age > 30 over PredicateQueryable structs, wrapped each time (per 1,000)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let predicate = try CompiledPredicate(format: "age > 30")
        for _ in benchmark.scaledIterations {
            var count = 0
            for person in people where try predicate.evaluate(Value(person)) { count += 1 }
            blackHole(count)
        }
    }

    // Foundation's #Predicate on the same structs (the macro works with Swift 6.3 on Linux).
    if #available(macOS 14, *) {
        Benchmark("age > 30 with Foundation #Predicate over structs (per 1,000)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            let predicate = #Predicate<Person> { $0.age > 30 }
            for _ in benchmark.scaledIterations {
                var count = 0
                for person in people where try predicate.evaluate(person) { count += 1 }
                blackHole(count)
            }
        }
    }
}
