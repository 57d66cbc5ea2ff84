import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which version of an atomic store file a store read or last wrote (docs/STORES.md): the
/// file's identity (device and inode) with its size and modification time, and the file itself,
/// held open.
///
/// Every save writes a new file and renames it over the store, so a file another writer saved
/// has another inode. Holding the file open keeps its inode from being freed and given to a
/// later file, so "the same inode" can only mean "the same file", however close together two
/// saves come (no timestamp granularity to trust). Size and modification time catch a program
/// that rewrote the file in place.
final class StoreFileGeneration: @unchecked Sendable {
    private let descriptor: Int32
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modified: timespec

    /// Takes over `descriptor`, an open descriptor of the store file (closed with this object).
    init(adopting descriptor: Int32) {
        self.descriptor = descriptor
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim
        } else {
            // Matches no file: the next save refuses rather than guess.
            device = 0; inode = 0; size = -1; modified = timespec()
        }
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Whether the file at `path` is still this version: the same inode, size and modification
    /// time. A missing file is not.
    func isCurrent(at path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode && Int64(info.st_size) == size
            && info.st_mtim.tv_sec == modified.tv_sec && info.st_mtim.tv_nsec == modified.tv_nsec
    }

    /// Reads a whole store file through one descriptor, so the generation is exactly the file
    /// whose bytes were read.
    static func read(_ url: URL) throws(StoreError) -> (Data, StoreFileGeneration) {
        var fd: Int32
        repeat { fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw StoreError(.fileSystem, "cannot read \(url.path): \(String(cString: strerror(errno)))") }
        let generation = StoreFileGeneration(adopting: fd)
        // Read into a buffer of the file's size (plus one byte, to see the end without growing).
        var data = Data(count: Int(max(generation.size, 0)) + 1)
        var filled = 0
        while true {
            if filled == data.count { data.count += max(data.count, 1 << 16) }
            let n = data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.read(fd, base + filled, buffer.count - filled)
            }
            if n > 0 {
                filled += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                throw StoreError(.fileSystem, "cannot read \(url.path): \(String(cString: strerror(errno)))")
            }
        }
        data.count = filled
        return (data, generation)
    }
}
