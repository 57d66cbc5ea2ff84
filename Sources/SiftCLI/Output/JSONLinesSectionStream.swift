/// `--output jsonl` sections as they come: a `# section` line, then the section's records,
/// one a line (as ``JSONLinesRenderer/writeSections(_:)`` writes them).
struct JSONLinesSectionStream: SectionStream {
    private var lines: JSONLinesRenderer

    init(output: StandardOutput) { lines = JSONLinesRenderer(output: output) }

    mutating func begin(_ section: RecordSection) {
        lines.output.write(SectionHeading.line(name: section.name, count: section.count) + "\n")
    }

    mutating func write(_ match: Match) {
        lines.write(match)
    }

    mutating func finish() {}

    /// Every printed line is whole.
    mutating func abandon() {}
}
