import Sift

/// `--output csv`: ``CSVWriter`` with the commands' options — the columns are the union of
/// every result's top-level keys, so results are held until the end, unless they are known to
/// have the same keys in the same order (``init(output:sameKeys:)``: the objects of an entity
/// without subentities), when the first result's keys are the header and each row is written
/// as it comes: the same text, in flat memory.
struct CSVRenderer: ResultRenderer {
    private var writer: CSVWriter

    init(output: StandardOutput, sameKeys: Bool = false) {
        var options = RenderOptions.commands
        if sameKeys { options.measuredRecords = 1 }
        writer = CSVWriter(output: output, options: options)
    }

    mutating func write(_ match: Match) { writer.write(match.value) }

    mutating func finish() { writer.finish() }

    mutating func writeSections(_ sections: [MatchSection]) { writer.write(sections) }
}
