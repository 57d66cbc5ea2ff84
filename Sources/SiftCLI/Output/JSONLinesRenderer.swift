/// `--output jsonl`: ``JSONLinesWriter``, each record as written in the input (put on one
/// line); sections print as they come.
struct JSONLinesRenderer: ResultRenderer {
    private var lines: JSONLinesWriter

    init(output: StandardOutput) { lines = JSONLinesWriter(output: output) }

    mutating func write(_ match: Match) { lines.write(match) }

    mutating func finish() {}

    func sectionStream() -> any SectionStream { JSONLinesWriter(output: lines.output) }

    mutating func writeSections(_ sections: [MatchSection]) { lines.write(sections) }
}
