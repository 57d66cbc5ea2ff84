import Foundation
import Sift

/// `--output csv`: RFC 4180 — a header row of the columns (the union of the results'
/// top-level keys, first seen first), one row per result, CRLF line ends, and a field quoted
/// (with `"` doubled) when it has a comma, a quote, CR or LF. With sections, a `# section`
/// line and a header row come before each section's rows.
///
/// The union needs every result, so results are held until the end — unless they are known to
/// have the same keys in the same order (``init(output:sameKeys:)``: the objects of an entity
/// without subentities), when the first result's keys are the header and each row is written as
/// it comes: the same text, in flat memory.
struct CSVRenderer: ResultRenderer {
    let output: StandardOutput
    /// Whether every result has the first one's keys, in its order.
    let sameKeys: Bool
    private var matches: [Match] = []
    /// The columns, once the first result has set them (`sameKeys`).
    private var streamedColumns: Columns?

    init(output: StandardOutput, sameKeys: Bool = false) {
        self.output = output
        self.sameKeys = sameKeys
    }

    mutating func write(_ match: Match) {
        guard sameKeys else { return matches.append(match) }
        let columns = streamedColumns ?? Columns(CollectionOfOne(match.value))
        if streamedColumns == nil {
            streamedColumns = columns
            output.write(Self.record(columns.names))
        }
        output.write(Self.record(columns.names.map { CellText.text(columns.cell(match.value, $0)) }))
        output.endOfResult()
    }

    mutating func finish() {
        guard !sameKeys else { return }
        render(matches, Columns(matches.lazy.map(\.value)))
    }

    mutating func writeSections(_ sections: [MatchSection]) {
        let columns = Columns(sections.lazy.flatMap(\.matches).map(\.value))
        for section in sections {
            output.write(SectionHeading.line(section) + "\r\n")
            render(section.matches, columns)
        }
    }

    private func render(_ matches: [Match], _ columns: Columns) {
        guard !columns.names.isEmpty else { return }
        output.write(Self.record(columns.names))
        for match in matches {
            output.write(Self.record(columns.names.map { CellText.text(columns.cell(match.value, $0)) }))
        }
    }

    static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D })
        else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
