import Foundation
import Sift

/// A fetch's results in the session's mode: objects, sections, a count or dictionaries, as
/// records `{"@entity", "@id", attributes…, relationships}` (as `.relationships` says:
/// ``ObjectOutput``; in table, box, line and markdown modes a to-one relationship of a database
/// Sift did not create shows its destination's key: ``ToOneKeys``), handed to the mode's
/// ``RecordRenderer`` one at a time as the store reads them, so the first rows of a long fetch
/// show before the rest is read.
struct FetchPrinter {
    let session: Session
    let store: any PersistentStore

    /// How many objects the store reads at a time when the request does not say
    /// (`fetchBatchSize` 0 would read them all before the first is printed).
    static let batchSize = 100

    func run(_ request: FetchRequest, paged limit: Int?) throws {
        var request = request
        if request.fetchBatchSize == 0 { request.fetchBatchSize = Self.batchSize }
        var objectOutput = ObjectOutput(relationships: session.settings.relationships)
        let model = StoreModels.outline(of: store)
        if session.settings.mode.showsToOneKeys { objectOutput.toOneKeys = ToOneKeys(store: store) }
        try objectOutput.prepare(&request, model: model, store: store)
        let sectioned = request.sectionNameKeyPath != nil && request.resultType == .objects
        var renderer = session.renderContext(sectioned: sectioned).makeRenderer()
        // A store that fails while its objects are read (a damaged file) stops the results:
        // what was printed is ended as the mode ends results, then the error is reported.
        func reading(_ body: () throws -> Void) throws {
            do {
                try body()
            } catch {
                renderer.finish()
                throw error
            }
        }
        if sectioned {
            let results = try store.fetchSections(request)
            if let warning = results.warning { session.output.message("warning: \(warning)") }
            try reading {
                for section in results.sections {
                    renderer.beginSection(RecordSection(name: section.name, indexTitle: section.indexTitle, count: section.numberOfObjects))
                    try section.objects.forEachObject { renderer.write(objectOutput.value(of: $0, model: model)) }
                }
            }
            renderer.finish()
            return
        }
        switch try store.execute(request) {
        case .objects(let objects):
            var shown = 0
            var more = false
            try reading {
                do {
                    try objects.forEachObject { object in
                        if let limit, shown == limit { throw PageFull() }
                        renderer.write(objectOutput.value(of: object, model: model))
                        shown += 1
                    }
                } catch is PageFull {
                    more = true
                }
            }
            if more {
                renderer.finish()
                try printMore(request, shown: shown)
                return
            }
        case .dictionaries(let rows):
            for row in rows { renderer.write(StoredObjectJSON.value(of: row)) }
        case .objectIDs(let ids):
            for id in ids { renderer.write(.dictionary(ValueDictionary([("@id", .string(id.rawValue))]))) }
        case .count(let n):
            if session.settings.mode == .json {
                session.output.write("{\"count\": \(n)}\n")
                return
            }
            renderer.write(.dictionary(ValueDictionary([("count", .int(Int64(n)))])))
        }
        renderer.finish()
    }

    /// `… 120 more rows (.limit 0 shows all)` after a page of a bare predicate's results: with
    /// the results in table, box, line and markdown modes; a message (standard error) in json,
    /// jsonl and csv modes, so their output stays JSON or CSV.
    private func printMore(_ request: FetchRequest, shown: Int) throws {
        var all = request
        all.fetchLimit = 0
        let total = try store.count(all)
        let more = total - shown
        guard more > 0 else { return }
        let line = "… \(more) more row\(more == 1 ? "" : "s") (.limit 0 shows all)"
        switch session.settings.mode {
        case .json, .jsonl, .csv: session.output.message(line)
        case .table, .box, .line, .markdown: session.output.write(line + "\n")
        }
    }
}

/// Ends reading a page of results once it is full.
private struct PageFull: Error {}
