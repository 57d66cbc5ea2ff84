/// `--output indices`: a JSON array of the 0-based input positions of the results, in result
/// order: `[0, 3, 7]`. With sections it is JSON too, shaped as `--output json`'s sections with
/// positions for objects: `{"sections": [{"name", "indexTitle", "numberOfObjects", "objects": [0, 3]}]}`.
///
/// The one format that is the commands' own, not a ``RecordRenderer``: it prints where each
/// result was in the input (``Match/position``), no part of a record, and the REPL's results
/// (a store's objects) have no such place.
struct IndicesRenderer: ResultRenderer {
    let output: StandardOutput
    private var count = 0

    init(output: StandardOutput) { self.output = output }

    mutating func write(_ match: Match) {
        output.write(count == 0 ? "[" : ", ")
        output.write(String(match.position))
        count += 1
    }

    mutating func finish() {
        output.write(count == 0 ? "[]\n" : "]\n")
    }

    mutating func abandon() {
        if count > 0 { finish() }
    }

    mutating func writeSections(_ sections: [MatchSection]) {
        guard !sections.isEmpty else { return output.write("{\"sections\": []}\n") }
        output.write("{\n  \"sections\": [")
        for (i, section) in sections.enumerated() {
            output.write(i == 0 ? "\n" : ",\n")
            output.write("    {\"name\": \(JSONDocumentWriter.string(section.name)), ")
            output.write("\"indexTitle\": \(JSONDocumentWriter.string(section.indexTitle)), ")
            output.write("\"numberOfObjects\": \(section.matches.count), ")
            output.write("\"objects\": [\(section.matches.map { String($0.position) }.joined(separator: ", "))]}")
        }
        output.write("\n  ]\n}\n")
    }
}
