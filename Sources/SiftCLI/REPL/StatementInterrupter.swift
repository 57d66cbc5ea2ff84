#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Sift
import SiftEvaluation

/// Ctrl-C in an interactive session: while a statement runs, SIGINT stops it (the open store's
/// `interrupt()`: `sqlite3_interrupt` on SQLite, a flag the evaluator's loops check on the
/// atomic stores) and the session goes on; between statements, what `whenIdle` says.
///
/// The signal is not handled in a signal handler: SIGINT is ignored by the process and a
/// dispatch source delivers it on a queue of its own, where stopping the store (thread-safe in
/// both stores) is ordinary code.
final class StatementInterrupter {
    /// What a SIGINT between statements does.
    enum IdleAction: Sendable {
        /// Nothing (a line editor reads Ctrl-C as a key, so a SIGINT then comes from elsewhere).
        case ignore
        /// What SIGINT does by default: the process ends (plain input at a terminal).
        case terminate
    }

    private let signals: Signals
    private let source: any DispatchSourceSignal

    /// Starts handling SIGINT (until `stop()`).
    init(whenIdle: IdleAction) {
        let signals = Signals(whenIdle: whenIdle)
        self.signals = signals
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "sift.interrupts"))
        source.setEventHandler { signals.received() }
        // Dispatch installs its own SIGINT action when the source is registered, on a thread of
        // its own: wait for it, so that libedit (which saves the action before it reads a line
        // and restores it after) restores that one, not the one before it.
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.resume()
        _ = registered.wait(timeout: .now() + .seconds(1))
    }

    /// SIGINT's default action again.
    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    /// Runs one statement (or dot command) of `session`, which a SIGINT stops; returns whether
    /// one came while it ran.
    func run(_ session: Session, _ body: () -> Void) -> Bool {
        run(stopping: session.store, body)
    }

    /// Runs `body` (a statement, a batch change), which a SIGINT stops by stopping `store`;
    /// returns whether one came while it ran.
    func run(stopping store: (any PersistentStore)?, _ body: () -> Void) -> Bool {
        signals.started(stop: Self.stopAction(for: store))
        body()
        return signals.ended()
    }

    /// Waits, inside ``run(_:_:)``'s body, until a SIGINT comes, which then stops nothing else
    /// (`.watch`: what runs meanwhile runs on other threads, and Ctrl-C ends the wait).
    func waitForInterrupt() {
        signals.waitForInterrupt()
    }

    /// How a store's running fetches are stopped.
    static func stopAction(for store: (any PersistentStore)?) -> (@Sendable () -> Void)? {
        guard let store = store as? any InterruptibleFetches else { return nil }
        return { store.interrupt() }
    }

    /// Ends the process as SIGINT ends it by default, once what Ctrl-C stopped is reported: a
    /// shell then sees a command Ctrl-C ended (`$?` is 130), and a shell script running it
    /// stops too, instead of going on as it does after a command that handled the signal.
    static func endInterrupted() -> Never {
        fflush(nil)  // every stream: what print wrote
        signal(SIGINT, SIG_DFL)
        // (Dispatch may keep SIGINT blocked, to read it itself.)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(SIGINT)
        _exit(128 + SIGINT)
    }

    /// What the signal queue and the session's thread share: the statement running, and
    /// whether a SIGINT came while it ran.
    private final class Signals: Sendable {
        private struct Running {
            /// Stops the statement (nil: nothing to stop, as with no store open).
            var stop: (@Sendable () -> Void)?
            var interrupted = false
        }

        private let running = Locked<Running?>(nil)
        private let whenIdle: IdleAction
        /// Signalled by a SIGINT that comes while something runs (``waitForInterrupt()``).
        private let interrupts = DispatchSemaphore(value: 0)

        init(whenIdle: IdleAction) { self.whenIdle = whenIdle }

        func started(stop: (@Sendable () -> Void)?) {
            running.withLock { $0 = Running(stop: stop) }
            // (A SIGINT of an earlier statement is not this one's.)
            while interrupts.wait(timeout: .now()) == .success {}
        }

        /// Waits for a SIGINT while something runs; it stops nothing.
        func waitForInterrupt() {
            let already = running.withLock { running in
                running?.stop = nil
                return running?.interrupted ?? false
            }
            if !already { interrupts.wait() }
        }

        /// Whether a SIGINT came since `started`.
        func ended() -> Bool {
            running.withLock { running in
                defer { running = nil }
                return running?.interrupted ?? false
            }
        }

        /// A SIGINT (on the signal queue).
        func received() {
            // The store is stopped under the lock, so the statement stopped cannot be the next one.
            let wasRunning = running.withLock { running in
                guard running != nil else { return false }
                running?.interrupted = true
                running?.stop?()
                return true
            }
            if wasRunning { interrupts.signal() }
            if !wasRunning, whenIdle == .terminate {
                // (The results were flushed as they were printed.)
                StatementInterrupter.endInterrupted()
            }
        }
    }
}
