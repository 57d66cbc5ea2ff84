import Sift

/// `--output json`: a JSON array of the records' input texts, one per line:
///
///     [
///       {"name": "Ann", "age": 30},
///       {"name": "Bob", "age": 41}
///     ]
///
/// With sections: `{"sections": [{"name", "indexTitle", "numberOfObjects", "objects"}]}`.
struct JSONRenderer: ResultRenderer {
    let output: StandardOutput
    private var count = 0

    init(output: StandardOutput) { self.output = output }

    mutating func write(_ match: Match) {
        output.write(count == 0 ? "[\n  " : ",\n  ")
        output.write(match.text)
        output.endOfResult()
        count += 1
    }

    mutating func finish() {
        output.write(count == 0 ? "[]\n" : "\n]\n")
    }

    mutating func abandon() {
        if count > 0 { finish() }
    }

    /// A streamed section's opening, up to its `"objects": [` (after the document's opening
    /// for the `first` section, after the previous section's `,` otherwise): the text
    /// ``writeSections(_:)`` writes for it, shared by `sift query` and the REPL's `.mode json`.
    static func sectionOpening(_ section: RecordSection, first: Bool) -> String {
        (first ? "{\n  \"sections\": [\n" : ",\n")
            + "    {\n      \"name\": \(string(section.name)),\n"
            + "      \"indexTitle\": \(string(section.indexTitle)),\n"
            + "      \"numberOfObjects\": \(section.count),\n"
            + "      \"objects\": ["
    }

    mutating func writeSections(_ sections: [MatchSection]) {
        guard !sections.isEmpty else { return output.write("{\"sections\": []}\n") }
        output.write("{\n  \"sections\": [")
        for (i, section) in sections.enumerated() {
            output.write(i == 0 ? "\n" : ",\n")
            output.write("    {\n      \"name\": \(Self.string(section.name)),\n")
            output.write("      \"indexTitle\": \(Self.string(section.indexTitle)),\n")
            output.write("      \"numberOfObjects\": \(section.matches.count),\n")
            output.write("      \"objects\": [")
            for (j, match) in section.matches.enumerated() {
                output.write(j == 0 ? "\n        " : ",\n        ")
                output.write(match.text)
            }
            output.write(section.matches.isEmpty ? "]\n    }" : "\n      ]\n    }")
        }
        output.write("\n  ]\n}\n")
    }

    func sectionStream() -> any SectionStream { JSONSectionStream(output: output) }

    static func string(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.writeString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
