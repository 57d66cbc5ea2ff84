import Foundation
import SiftEvaluation

/// The formats of import data (docs/IMPORT.md): a JSON object of entities' rows, JSON Lines,
/// or a CSV table of one entity. A file's extension names its format; data without one
/// (standard input) is told by its content (``init(content:)``).
public enum ImportFormat: String, Sendable, CaseIterable {
    case json
    case jsonLines = "jsonl"
    case csv

    /// `.json`, `.jsonl` or `.ndjson`, `.csv` (any case); nil for another extension.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonLines
        case "csv": self = .csv
        default: return nil
        }
    }

    /// The format the start of the data shows (a UTF-8 byte order mark and whitespace skipped):
    /// text not starting with `{` is CSV; a first line that is a whole JSON object is JSON
    /// Lines, unless it maps names to arrays only (the JSON format, written on one line); a
    /// `{` that its line does not close is JSON (pretty-printed).
    /// `content` needs to hold the first line, or all of the data if that is shorter.
    public init(content: some Collection<UInt8>) {
        var bytes = Array(content)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard bytes.first == UInt8(ascii: "{") else {
            self = .csv
            return
        }
        let line = bytes.prefix { $0 != 0x0A }
        guard case .dictionary(let fields)? = try? JSONParser.parse(Data(line)) else {
            self = .json
            return
        }
        let entitiesToRows = fields["@entity"] == nil && fields.count > 0
            && fields.values.allSatisfy { if case .array = $0 { true } else { false } }
        self = entitiesToRows ? .json : .jsonLines
    }
}
