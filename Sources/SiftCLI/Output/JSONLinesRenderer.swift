import Sift

/// `--output jsonl`: one record per line, as written in the input. A record written over
/// several lines (an element of a pretty-printed array) has its whitespace between tokens
/// removed, so it stays one line and keeps its spelling. With sections, a `# section` line
/// comes before each section's records.
struct JSONLinesRenderer: ResultRenderer {
    let output: StandardOutput

    init(output: StandardOutput) { self.output = output }

    mutating func write(_ match: Match) {
        output.write(!match.textIsOneLine && JSONCompaction.containsLineBreak(match.text) ? JSONCompaction.compacted(match.text) : match.text)
        output.write(byte: 0x0A)
        output.endOfResult()
    }

    mutating func finish() {}

    func sectionStream() -> any SectionStream { JSONLinesSectionStream(output: output) }

    mutating func writeSections(_ sections: [MatchSection]) {
        for section in sections {
            output.write(SectionHeading.line(section) + "\n")
            for match in section.matches { write(match) }
        }
    }
}
