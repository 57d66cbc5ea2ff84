import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The advisory lock that puts the writers of one atomic store file in a row (docs/STORES.md):
/// an exclusive `flock(2)` on the store file itself — on the file its path names now. No lock
/// file is kept beside the store.
///
/// A writer holds it from reading the store's contents to renaming its new file over the store,
/// so no two writers ever work from the same contents. Readers never take it (a save renames a
/// whole new file into place, so a reader sees the old file or the new one).
///
/// - A save replaces the store file, so the lock is on a file, not on a path. A writer that has
///   locked the file checks that the path still names it; if a save replaced it meanwhile (the
///   writer waited for that save's writer), it locks the new file instead. The writer that
///   saves locks its new file before renaming it into place (``lockReplacement(_:)``, then
///   ``adoptReplacement(_:)``), so from taking the lock to letting go it holds it on whatever
///   file the path names: a writer that opens the path after the rename waits as one that
///   opened it before.
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

    private let mutex = NSLock()
    private var descriptor: Int32 = -1
    private var holds = 0

    init(storeURL: URL) {
        self.storeURL = storeURL
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
    /// `fileSystem` when there is no store file (or it cannot be opened).
    @discardableResult
    func acquire(timeout: Duration) throws(StoreError) -> Bool {
        mutex.lock(); defer { mutex.unlock() }
        if holds > 0 {
            holds += 1
            return false
        }
        let path = storeURL.path
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: max(timeout, .zero))
        var pause = Duration.milliseconds(1)
        while true {
            let fd = try Self.open(path)
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
                    throw StoreError(.locked, "\(storeURL.lastPathComponent) is locked by another process or store writing to it (waited \(Self.text(timeout))); try again once it has saved")
                }
                // A short pause first (saves of small stores take milliseconds), then longer ones.
                Self.sleep(min(pause, now.duration(to: deadline)))
                pause = min(pause * 2, .milliseconds(20))
            }
            // Locked: the file, if the path still names it. Else a save replaced it while this
            // waited (or it was removed): lock what the path names now.
            if Self.isFile(fd, at: path) {
                descriptor = fd
                holds = 1
                return true
            }
            Glibc.close(fd)
        }
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

    // MARK: Replacing the store file

    /// Locks the new file at `path` (a temporary file no other writer knows) that is about to
    /// become the store file: call before renaming it into place, then ``adoptReplacement(_:)``
    /// once it is the store file, or close the returned descriptor if it never becomes one.
    func lockReplacement(_ path: String) throws(StoreError) -> Int32 {
        let fd = try Self.open(path)
        var result: Int32
        repeat { result = flock(fd, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let error = errno
            Glibc.close(fd)
            throw StoreError(.fileSystem, "cannot lock \(path): \(String(cString: strerror(error)))")
        }
        return fd
    }

    /// The file locked by ``lockReplacement(_:)`` is the store file now: the lock is held on it
    /// (one hold, if it was not held: a store file just created), and released on the file it
    /// replaced.
    func adoptReplacement(_ fd: Int32) {
        mutex.lock(); defer { mutex.unlock() }
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = fd
        if holds == 0 { holds = 1 }
    }

    // MARK: Files

    /// Opens a file to lock it (reading is enough for `flock`).
    private static func open(_ path: String) throws(StoreError) -> Int32 {
        var fd: Int32
        repeat { fd = Glibc.open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            throw StoreError(.fileSystem, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    /// Whether `path` names the file open as `fd`.
    private static func isFile(_ fd: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
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
