import Sift

/// json for `sift query`, `sift filter` (`--output json`) and the REPL (`.mode json`), each
/// record written as it comes: a JSON array of the records' texts, one a line,
///
///     [
///       {"name": "Ann", "age": 30},
///       {"name": "Bob", "age": 41}
///     ]
///
/// or, for sectioned results, `{"sections": [{"name", "indexTitle", "numberOfObjects",
/// "objects"}]}`. When an error stops the results midway, ``abandon()`` closes what was
/// printed so that standard output is still valid JSON.
struct JSONDocumentWriter: RecordRenderer, SectionStream {
    let output: StandardOutput
    /// Whether the document is `{"sections": […]}` rather than an array.
    let sectioned: Bool
    private var count = 0
    private var sections = 0
    private var inSection = 0

    init(output: StandardOutput, sectioned: Bool) {
        self.output = output
        self.sectioned = sectioned
    }

    /// A section begins: its opening, up to its `"objects": [`.
    mutating func beginSection(_ section: RecordSection) {
        endSection()
        output.write((sections == 0 ? "{\n  \"sections\": [\n" : ",\n")
            + "    {\n      \"name\": \(Self.string(section.name)),\n"
            + "      \"indexTitle\": \(Self.string(section.indexTitle)),\n"
            + "      \"numberOfObjects\": \(section.count),\n"
            + "      \"objects\": [")
        sections += 1
        inSection = 0
    }

    mutating func begin(_ section: RecordSection) { beginSection(section) }

    /// A record as compact JSON.
    mutating func write(_ record: Value) {
        var text: [UInt8] = []
        JSONWriter.write(record, to: &text)
        write(text: text)
    }

    mutating func write(_ match: Match) { write(text: match.text) }

    /// A record's JSON text, as it is.
    mutating func write(text: [UInt8]) {
        if sectioned {
            output.write(inSection == 0 ? "\n        " : ",\n        ")
            inSection += 1
        } else {
            output.write(count == 0 ? "[\n  " : ",\n  ")
        }
        output.write(text)
        output.endOfResult()
        count += 1
    }

    mutating func finish() {
        guard sectioned else { return output.write(count == 0 ? "[]\n" : "\n]\n") }
        guard sections > 0 else { return output.write("{\"sections\": []}\n") }
        endSection()
        output.write("\n  ]\n}\n")
    }

    /// Closes what is open (the array, or the open section and the document), so what was
    /// printed is valid JSON; prints nothing when nothing was printed.
    mutating func abandon() {
        if sectioned ? sections > 0 : count > 0 { finish() }
    }

    /// Closes the open section's objects.
    private func endSection() {
        guard sections > 0 else { return }
        output.write(inSection == 0 ? "]\n    }" : "\n      ]\n    }")
    }

    static func string(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.writeString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
