/// `--output json`: ``JSONDocumentWriter``, each record's text as written in the input (or as
/// Sift wrote it, for `sift query`'s objects); sections print as they come.
struct JSONRenderer: ResultRenderer {
    private var document: JSONDocumentWriter

    init(output: StandardOutput) { document = JSONDocumentWriter(output: output, sectioned: false) }

    mutating func write(_ match: Match) { document.write(match) }

    mutating func finish() { document.finish() }

    mutating func abandon() { document.abandon() }

    mutating func writeSections(_ sections: [MatchSection]) {
        var stream = JSONDocumentWriter(output: document.output, sectioned: true)
        stream.write(sections)
    }

    func sectionStream() -> any SectionStream { JSONDocumentWriter(output: document.output, sectioned: true) }
}
