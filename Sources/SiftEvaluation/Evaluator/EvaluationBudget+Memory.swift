import Synchronization

/// The memory a result built in memory may take.
///
/// Some results are held whole before the first of them is used: the sections of a fetch
/// (every section's name and members), and the objects an import puts into a store held in
/// memory (a JSON or binary store). Each counts the bytes it holds, estimated from its values
/// (no system calls), against ``memoryLimit``; past it, it throws an ``EvaluationError`` with
/// code ``EvaluationError/Code/memoryLimit`` (a store, a `StoreError` with the same code)
/// that says which limit was met and what to do, instead of the process dying when an
/// allocation fails.
extension EvaluationBudget {
    /// The most bytes one result built in memory may hold: the innermost
    /// ``withMemoryLimit(_:_:)`` of this thread, else ``defaultMemoryLimit``.
    public static var memoryLimit: Int { memoryLimitScope.value ?? defaultMemoryLimit }

    /// The limit where no ``withMemoryLimit(_:_:)`` sets one: `Int.max` (none) unless set, as
    /// the `sift` tool sets it from `--memory`, `SIFT_MEMORY` or the process's limits.
    public static var defaultMemoryLimit: Int {
        get { processMemoryLimit.load(ordering: .relaxed) }
        set { processMemoryLimit.store(max(0, newValue), ordering: .relaxed) }
    }

    /// Runs `body` with `bytes` as ``memoryLimit`` on this thread.
    public static func withMemoryLimit<R, Failure: Error>(_ bytes: Int, _ body: () throws(Failure) -> R) throws(Failure) -> R {
        try memoryLimitScope.withValue(max(0, bytes), body)
    }

    private static let processMemoryLimit = Atomic<Int>(Int.max)
    /// Sets ``memoryLimit`` for a call; ``Scopes`` carries it to other threads.
    static let memoryLimitScope = ThreadScoped<Int?>(nil)
}

/// The bytes one result built in memory holds so far, against ``EvaluationBudget/memoryLimit``
/// (read once, when the tally is made).
package struct MemoryTally: Sendable {
    package let limit: Int
    package private(set) var used = 0

    package init(limit: Int = EvaluationBudget.memoryLimit) {
        self.limit = limit
    }

    /// Adds `bytes` held; false once the total passes the limit.
    @inline(__always)
    package mutating func hold(_ bytes: Int) -> Bool {
        let (total, overflow) = used.addingReportingOverflow(bytes)
        used = overflow ? Int.max : total
        return used <= limit
    }

    /// The limit for messages: `64 MB`, `512 KB`, `100 bytes`.
    package var limitText: String {
        if limit >= 1 << 30, limit % (1 << 30) == 0 { return "\(limit >> 30) GB" }
        if limit >= 1 << 20 { return "\(limit >> 20) MB" }
        if limit >= 1 << 10 { return "\(limit >> 10) KB" }
        return "\(limit) bytes"
    }

    /// The error for a result past the limit: `what` needs more (`"the sections of 'k'"`),
    /// `progress` says how far it got, `advice` what to do.
    package func error(_ what: String, progress: String?, advice: String) -> EvaluationError {
        EvaluationError(.memoryLimit, "\(what) need more memory than the \(limitText) allowed\(progress.map { " (stopped at \($0))" } ?? ""): \(advice)")
    }

    /// The heap a value holds beyond its own slot (a string's bytes, an array's elements), roughly.
    package static func size(of value: Value) -> Int {
        let slot = MemoryLayout<Value>.stride
        switch value {
        case .string(let s): return s.utf8.count > 15 ? 32 + s.utf8.count : 0
        case .data(let d): return 32 + d.count
        case .array(let elements), .set(let elements):
            return elements.reduce(32 + slot * elements.count) { $0 + size(of: $1) }
        case .dictionary(let d):
            return zip(d.keys, d.values).reduce(96 + (16 + slot) * d.count) { total, pair in
                total + (pair.0.utf8.count > 15 ? 32 + pair.0.utf8.count : 0) + size(of: pair.1)
            }
        default: return 0
        }
    }
}
