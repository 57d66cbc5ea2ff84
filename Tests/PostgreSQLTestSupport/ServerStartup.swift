import Foundation
import Synchronization

/// A server's start on a thread of its own, begun when made: the tests waiting for it hold none of
/// Swift Testing's few threads (those may all be busy with other tests, which would otherwise
/// delay the start itself until they are done). A failure is kept, so every test reports it
/// without trying again.
final class ServerStartup: Sendable {
    private enum State {
        case starting([CheckedContinuation<Result<String, PostgreSQLTestServerError>, Never>])
        case finished(Result<String, PostgreSQLTestServerError>)
    }

    private let state = Mutex(State.starting([]))

    init(_ start: @escaping @Sendable () -> Result<String, PostgreSQLTestServerError>) {
        Thread { [self] in
            let result = start()
            let waiting = state.withLock { state in
                defer { state = .finished(result) }
                if case .starting(let waiting) = state { return waiting }
                return []
            }
            for continuation in waiting { continuation.resume(returning: result) }
        }.start()
    }

    /// The start's result, when it is known.
    func result() async -> Result<String, PostgreSQLTestServerError> {
        await withCheckedContinuation { continuation in
            let known: Result<String, PostgreSQLTestServerError>? = state.withLock { state in
                switch state {
                case .starting(let waiting):
                    state = .starting(waiting + [continuation])
                    return nil
                case .finished(let result):
                    return result
                }
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}
