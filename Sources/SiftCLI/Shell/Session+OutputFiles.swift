import Foundation

/// `.output FILE` and `.once FILE` write their file anew: on the open store (or its journal,
/// write-ahead log or lock beside it) that would destroy the store, so such a file is refused.
/// Files are compared by identity (device and inode, after symbolic links), so another path
/// to the same file (`./notes.sqlite`, a link, a hard link) is refused too.
extension Session {
    /// Throws when results written to `path` would overwrite a file the open store is made of.
    func refuseOutputOverStore(_ path: String) throws {
        guard store != nil, let target = Self.fileIdentity(path) else { return }
        let storePath = storeLabel
        for (file, what) in [(storePath, "the open store"), (storePath + "-wal", "the open store's write-ahead log"),
                             (storePath + "-shm", "the open store's shared memory"), (storePath + "-journal", "the open store's journal"),
                             (storePath + ".lock", "the open store's lock")] where Self.fileIdentity(file) == target {
            throw SessionError("\(path) is \(what) (\(storePath)): writing results there would destroy the store; choose another file")
        }
    }

    /// The device and inode of the file at `path` (after symbolic links), or nil where there
    /// is no such file.
    private static func fileIdentity(_ path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}
