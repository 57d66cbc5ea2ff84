import Foundation
import SiftSQL
import SiftSQLStore

/// What a SQLite database file holds, as far as it can be told without reading it through
/// SQLite: which file it is (device and inode, path), its size and modification time, the change
/// counter in its header (offset 24, which SQLite raises with every transaction in rollback-journal
/// mode), and in WAL mode its write-ahead log's state. Two equal identities are the same
/// contents; any committed change makes another. ``ForeignTypeCache`` keys the column types it
/// keeps on it.
///
/// In WAL mode a commit appends frames to the `-wal` file and leaves the database file — its
/// change counter included — alone until a checkpoint copies them back. The log's state is its
/// header (page size, checkpoint sequence, salts) and the last frame of the current generation:
/// frames are written in order from the first after each reset, which changes the salts, so the
/// frames carrying the header's salts are a prefix of the file, found by halving. That frame's
/// header ends with the running checksum of every frame before it, so it stands for them all.
struct DatabaseFileIdentity: Encodable, Equatable, Sendable {
    var path: String
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedNanoseconds: Int64
    var changeCounter: UInt32
    /// The write-ahead log's state (hex), nil without one (or an empty one).
    var log: String?

    /// The identity of the database file at `path`; nil when it cannot be read.
    init?(path: String) {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var status = stat()
        guard stat(absolute, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.path = absolute
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modifiedNanoseconds = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        guard let file = ReadOnlyFile(absolute), let header = file.read(at: 0, count: 100), header.count == 100,
              header.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        changeCounter = Self.bigEndian32(header, at: 24)
        log = Self.logState(absolute + "-wal")
    }

    /// The state of the write-ahead log at `path`: its header and the last frame of its current
    /// generation (their bytes, and the frame's number), as hex; nil when there is no log or no
    /// frame.
    private static func logState(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_size >= 32, let file = ReadOnlyFile(path),
              let header = file.read(at: 0, count: 32), header.count == 32 else { return nil }
        let magic = bigEndian32(header, at: 0)
        guard magic == 0x377F_0682 || magic == 0x377F_0683 else { return nil }
        let pageSize = Int64(bigEndian32(header, at: 8))
        guard pageSize >= 512 else { return nil }
        let frameSize = 24 + pageSize
        let frames = (Int64(status.st_size) - 32) / frameSize
        let salts = Array(header[16..<24])
        func frameHeader(_ number: Int64) -> [UInt8]? {
            guard let bytes = file.read(at: 32 + (number - 1) * frameSize, count: 24), bytes.count == 24 else { return nil }
            return bytes
        }
        func isCurrent(_ number: Int64) -> Bool { frameHeader(number).map { Array($0[8..<16]) == salts } ?? false }
        // The last frame carrying the header's salts (0: none).
        var low: Int64 = 0, high = frames
        while low < high {
            let middle = low + (high - low + 1) / 2
            if isCurrent(middle) { low = middle } else { high = middle - 1 }
        }
        guard low > 0, let last = frameHeader(low) else { return nil }
        return hex(header) + "/\(low)/" + hex(last)
    }

    /// A file open for reading, closed when it goes.
    private final class ReadOnlyFile {
        let descriptor: Int32

        init?(_ path: String) {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
        }

        deinit { close(descriptor) }

        func read(at offset: Int64, count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            guard read >= 0 else { return nil }
            return Array(bytes[0..<read])
        }
    }

    private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
