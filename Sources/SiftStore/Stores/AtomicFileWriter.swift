import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file whole: writes a temporary file in the same directory, flushes it to disk,
/// renames it over the target (atomic on POSIX file systems) and syncs the directory. A crash
/// at any point leaves either the old file or the new one.
enum AtomicFileWriter {
    static func write(_ data: Data, to url: URL) throws(StoreError) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = Glibc.open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw failure("cannot create \(temporary.path)") }
        var ok = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return false }
                let n = Glibc.write(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        let saved = errno
        close(fd)
        guard ok else {
            unlink(temporary.path)
            errno = saved
            throw failure("cannot write \(temporary.path)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let error = failure("cannot rename \(temporary.lastPathComponent) to \(url.path)")
            unlink(temporary.path)
            throw error
        }
        let dirfd = Glibc.open(directory.path, O_RDONLY)
        if dirfd >= 0 {
            _ = fsync(dirfd)
            close(dirfd)
        }
    }

    private static func failure(_ message: String) -> StoreError {
        StoreError(.fileSystem, "\(message): \(String(cString: strerror(errno)))")
    }
}
