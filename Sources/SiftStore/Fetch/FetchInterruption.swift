import Synchronization
import SiftEvaluation

/// Lets another thread stop the fetches a store is running, as `sqlite3_interrupt` stops the
/// statements a SQLite connection is running: `interrupt()` makes every fetch under way throw
/// ``StoreError/Code/interrupted`` at its next check, and has no effect on a fetch that starts
/// after the last one under way has ended (so a Ctrl-C that comes too late cannot spoil the
/// next query).
///
/// The in-memory executor checks between objects (every ``checkInterval`` of them), before
/// and after sorting: a relaxed atomic load, nothing on the evaluation's hot path. The
/// evaluator checks it too, in its long loops (SUBQUERY, `mode:`, `@distinctUnionOfObjects`;
/// ``EvaluationBudget``), while a fetch or change runs.
///
/// A change (a batch update or delete, and the save after it) stops the same way: the batch
/// checks between objects, and a save checks once more before the point of no return (the
/// COMMIT, the file written), so an interrupt before it leaves the store as it was.
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
        do {
            return try EvaluationBudget.isInterruptedScope.withValue({ self.isInterrupted }) { try fetch() }
        } catch let error as EvaluationError where error.code == .interrupted {
            // The evaluator stopped in one of its loops: the store's error, as for a check here.
            throw StoreError.interrupted
        }
    }

    /// Whether `interrupt()` asked the fetches under way to stop.
    package var isInterrupted: Bool { interrupted.load(ordering: .relaxed) }

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

/// A store whose `interrupt()` stops its fetches and changes through a ``FetchInterruption``:
/// the atomic, SQLite and PostgreSQL stores. A batch change runs under it
/// (``PersistentStore/batchUpdate(entity:predicate:set:)``), and so can a caller's change and
/// save, to make an interrupt before the save's commit undo the whole change.
package protocol InterruptibleStore: PersistentStore {
    var interruption: FetchInterruption { get }
}

extension Optional where Wrapped == FetchInterruption {
    /// Runs `body` under the interruption, if there is one.
    package func whileRunning<T>(_ body: () throws -> T) rethrows -> T {
        guard let interruption = self else { return try body() }
        return try interruption.whileRunning(body)
    }
}

extension StoreError {
    /// A fetch or change the store's `interrupt()` stopped.
    public static var interrupted: StoreError { StoreError(.interrupted, "interrupted") }
}
