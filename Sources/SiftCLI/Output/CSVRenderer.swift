import Foundation
import Sift

/// `--output csv`: RFC 4180 — a header row of the columns (the union of the results'
/// top-level keys, first seen first), one row per result, CRLF line ends, and a field quoted
/// (with `"` doubled) when it has a comma, a quote, CR or LF. With sections, a `# section`
/// line and a header row come before each section's rows.
struct CSVRenderer: ResultRenderer {
    let output: StandardOutput
    private var matches: [Match] = []

    init(output: StandardOutput) { self.output = output }

    mutating func write(_ match: Match) {
        matches.append(match)
    }

    mutating func finish() {
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
