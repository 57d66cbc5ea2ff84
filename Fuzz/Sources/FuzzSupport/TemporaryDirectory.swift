import Foundation

/// The one directory a harness writes to: made under `$TMPDIR` when first needed, emptied by
/// each input that writes (``file(named:contents:)`` then ``clear()``), removed when the process
/// exits normally. `Fuzz/run-ci` also points `TMPDIR` at a directory of its own and removes it.
public enum FuzzTemporaryDirectory {
    nonisolated(unsafe) private static var made: URL?

    /// The directory, made on first use.
    public static var url: URL {
        if let made { return made }
        let base = FileManager.default.temporaryDirectory
        let url = base.appendingPathComponent("sift-fuzz-\(getpid())-\(UInt32.random(in: 0 ... .max))", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot make the fuzzer's temporary directory \(url.path): \(error)")
        }
        made = url
        atexit { FuzzTemporaryDirectory.removeAll() }
        return url
    }

    /// Writes `contents` to a file in the directory and returns its URL (with plain `write`:
    /// `Data.write(to:)` syncs the file to disk, which would make the harness a hundred times
    /// slower).
    public static func file(named name: String, contents: UnsafeBufferPointer<UInt8>) -> URL {
        let file = url.appendingPathComponent(name)
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { fatalError("cannot write \(file.path): errno \(errno)") }
        defer { close(descriptor) }
        var offset = 0
        while offset < contents.count {
            let written = write(descriptor, contents.baseAddress! + offset, contents.count - offset)
            guard written > 0 else { fatalError("cannot write \(file.path): errno \(errno)") }
            offset += written
        }
        return file
    }

    /// Removes everything in the directory (the files of one input: a store, its journal, its
    /// lock file).
    public static func clear() {
        guard let made, let names = try? FileManager.default.contentsOfDirectory(atPath: made.path) else { return }
        for name in names { try? FileManager.default.removeItem(at: made.appendingPathComponent(name)) }
    }

    static func removeAll() {
        guard let made else { return }
        try? FileManager.default.removeItem(at: made)
    }
}
