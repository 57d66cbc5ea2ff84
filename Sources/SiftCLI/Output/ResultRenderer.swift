import Sift

/// One result of `sift filter`: the record's value, its 0-based position in the input, and its
/// JSON text as written in the input (kept only for the formats that print it). A result Sift
/// wrote itself (`sift query`'s objects) may carry its compact text alone.
struct Match {
    private let knownValue: Value?
    let position: Int
    let text: [UInt8]
    /// Whether `text` is known to be one line (compact JSON Sift wrote), so that jsonl prints
    /// it without looking for line breaks.
    let textIsOneLine: Bool

    init(value: Value, position: Int, text: [UInt8], textIsOneLine: Bool = false) {
        knownValue = value
        self.position = position
        self.text = text
        self.textIsOneLine = textIsOneLine
    }

    /// A result known by its compact JSON text alone (for the formats that print text: json,
    /// jsonl); its value is read from the text if a renderer asks for it.
    init(compactText: [UInt8], position: Int) {
        knownValue = nil
        self.position = position
        text = compactText
        textIsOneLine = true
    }

    var value: Value { knownValue ?? ((try? JSONParser.parse(text)) ?? .null) }
}

/// A section of results (`--section-by`).
struct MatchSection {
    let name: String
    let indexTitle: String
    let matches: [Match]
}

/// Prints results in one `--output` format.
///
/// Unsectioned results arrive one at a time in result order (``write(_:)``), then ``finish()``;
/// formats that need every result first (table, csv) keep them until then. Sectioned results
/// arrive all at once (``writeSections(_:)``), or a section at a time as a store reads them
/// (``sectionStream()``). When an error stops the results midway,
/// ``abandon()`` ends what was printed so that it stays well-formed.
protocol ResultRenderer {
    mutating func write(_ match: Match)
    mutating func finish()
    mutating func writeSections(_ sections: [MatchSection])
    /// Where sections can be written as they come: formats that print each result as it comes
    /// (json, jsonl) print them at once; the others collect them for ``writeSections(_:)``.
    func sectionStream() -> any SectionStream
    /// An error stopped the results: close what is open (a JSON array whose first results were
    /// printed), so standard output is valid JSON; print nothing more otherwise.
    mutating func abandon()
}

extension ResultRenderer {
    /// Formats whose every printed line is whole (jsonl), or that print nothing until the end
    /// (table, csv), have nothing to close.
    mutating func abandon() {}

    func sectionStream() -> any SectionStream { CollectedSections(self) }
}

/// The line before each section's rows in the line-oriented formats (jsonl, table, csv):
/// `# section "Name": 3 objects`.
enum SectionHeading {
    static func line(_ section: MatchSection) -> String {
        line(name: section.name, count: section.matches.count)
    }

    /// The line for a section of `count` results named `name`.
    static func line(name: String, count: Int) -> String {
        var quoted: [UInt8] = []
        JSONWriter.writeString(name, to: &quoted)
        return "# section \(String(decoding: quoted, as: UTF8.self)): \(count) object\(count == 1 ? "" : "s")"
    }
}
