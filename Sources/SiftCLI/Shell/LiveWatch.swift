import Foundation
import Sift

/// `.watch STATEMENT`: a fetch's results kept on screen and drawn again each time the store
/// changes them (a save in this session, another process's commit), until Ctrl-C returns to the
/// prompt. Each drawing has a first column `±` marking the rows the last change inserted (`+`),
/// updated (`*`) or moved (`>`); on a terminal the screen is cleared before each drawing and
/// the marked rows are coloured too (green, yellow, cyan; not under `NO_COLOR`).
final class LiveWatch: LiveFetchControllerDelegate, @unchecked Sendable {
    /// The marker column's heading.
    static let markerHeading = "±"
    private let session: Session
    private let store: any PersistentStore
    private let request: FetchRequest
    private let model: DataModel
    private let objectOutput: ObjectOutput
    private let colours: Bool
    private let lock = NSLock()
    private var drawings = 0
    private var stopped = false

    init(session: Session, store: any PersistentStore, request: FetchRequest) throws {
        var request = request
        if request.fetchBatchSize == 0 { request.fetchBatchSize = FetchPrinter.batchSize }
        var objectOutput = ObjectOutput(relationships: session.settings.relationships)
        model = StoreModels.outline(of: store)
        if session.settings.mode.showsToOneKeys { objectOutput.toOneKeys = ToOneKeys(store: store) }
        try objectOutput.prepare(&request, model: model, store: store)
        self.session = session
        self.store = store
        self.request = request
        self.objectOutput = objectOutput
        colours = session.renderContext(sectioned: false).style.isEnabled
    }

    /// Runs the watch: draws the results, then again at each change, until `waitForEnd`
    /// returns (Ctrl-C).
    func run(waitingFor waitForEnd: () -> Void) throws {
        let controller = try LiveFetchController(store: store, request: request)
        controller.delegate = self
        try controller.performFetch(reportingTheResult: true)
        waitForEnd()
        controller.stopFollowing()
        lock.lock(); stopped = true; lock.unlock()
        // (The prompt on a line of its own, after the terminal's `^C`.)
        session.output.write("\n")
        session.output.flush()
        if let error = controller.lastError { throw error }
    }

    func controller(_ controller: LiveFetchController, didChange changes: ResultsChangeSet) {
        lock.lock(); defer { lock.unlock() }
        guard !stopped else { return }
        drawings += 1
        draw(controller.sections, changes: changes, first: drawings == 1)
    }

    /// The marks of a change set's rows, by their new index paths.
    static func marks(_ changes: ResultsChangeSet, first: Bool) -> [ResultIndexPath: String] {
        guard !first else { return [:] }
        var marks: [ResultIndexPath: String] = [:]
        for change in changes.inserts { if let place = change.newIndexPath { marks[place] = "+" } }
        for change in changes.moves { if let place = change.newIndexPath { marks[place] = ">" } }
        for change in changes.updates { if let place = change.newIndexPath { marks[place] = "*" } }
        return marks
    }

    /// What the status line after a drawing says of the change.
    static func summary(_ changes: ResultsChangeSet, first: Bool) -> String {
        guard !first else { return "watching" }
        let parts = [("inserted", changes.inserts.count), ("deleted", changes.deletes.count), ("moved", changes.moves.count),
                     ("updated", changes.updates.count), ("sections inserted", changes.sectionInserts.count),
                     ("sections deleted", changes.sectionDeletes.count)]
            .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        return "changed: " + (parts.isEmpty ? "nothing shown" : parts.joined(separator: ", "))
    }

    private func draw(_ sections: [FetchedSection], changes: ResultsChangeSet, first: Bool) {
        let marks = Self.marks(changes, first: first)
        var text = ""
        let collected = StandardOutput(collector: { text += $0 })
        let shape = session.renderContext(sectioned: request.sectionNameKeyPath != nil)
        let context = RenderContext(output: collected, mode: shape.mode, options: shape.options, expanded: shape.expanded,
                                    terminalWidth: shape.terminalWidth, style: .plain, sectioned: shape.sectioned)
        var renderer = context.makeRenderer()
        do {
            for (s, section) in sections.enumerated() {
                if request.sectionNameKeyPath != nil {
                    renderer.beginSection(RecordSection(name: section.name, indexTitle: section.indexTitle, count: section.numberOfObjects))
                }
                var row = 0
                try section.objects.forEachObject { object in
                    let mark = marks[ResultIndexPath(section: s, row: row)] ?? ""
                    row += 1
                    renderer.write(Self.marked(objectOutput.value(of: object, model: model), mark))
                }
            }
        } catch {
            text += "error: \(ErrorText.message(of: error))\n"
        }
        renderer.finish()
        collected.flush()
        var screen = colours ? "\u{1B}[H\u{1B}[2J" : (first ? "" : "\n")
        screen += colours ? Self.coloured(text) : text
        screen += "-- \(Self.summary(changes, first: first)) (± + inserted, * updated, > moved; Ctrl-C returns to the prompt)\n"
        session.output.write(screen)
        session.output.flush()
    }

    /// `record` with the marker column first.
    static func marked(_ record: Value, _ mark: String) -> Value {
        guard case .dictionary(let fields) = record else { return record }
        return .dictionary(ValueDictionary([(markerHeading, .string(mark))] + Array(zip(fields.keys, fields.values))))
    }

    /// The lines of a table, box or markdown drawing whose first cell is a mark, coloured.
    static func coloured(_ text: String) -> String {
        let colours: [Character: String] = ["+": "32", "*": "33", ">": "36"]
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var cells = Substring(line)
            if let first = cells.first, first == "│" || first == "|" { cells = cells.dropFirst().drop { $0 == " " } }
            if let mark = cells.first, let colour = colours[mark], cells.dropFirst().first == " " {
                lines.append("\u{1B}[\(colour)m" + line + "\u{1B}[0m")
            } else {
                lines.append(String(line))
            }
        }
        return lines.joined(separator: "\n")
    }
}
