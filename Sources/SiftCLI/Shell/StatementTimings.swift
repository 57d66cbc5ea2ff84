import Foundation

/// `.timer on`: how long a statement took to parse (text to a fetch or change), to compile (its
/// SQL on a SQLite store, its predicate for the evaluator otherwise) and to execute (the fetch
/// or change, with its results printed), shown after its results:
///
///     Run time: parse 0.12 ms, compile 0.40 ms, execute 3.1 ms
///
/// A store compiles a fetch again when it runs it, so "compile" is what compiling costs and
/// "execute" includes that cost once more; the figures are a guide, not an accounting.
struct StatementTimings {
    enum Phase {
        case parse, compile, execute
    }

    private var durations: [Phase: Duration] = [:]

    /// Runs `body`, adding the time it takes to `phase`.
    mutating func measure<T>(_ phase: Phase, _ body: () throws -> T) rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer { durations[phase, default: .zero] += clock.now - start }
        return try body()
    }

    /// The line `.timer on` prints.
    var line: String {
        "Run time: parse \(Self.text(durations[.parse])), compile \(Self.text(durations[.compile])), execute \(Self.text(durations[.execute]))"
    }

    /// Milliseconds to two significant figures or so: `0.12 ms`, `3.1 ms`, `250 ms`.
    static func text(_ duration: Duration?) -> String {
        let components = (duration ?? .zero).components
        let milliseconds = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        let format = milliseconds < 1 ? "%.2f" : milliseconds < 100 ? "%.1f" : "%.0f"
        return String(format: format, milliseconds) + " ms"
    }
}
