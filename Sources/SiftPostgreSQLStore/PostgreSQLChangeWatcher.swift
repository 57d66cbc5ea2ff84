import Foundation
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a PostgreSQL store follows other sessions' commits (``PostgreSQLStore/observeExternalChanges(_:)``).
public enum PostgreSQLChangeWatch: Sendable, Equatable {
    /// `LISTEN` on the notifications of the triggers the store installed
    /// (`PostgreSQLChangeTriggers`): each commit is told as it happens, with the objects it
    /// changed where the notification names them.
    case notifications
    /// Polling the server's transaction snapshot every 100 ms (the triggers could not be
    /// installed: `reason`); every commit is "unknown".
    case polling(reason: String)
}

/// A session of its own that hears of other sessions' commits to a PostgreSQL store, on a thread
/// of its own, until cancelled: by `LISTEN`ing on `PostgreSQLChangeTriggers.channel`, or, where
/// the triggers cannot be installed, by reading `pg_current_snapshot()` every 100 ms — its
/// `xmax` and list of transactions in progress change with every transaction that wrote
/// anything and ended (in any database of the server: a change elsewhere costs a refetch that
/// finds nothing, never a change set).
final class PostgreSQLChangeWatcher: @unchecked Sendable {
    private let cancelled = Locked(false)
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// The notification's changes, nil when it is not of this store (another schema or table).
    typealias Decoder = @Sendable (PostgreSQLNotification) -> StoreChanges?

    /// Starts watching through `connection` (ready: listening, or able to read the snapshot);
    /// `reconnect` opens a new one after it is lost (posting "unknown" then: commits may have
    /// come in between); notifications from `ownPID` (the store's own session, whose saves it
    /// posts itself) are skipped.
    init(connection: PostgreSQLConnection, watch: PostgreSQLChangeWatch, ownPID: Int32,
         reconnect: @escaping @Sendable () throws -> PostgreSQLConnection,
         decode: @escaping Decoder, handler: @escaping @Sendable (StoreChanges) -> Void) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        let wake = wakeRead
        let cancelled = self.cancelled
        let thread = Thread {
            Self.run(connection: connection, watch: watch, ownPID: ownPID, wake: wake, cancelled: cancelled,
                     reconnect: reconnect, decode: decode, handler: handler)
        }
        thread.name = "sift.postgresql-watch"
        thread.start()
    }

    deinit {
        cancel()
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Stops watching (the thread ends at once, or after a check under way, and closes its
    /// session).
    func cancel() {
        let first = cancelled.withLock { cancelled in
            defer { cancelled = true }
            return !cancelled
        }
        guard first, wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// The snapshot a poll compares (`xmin:xmax:xip,…`).
    static func snapshot(_ connection: PostgreSQLConnection) throws -> String? {
        let function = connection.serverVersion >= 130000 ? "pg_current_snapshot()" : "txid_current_snapshot()"
        return try connection.query("SELECT \(function)::text").first?[0].stringValue
    }

    private static func run(connection first: PostgreSQLConnection, watch: PostgreSQLChangeWatch, ownPID: Int32, wake: Int32,
                            cancelled: Locked<Bool>, reconnect: @Sendable () throws -> PostgreSQLConnection,
                            decode: Decoder, handler: @Sendable (StoreChanges) -> Void) {
        defer { close(wake) }
        var connection: PostgreSQLConnection? = first
        let polling = if case .polling = watch { true } else { false }
        var last = polling ? (try? snapshot(first)) ?? nil : nil
        while !cancelled.withLock({ $0 }) {
            var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            if !polling, let socket = connection?.socketDescriptor, socket >= 0 {
                fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0))
            }
            let timeout: Int32 = connection == nil ? 1000 : polling ? 100 : 1000
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { return }
            if fds[0].revents != 0 || cancelled.withLock({ $0 }) { return }
            guard let current = connection else {
                // The session was lost: open another; what came in between is not known.
                guard let again = try? reconnect() else { continue }
                connection = again
                if polling { last = (try? snapshot(again)) ?? nil }
                handler(.unknown)
                continue
            }
            do {
                if polling {
                    let now = try snapshot(current)
                    if now != last {
                        last = now
                        handler(.unknown)
                    }
                } else {
                    // (Also what libpq read with an earlier reply, which the socket does not show.)
                    var changes: StoreChanges?
                    for notification in try current.receivedNotifications()
                    where notification.channel == PostgreSQLChangeTriggers.channel && notification.senderPID != ownPID {
                        guard let told = decode(notification) else { continue }
                        changes = changes.map { $0.merged(with: told) } ?? told
                    }
                    if let changes, !changes.isEmpty { handler(changes) }
                }
            } catch {
                connection = nil
            }
        }
    }
}

extension StoreChanges {
    /// What `self` and then `other` changed together.
    func merged(with other: StoreChanges) -> StoreChanges {
        var merged = self
        merged.inserted.formUnion(other.inserted)
        merged.deleted.formUnion(other.deleted)
        for (id, keys) in other.updated { merged.updated[id, default: []].formUnion(keys) }
        merged.isComplete = isComplete && other.isComplete
        return merged
    }
}
