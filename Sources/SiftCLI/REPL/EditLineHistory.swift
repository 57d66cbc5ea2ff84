import CEditLine
import Foundation

/// The REPL's history, kept by libedit and persisted across sessions in a file libedit reads
/// and writes (`$XDG_STATE_HOME/sift/history`, else `~/.local/state/sift/history`).
///
/// Each entry is one statement or dot command on one line (a statement written over several
/// lines is kept with spaces between them, so Up brings it back whole). The newest
/// ``capacity`` entries are kept; an entry equal to the one before it is not added twice.
/// The file is written after every entry, so a session that is killed loses nothing, and its
/// folder is made when missing. A file that cannot be read or written leaves the history in
/// memory only.
final class EditLineHistory {
    /// How many entries are kept (the oldest go first).
    static let capacity = 1_000

    /// libedit's history, for the editor's Up, Down and Ctrl-R.
    let handle: OpaquePointer
    /// The file the history is read from and written to; nil: memory only.
    let path: String?

    /// The history of `path` (nil: memory only), read now.
    init?(path: String?, capacity: Int = EditLineHistory.capacity) {
        guard let handle = history_init() else { return nil }
        self.handle = handle
        self.path = path
        sift_history_set_size(handle, Int32(capacity))
        sift_history_set_unique(handle, 1)
        if let path, FileManager.default.fileExists(atPath: path) {
            _ = sift_history_load(handle, path)
        }
    }

    deinit {
        history_end(handle)
    }

    /// Adds an entry and writes the file.
    func add(_ entry: String) {
        let line = Self.oneLine(entry)
        guard !line.isEmpty else { return }
        sift_history_enter(handle, line)
        save()
    }

    /// Writes every entry to the file, making its folder when missing.
    func save() {
        guard let path else { return }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        _ = sift_history_save(handle, path)
    }

    /// The entries, oldest first.
    var entries: [String] {
        final class Collected { var entries: [String] = [] }
        let collected = Collected()
        withExtendedLifetime(collected) {
            sift_history_each(handle, Unmanaged.passUnretained(collected).toOpaque()) { context, entry in
                guard let context, let entry else { return }
                Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().entries.append(String(cString: entry))
            }
        }
        return collected.entries
    }

    /// An entry as history keeps it: its lines joined with spaces, without surrounding spaces.
    static func oneLine(_ entry: String) -> String {
        entry.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The history file: `$XDG_STATE_HOME/sift/history` when that is an absolute path, else
    /// `$HOME/.local/state/sift/history`; nil without a home folder.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return (state as NSString).appendingPathComponent("sift/history")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".local/state/sift/history")
    }
}
