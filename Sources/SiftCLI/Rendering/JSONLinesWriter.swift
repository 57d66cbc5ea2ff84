import Sift

/// jsonl for `sift query`, `sift filter` (`--output jsonl`) and the REPL (`.mode jsonl`): one
/// record a line, a `# section "Name": 2 objects` line before each section's records. A
/// record's text written over several lines (an element of a pretty-printed array) has its
/// whitespace between tokens removed, so it stays one line and keeps its spelling. Every
/// printed line is whole, so there is nothing to close when an error stops the results.
struct JSONLinesWriter: RecordRenderer, SectionStream {
    let output: StandardOutput

    init(output: StandardOutput) { self.output = output }

    mutating func beginSection(_ section: RecordSection) {
        output.write(SectionHeading.line(name: section.name, count: section.count) + "\n")
    }

    mutating func begin(_ section: RecordSection) { beginSection(section) }

    /// A record as compact JSON (one line).
    mutating func write(_ record: Value) {
        var text: [UInt8] = []
        JSONWriter.write(record, to: &text)
        write(text: text, isOneLine: true)
    }

    mutating func write(_ match: Match) {
        write(text: match.text, isOneLine: match.textIsOneLine)
    }

    /// A record's JSON text (`isOneLine`: known to have no line break, so it is not searched).
    mutating func write(text: [UInt8], isOneLine: Bool) {
        output.write(!isOneLine && JSONCompaction.containsLineBreak(text) ? JSONCompaction.compacted(text) : text)
        output.write(byte: 0x0A)
        output.endOfResult()
    }

    mutating func finish() {}

    mutating func abandon() {}
}
