import Foundation

/// What a store file is: its extension says (`.sqlite`, `.sqlite3`, `.db`: SQLite; `.json`;
/// `.plist`: binary property list), and when the extension says nothing (none, or one Sift
/// does not know), the file's first bytes do: `SQLite format 3\0` is SQLite, `bplist00` a
/// binary property list, and `{` (after whitespace) JSON.
///
///     StoreFileKind.of(URL(fileURLWithPath: "data"))   // .sqlite, for a SQLite database
///
/// A file that does not exist, or whose bytes are none of these, has no kind (nil): a new
/// store's kind always comes from its extension.
public enum StoreFileKind: String, Sendable, CaseIterable {
    case sqlite
    case json
    case binaryPropertyList

    /// The kind the extension (without the dot, any case) names, or nil.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "sqlite", "sqlite3", "db": self = .sqlite
        case "json": self = .json
        case "plist": self = .binaryPropertyList
        default: return nil
        }
    }

    /// The kind the first bytes of a file show, or nil.
    public init?(header: some Collection<UInt8>) {
        if header.starts(with: Self.sqliteHeader) {
            self = .sqlite
        } else if header.starts(with: Self.binaryPropertyListHeader) {
            self = .binaryPropertyList
        } else if header.first(where: { !Self.isWhitespace($0) }) == UInt8(ascii: "{") {
            self = .json
        } else {
            return nil
        }
    }

    /// The kind of the file at `url`: by its extension, else (an existing file) by its first bytes.
    public static func of(_ url: URL) -> StoreFileKind? {
        if let kind = StoreFileKind(fileExtension: url.pathExtension) { return kind }
        return headerKind(of: url)
    }

    /// The kind the first bytes of the file at `url` show; nil when it cannot be read.
    public static func headerKind(of url: URL) -> StoreFileKind? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: headerLength) else { return nil }
        return StoreFileKind(header: head)
    }

    /// SQLite's file header: "SQLite format 3" and a zero byte.
    static let sqliteHeader: [UInt8] = Array("SQLite format 3".utf8) + [0]
    static let binaryPropertyListHeader: [UInt8] = Array("bplist00".utf8)
    /// How many bytes are read to tell: the headers, and leading whitespace before a JSON `{`.
    static let headerLength = 4096

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
