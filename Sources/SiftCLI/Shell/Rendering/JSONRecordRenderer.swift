import Sift

/// `.mode json`: a JSON array of the records, one a line, as `sift query --output json`
/// prints it (``JSONRenderer``); sections as `{"sections": [{"name", "indexTitle",
/// "numberOfObjects", "objects"}]}`. Each record is written as it comes.
struct JSONRecordRenderer: RecordRenderer {
    let context: RenderContext
    private var count = 0
    private var sections = 0
    private var inSection = 0

    init(context: RenderContext) { self.context = context }

    mutating func beginSection(_ section: RecordSection) {
        endSection()
        context.output.write(JSONRenderer.sectionOpening(section, first: sections == 0))
        sections += 1
        inSection = 0
    }

    mutating func write(_ record: Value) {
        var text: [UInt8] = []
        JSONWriter.write(record, to: &text)
        if context.sectioned {
            context.output.write(inSection == 0 ? "\n        " : ",\n        ")
            inSection += 1
        } else {
            context.output.write(count == 0 ? "[\n  " : ",\n  ")
        }
        context.output.write(text)
        context.output.endOfResult()
        count += 1
    }

    mutating func finish() {
        guard context.sectioned else { return context.output.write(count == 0 ? "[]\n" : "\n]\n") }
        guard sections > 0 else { return context.output.write("{\"sections\": []}\n") }
        endSection()
        context.output.write("\n  ]\n}\n")
    }

    /// Closes the open section's objects.
    private mutating func endSection() {
        guard sections > 0 else { return }
        context.output.write(inSection == 0 ? "]\n    }" : "\n      ]\n    }")
    }
}
