import Foundation

/// A value shared between threads, read and changed only under a lock: the `Mutex` of the
/// Synchronization module, on a `pthread_mutex_t` (through `NSLock`).
///
/// Why not `Synchronization.Mutex`: on Linux it locks with atomics and futexes inside the
/// toolchain's uninstrumented library, so ThreadSanitizer (`scripts/sanitize thread`) sees no
/// order between two threads' turns and reports every use as a race. ThreadSanitizer
/// intercepts `pthread_mutex_lock`, so with this lock the sanitized runs report only real races.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
