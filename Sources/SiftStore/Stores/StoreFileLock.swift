import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The advisory lock that puts the writers of one atomic store file in a row (docs/STORES.md):
/// an exclusive `flock(2)` on a lock file beside the store (`notes.json.lock` for `notes.json`).
///
/// A writer holds it from reading the store's contents to renaming its new file over the store,
/// so no two writers ever work from the same contents. Readers never take it (a save renames a
/// whole new file into place, so a reader sees the old file or the new one).
///
/// - The lock file is created when first needed (mode 0644) and never deleted: a writer that
///   deleted it could let the next two lock two different files.
/// - The lock belongs to the open file description, opened `O_CLOEXEC`: a process that `sift`
///   or a program starts does not inherit it, and the kernel releases it when the holder closes
///   it or ends, however it ends (`kill -9` included). Two stores on one file in one process
///   exclude each other as two processes do.
/// - Holds nest: `acquire` on a lock this object holds already only counts, and the lock is
///   released by the matching last `release`.
/// - Waiting polls (`LOCK_NB`) for up to a timeout, then fails with a `locked` error naming the
///   store; the writer that holds it is not disturbed.
final class StoreFileLock: @unchecked Sendable {
    /// The store file the lock is for.
    let storeURL: URL
    /// The lock file: the store's path with `.lock` appended.
    let path: String

    private let mutex = NSLock()
    private var descriptor: Int32 = -1
    private var holds = 0

    init(storeURL: URL) {
        self.storeURL = storeURL
        self.path = storeURL.path + ".lock"
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Whether this object holds the lock.
    var isHeld: Bool {
        mutex.lock(); defer { mutex.unlock() }
        return holds > 0
    }

    /// Takes the lock, waiting up to `timeout` for another holder to release it; on a lock this
    /// object holds already, adds a hold. Returns true when this call took the lock (the first
    /// hold), false when it only added a hold. Throws `locked` when the wait timed out and
    /// `fileSystem` when the lock file cannot be opened or created.
    @discardableResult
    func acquire(timeout: Duration) throws(StoreError) -> Bool {
        mutex.lock(); defer { mutex.unlock() }
        if holds > 0 {
            holds += 1
            return false
        }
        let fd = try openLockFile()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: max(timeout, .zero))
        var pause = Duration.milliseconds(1)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            if error == EINTR { continue }
            guard error == EWOULDBLOCK || error == EAGAIN else {
                Glibc.close(fd)
                throw StoreError(.fileSystem, "cannot lock \(path): \(String(cString: strerror(error)))")
            }
            let now = clock.now
            guard now < deadline else {
                Glibc.close(fd)
                throw StoreError(.locked, "\(storeURL.lastPathComponent) is locked by another process or store writing to it (waited \(Self.text(timeout)) for \(URL(fileURLWithPath: path).lastPathComponent)); try again once it has saved")
            }
            // A short pause first (saves of small stores take milliseconds), then longer ones.
            Self.sleep(min(pause, now.duration(to: deadline)))
            pause = min(pause * 2, .milliseconds(20))
        }
        descriptor = fd
        holds = 1
        return true
    }

    /// Ends one hold; the last one releases the lock. Does nothing when the lock is not held.
    func release() {
        mutex.lock(); defer { mutex.unlock() }
        guard holds > 0 else { return }
        holds -= 1
        guard holds == 0 else { return }
        // Closing the only descriptor of the open file description releases the lock.
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// Runs `body` holding the lock (waiting up to `timeout` for it); `acquired` is whether this
    /// call took it (see ``acquire(timeout:)``).
    func holding<T>(timeout: Duration, _ body: (_ acquired: Bool) throws(StoreError) -> T) throws(StoreError) -> T {
        let acquired = try acquire(timeout: timeout)
        defer { release() }
        return try body(acquired)
    }

    /// Opens the lock file, creating it if needed; a lock file that cannot be opened for writing
    /// (it belongs to another user) is locked through a read-only descriptor, which `flock`
    /// allows.
    private func openLockFile() throws(StoreError) -> Int32 {
        var fd: Int32
        repeat { fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) } while fd < 0 && errno == EINTR
        if fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM) {
            repeat { fd = Glibc.open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        }
        guard fd >= 0 else {
            throw StoreError(.fileSystem, "cannot create the lock file \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// `5 s`, `250 ms`.
    static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(milliseconds) ms"
    }
}
