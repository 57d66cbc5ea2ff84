import Synchronization

/// Lets another thread stop the fetches a store is running, as `sqlite3_interrupt` stops the
/// statements a SQLite connection is running: `interrupt()` makes every fetch under way throw
/// ``StoreError/Code/interrupted`` at its next check, and has no effect on a fetch that starts
/// after the last one under way has ended (so a Ctrl-C that comes too late cannot spoil the
/// next query).
///
/// The in-memory executor checks between objects (every ``checkInterval`` of them), before
/// and after sorting: a relaxed atomic load, nothing on the evaluation's hot path.
package final class FetchInterruption: Sendable {
    /// How many objects a loop goes through between two checks.
    package static let checkInterval = 256

    /// Fetches under way; the flag is cleared when the last of them ends.
    private let running = Mutex(0)
    private let interrupted = Atomic<Bool>(false)

    package init() {}

    /// Runs one fetch: `interrupt()` stops it while it runs.
    package func whileRunning<T>(_ fetch: () throws -> T) rethrows -> T {
        running.withLock { $0 += 1 }
        defer {
            running.withLock { count in
                count -= 1
                if count == 0 { interrupted.store(false, ordering: .relaxed) }
            }
        }
        return try fetch()
    }

    /// Stops the fetches under way (from any thread); nothing when none is.
    package func interrupt() {
        running.withLock { count in
            if count > 0 { interrupted.store(true, ordering: .relaxed) }
        }
    }

    /// Throws when `interrupt()` asked the fetches under way to stop.
    package func check() throws(StoreError) {
        if interrupted.load(ordering: .relaxed) { throw StoreError.interrupted }
    }
}

extension StoreError {
    /// A fetch or change the store's `interrupt()` stopped.
    public static var interrupted: StoreError { StoreError(.interrupted, "interrupted") }
}
