import Sift

/// `.mode jsonl`: one record a line, as `sift query --output jsonl` prints it; a
/// `# section "Name": 2 objects` line before each section's records.
struct JSONLinesRecordRenderer: RecordRenderer {
    let context: RenderContext

    init(context: RenderContext) { self.context = context }

    mutating func beginSection(_ section: RecordSection) {
        context.output.write(SectionHeading.line(name: section.name, count: section.count) + "\n")
    }

    mutating func write(_ record: Value) {
        var text: [UInt8] = []
        JSONWriter.write(record, to: &text)
        text.append(0x0A)
        context.output.write(text)
        context.output.endOfResult()
    }

    mutating func finish() {}
}
