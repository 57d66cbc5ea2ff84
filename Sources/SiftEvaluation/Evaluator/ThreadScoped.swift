#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value for the length of a call on the current thread, as `TaskLocal.withValue` gives one,
/// without the concurrency runtime: under the fuzzing builds' sanitizers that runtime's
/// `swift_task_localValuePush` crashed outside any task. Calls nest; another thread sees the
/// default value.
package final class ThreadScoped<Value>: @unchecked Sendable {
    private var key = pthread_key_t()
    private let defaultValue: Value

    private final class Box {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    package init(_ defaultValue: Value) {
        self.defaultValue = defaultValue
        let created = pthread_key_create(&key, nil)
        precondition(created == 0, "a thread-specific key")
    }

    /// The value the innermost ``withValue(_:_:)`` of this thread set, or the default.
    package var value: Value {
        guard let pointer = pthread_getspecific(key) else { return defaultValue }
        return Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue().value
    }

    /// Runs `operation` with `value` as ``value`` on this thread.
    package func withValue<R, Failure: Error>(_ value: Value, _ operation: () throws(Failure) -> R) throws(Failure) -> R {
        let previous = pthread_getspecific(key)
        let box = Box(value)
        pthread_setspecific(key, Unmanaged.passUnretained(box).toOpaque())
        defer {
            pthread_setspecific(key, previous)
            withExtendedLifetime(box) {}
        }
        return try operation()
    }
}
