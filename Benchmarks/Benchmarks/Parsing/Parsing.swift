import Benchmark
import Sift

/// A mix of the predicates apps write: simple comparisons, string operators with options,
/// compounds, qualifiers, aggregates, arguments, functions and subqueries.
let mixedPredicates: [(String, [ConstantValue])] = [
    ("age > 30", []),
    ("name == 'Ann'", []),
    ("title BEGINSWITH[cd] %@", [.string("star")]),
    ("%K CONTAINS[c] %@", [.string("notes"), .string("milk")]),
    ("rating >= 4 AND notes != nil", []),
    ("NOT (category.name == \"Work\")", []),
    ("ANY tags.name == \"Family\"", []),
    ("children.@count >= 2", []),
    ("name IN {\"Ann\", \"Bob\", \"Cy\"}", []),
    ("price BETWEEN {10, 20}", []),
    ("(releaseDate <= %@ AND releaseDate >= %@) OR rating > 8.0", [.int(0), .int(1)]),
    ("title LIKE[c] 'star*' OR title MATCHES '^[A-Z].*'", []),
    ("SUBQUERY(items, $x, $x.price * $x.quantity > 100).@count > 0", []),
    ("lastName ==[cd] $name AND age < $max", []),
    ("sum:(scores) / count:(scores) > 3.5", []),
    ("parent == nil OR parent.title == \"Groceries\"", []),
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration.maxDuration = .seconds(3)
    Benchmark.defaultConfiguration.metrics = [.throughput, .wallClock, .mallocCountTotal]

    Benchmark("Parse mixed predicates", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            for (format, arguments) in mixedPredicates {
                blackHole(try PredicateNode(format: format, arguments: arguments))
            }
        }
    }

    let printed = mixedPredicates.compactMap { try? PredicateNode(format: $0.0, arguments: $0.1) }
    Benchmark("Print canonical forms", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            for p in printed { blackHole(p.description) }
        }
    }
}
