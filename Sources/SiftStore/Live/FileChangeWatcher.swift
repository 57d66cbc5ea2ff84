import Foundation
import SiftEvaluation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Watches a store file for writes by other processes, on a thread of its own: when inotify
/// reports a write to the file or one of its companions (SQLite's `-wal`) in its directory,
/// `check` says whether a commit came, and if so `onChange` is called.
///
/// A write can land before the commit is visible (SQLite updates the WAL index in its shared
/// memory, which inotify does not see, after writing the WAL), so after each reported write
/// `check` runs again every 10 ms for 100 ms; and once a second in any case. Without inotify
/// (or when told to poll), `check` runs every 100 ms.
package final class FileChangeWatcher: @unchecked Sendable {
    private let cancelled = Locked(false)
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Starts watching `file` and `file` + each of `companions` (suffixes such as "-wal").
    package init(file: URL, companions: [String] = [], polling: Bool = false,
                 check: @escaping @Sendable () -> Bool, onChange: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        let name = file.lastPathComponent
        let names = Set([name] + companions.map { name + $0 })
        let directory = file.deletingLastPathComponent().path
        let wake = wakeRead
        let cancelled = self.cancelled
        let thread = Thread {
            Self.run(directory: directory, names: names, polling: polling, wake: wake, cancelled: cancelled,
                     check: check, onChange: onChange)
        }
        thread.name = "sift.file-watch"
        thread.start()
    }

    deinit {
        cancel()
        // (The thread closes the read end when it ends.)
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Stops watching (the thread ends at once, or after a check under way).
    package func cancel() {
        let first = cancelled.withLock { cancelled in
            defer { cancelled = true }
            return !cancelled
        }
        guard first, wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private static func run(directory: String, names: Set<String>, polling: Bool, wake: Int32,
                            cancelled: Locked<Bool>, check: @Sendable () -> Bool, onChange: @Sendable () -> Void) {
        var events: Int32 = -1
        #if os(Linux)
        if !polling {
            events = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
            if events >= 0 {
                let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
                if inotify_add_watch(events, directory, mask) < 0 {
                    close(events)
                    events = -1
                }
            }
        }
        #endif
        defer {
            if events >= 0 { close(events) }
            close(wake)
        }
        var rechecksLeft = 0
        var buffer = [UInt8](repeating: 0, count: 8192)
        while !cancelled.withLock({ $0 }) {
            let timeout: Int32 = events < 0 ? 100 : (rechecksLeft > 0 ? 10 : 1000)
            var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            if events >= 0 { fds.append(pollfd(fd: events, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { return }
            if fds[0].revents != 0 { return }
            if ready > 0, fds.count > 1, fds[1].revents != 0 {
                if readEvents(events, names: names, into: &buffer) { rechecksLeft = 10 }
            } else if rechecksLeft > 0 {
                rechecksLeft -= 1
            }
            if cancelled.withLock({ $0 }) { return }
            if check() { onChange() }
        }
    }

    /// Reads the waiting inotify events; whether one names a watched file (or events were lost).
    private static func readEvents(_ events: Int32, names: Set<String>, into buffer: inout [UInt8]) -> Bool {
        var relevant = false
        #if os(Linux)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(events, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            while offset + 16 <= count {
                let mask = field(buffer, at: offset + 4)
                let length = Int(field(buffer, at: offset + 12))
                let start = offset + 16
                let end = min(start + length, count)
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                if length > 0 {
                    let bytes = buffer[start..<end].prefix { $0 != 0 }
                    if names.contains(String(decoding: bytes, as: UTF8.self)) { relevant = true }
                }
                offset = start + length
            }
        }
        #endif
        return relevant
    }

    /// A 32-bit field of an inotify event, in the machine's (little-endian) order.
    private static func field(_ buffer: [UInt8], at index: Int) -> UInt32 {
        UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8 | UInt32(buffer[index + 2]) << 16 | UInt32(buffer[index + 3]) << 24
    }
}
