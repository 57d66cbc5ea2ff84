import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file whole: writes a temporary file in the same directory, flushes it to disk,
/// renames it over the target (atomic on POSIX file systems) and syncs the directory. A crash
/// at any point leaves either the old file or the new one.
///
/// The temporary file is `.<name>.<pid>.<random>.tmp` (`.notes.json.4242.9f3a6c0e21d4b857.tmp`):
/// hidden, beside the target, naming the process that writes it. A save that fails removes its
/// temporary file; one left by a process that was killed mid-save is removed by
/// ``removeStaleTemporaryFiles(of:)`` the next time a writer takes the store's lock.
package enum AtomicFileWriter {
    /// Writes `data` to `url` (the caller holds the store's ``StoreFileLock``, which moves to
    /// the new file) and returns the new file's generation (its descriptor kept open).
    static func write(_ data: Data, to url: URL, lock: StoreFileLock) throws(StoreError) -> StoreFileGeneration {
        try write(data, to: url, lock: lock, exclusive: false)
    }

    /// Writes `data` as a new file at `url`, which must not exist (another writer that created
    /// it meanwhile is an "already exists" error), and returns its generation; the store's
    /// ``StoreFileLock`` is then held on it (one hold).
    static func create(_ data: Data, at url: URL, lock: StoreFileLock) throws(StoreError) -> StoreFileGeneration {
        try write(data, to: url, lock: lock, exclusive: true)
    }

    /// Writes a temporary file, locks it, and renames it over `url` (or, `exclusive`, links it
    /// to `url`, which fails if `url` exists, and removes the temporary name).
    private static func write(_ data: Data, to url: URL, lock: StoreFileLock, exclusive: Bool) throws(StoreError) -> StoreFileGeneration {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(temporaryName(for: url.lastPathComponent))
        var fd: Int32
        repeat { fd = Glibc.open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw failure("cannot create \(temporary.path)", errno) }
        // Until the rename succeeds, any failure removes the temporary file.
        var renamed = false
        var lockDescriptor: Int32 = -1
        defer {
            if !renamed {
                Glibc.close(fd)
                if lockDescriptor >= 0 { Glibc.close(lockDescriptor) }
                unlink(temporary.path)
            }
        }
        let written = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return 0
        }
        guard written == 0 else { throw failure("cannot write \(temporary.path)", written) }
        guard fsync(fd) == 0 else { throw failure("cannot write \(temporary.path)", errno) }
        if let injected = injectedFailure(for: url.path) { throw failure("cannot write \(temporary.path)", injected) }
        // Locked before it is the store file: a writer that opens the store after the rename
        // waits for this one as one that opened it before.
        lockDescriptor = try lock.lockReplacement(temporary.path)
        if exclusive {
            guard link(temporary.path, url.path) == 0 else {
                if errno == EEXIST { throw StoreError.createdMeanwhile(url) }
                throw failure("cannot create \(url.path)", errno)
            }
            unlink(temporary.path)
        } else {
            guard rename(temporary.path, url.path) == 0 else {
                throw failure("cannot rename \(temporary.lastPathComponent) to \(url.path)", errno)
            }
        }
        renamed = true
        lock.adoptReplacement(lockDescriptor)
        // After the rename: rename changes the inode's change time, not its modification time,
        // and the generation is read from the descriptor, which is now the store file.
        let generation = StoreFileGeneration(adopting: fd)
        let dirfd = Glibc.open(directory.path, O_RDONLY | O_CLOEXEC)
        if dirfd >= 0 {
            _ = fsync(dirfd)
            Glibc.close(dirfd)
        }
        return generation
    }

    /// `.notes.json.<pid>.<16 hex digits>.tmp`.
    package static func temporaryName(for name: String) -> String {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return ".\(name).\(getpid()).\(String(repeating: "0", count: 16 - random.count))\(random).tmp"
    }

    /// The process that wrote a temporary file of `name` (a name ``temporaryName(for:)`` made),
    /// or nil when `file` is not one.
    static func temporaryFileOwner(_ file: String, of name: String) -> pid_t? {
        let prefix = ".\(name).", suffix = ".tmp"
        guard file.hasPrefix(prefix), file.hasSuffix(suffix), file.count > prefix.count + suffix.count else { return nil }
        let middle = file.dropFirst(prefix.count).dropLast(suffix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard middle.count == 2, middle[1].count == 16, middle[1].allSatisfy(\.isHexDigit),
              let pid = pid_t(middle[0]), pid > 0 else { return nil }
        return pid
    }

    /// Removes the temporary files of `url` left by saves that never finished: those whose
    /// process is gone, and those of this process (a save of this process runs under the lock,
    /// so with the lock held none is under way; the file is a dead process's whose pid came
    /// back). Call only holding the store's ``StoreFileLock``: every writer creates its
    /// temporary file under the lock, so none is being written now; checking the pid as well
    /// spares the file of a writer that does not take the lock. Files of other names (another
    /// store's, an older Sift's `.<name>.<UUID>.tmp`) are left alone. Returns how many were removed.
    @discardableResult
    static func removeStaleTemporaryFiles(of url: URL) -> Int {
        let name = url.lastPathComponent
        let directory = url.deletingLastPathComponent()
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for file in files {
            guard let pid = temporaryFileOwner(file, of: name), pid == getpid() || !isRunning(pid) else { continue }
            if unlink(directory.appendingPathComponent(file).path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether a process `pid` exists (`kill(pid, 0)`: a process of another user is one too).
    static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    private static func failure(_ message: String, _ code: Int32) -> StoreError {
        StoreError(.fileSystem, "\(message): \(String(cString: strerror(code)))")
    }

    // MARK: Failures for tests

    private static let failures = NSLock()
    nonisolated(unsafe) private static var failingPaths: Set<String> = []

    /// Makes saves to `path` fail (EIO) after writing and syncing their temporary file, before
    /// the rename, until ``stopFailingSaves(to:)``: lets a test see what a failed save leaves.
    package static func failSaves(to path: String) {
        failures.lock(); defer { failures.unlock() }
        failingPaths.insert(path)
    }

    package static func stopFailingSaves(to path: String) {
        failures.lock(); defer { failures.unlock() }
        failingPaths.remove(path)
    }

    private static func injectedFailure(for path: String) -> Int32? {
        failures.lock(); defer { failures.unlock() }
        return failingPaths.contains(path) ? EIO : nil
    }
}

extension StoreError {
    /// The error of a store file to be created where one exists already (a `conflict`: that
    /// store can be opened and changed instead — as an import does when another process
    /// created the file between its look and its start).
    package static func alreadyExists(_ url: URL) -> StoreError {
        StoreError(.conflict, "\(url.path) already exists")
    }

    /// The error of a store file made beside one another process created at its place meanwhile
    /// (a `conflict`: the store that process made can be opened and changed instead).
    package static func createdMeanwhile(_ url: URL) -> StoreError {
        StoreError(.conflict, "\(url.path) already exists (another process created it while this store was made; nothing of this one was written)")
    }
}
