import Foundation
import Sift

/// A fetch's results in the session's mode: objects, sections, a count or dictionaries, as
/// records `{"@entity", "@id", attributes…, relationships as IDs}`.
struct FetchPrinter {
    let session: Session
    let store: any PersistentStore

    func run(_ request: FetchRequest, paged limit: Int?) throws {
        let output = session.output.results
        var renderer = session.renderer(for: output)
        if request.sectionNameKeyPath != nil && request.resultType == .objects {
            let sectioned = try store.fetchSections(request)
            if let warning = sectioned.warning { session.output.message("warning: \(warning)") }
            var position = 0
            renderer.writeSections(sectioned.sections.map { section in
                MatchSection(name: section.name, indexTitle: section.indexTitle, matches: section.objects.map { object in
                    defer { position += 1 }
                    return StoredObjectJSON.match(StoredObjectJSON.value(of: object), position: position)
                })
            })
            return
        }
        switch try store.execute(request) {
        case .objects(let objects):
            var shown = 0
            for object in objects {
                if let limit, shown == limit {
                    renderer.finish()
                    try printMore(request, shown: shown)
                    return
                }
                renderer.write(StoredObjectJSON.match(StoredObjectJSON.value(of: object), position: shown))
                shown += 1
            }
        case .dictionaries(let rows):
            for (i, row) in rows.enumerated() { renderer.write(StoredObjectJSON.match(StoredObjectJSON.value(of: row), position: i)) }
        case .objectIDs(let ids):
            for (i, id) in ids.enumerated() {
                renderer.write(StoredObjectJSON.match(.dictionary(ValueDictionary([("@id", .string(id.rawValue))])), position: i))
            }
        case .count(let n):
            if session.settings.mode == .json {
                session.output.write("{\"count\": \(n)}\n")
                return
            }
            renderer.write(StoredObjectJSON.match(.dictionary(ValueDictionary([("count", .int(Int64(n)))])), position: 0))
        }
        renderer.finish()
    }

    /// `… 120 more rows (.limit 0 shows all)` after a page of a bare predicate's results.
    private func printMore(_ request: FetchRequest, shown: Int) throws {
        var all = request
        all.fetchLimit = 0
        let total = try store.count(all)
        let more = total - shown
        guard more > 0 else { return }
        session.output.write("… \(more) more row\(more == 1 ? "" : "s") (.limit 0 shows all)\n")
    }
}

extension Session {
    /// The renderer for the session's mode.
    func renderer(for output: StandardOutput) -> any ResultRenderer {
        switch settings.mode {
        case .json: JSONRenderer(output: output)
        case .jsonl: JSONLinesRenderer(output: output)
        case .csv: CSVRenderer(output: output)
        case .table, .box, .line, .markdown: TableRenderer(output: output)
        }
    }
}
