/// `--output json` sections as they come, the text ``JSONRenderer/writeSections(_:)`` writes:
/// `{"sections": [{"name", "indexTitle", "numberOfObjects", "objects": […]}, …]}`.
struct JSONSectionStream: SectionStream {
    let output: StandardOutput
    private var sections = 0
    private var inSection = 0

    init(output: StandardOutput) { self.output = output }

    mutating func begin(_ section: RecordSection) {
        endSection()
        output.write(JSONRenderer.sectionOpening(section, first: sections == 0))
        sections += 1
        inSection = 0
    }

    mutating func write(_ match: Match) {
        output.write(inSection == 0 ? "\n        " : ",\n        ")
        output.write(match.text)
        output.endOfResult()
        inSection += 1
    }

    mutating func finish() {
        guard sections > 0 else { return output.write("{\"sections\": []}\n") }
        endSection()
        output.write("\n  ]\n}\n")
    }

    /// Closes the open section and the document, so what was printed is valid JSON.
    mutating func abandon() {
        if sections > 0 { finish() }
    }

    /// Closes the open section's objects.
    private func endSection() {
        guard sections > 0 else { return }
        output.write(inSection == 0 ? "]\n    }" : "\n      ]\n    }")
    }
}
