import Sift

/// `sift query`'s sectioned results, printed as the store reads them: each section's heading
/// from its name and size, then its objects a batch at a time (the fetch's `fetchBatchSize`),
/// each written before the next is read — so memory stays flat however many objects there are.
enum FetchedSectionsPrinter {
    /// Writes `results` to `renderer`'s section stream, each object as `value(object)` gives it
    /// (ObjectOutput's choice of properties and relationships). A store that fails midway (a
    /// damaged file) throws after the objects before it, with what was printed closed.
    static func print(_ results: SectionedFetchResults, to renderer: any ResultRenderer,
                      value: (ManagedObject) throws -> Value) throws {
        try print(results, to: renderer) { object, position in StoredObjectJSON.match(try value(object), position: position) }
    }

    /// Writes `results` to `renderer`'s section stream, each object as the result
    /// `match(object, position)` makes of it (its text written straight from its values, for
    /// json and jsonl: ``ObjectJSONWriter``).
    static func print(_ results: SectionedFetchResults, to renderer: any ResultRenderer,
                      match: (ManagedObject, _ position: Int) throws -> Match) throws {
        var stream = renderer.sectionStream()
        var position = 0
        do {
            for section in results.sections {
                stream.begin(RecordSection(name: section.name, indexTitle: section.indexTitle, count: section.numberOfObjects))
                try section.objects.forEachObject { object in
                    stream.write(try match(object, position))
                    position += 1
                }
            }
        } catch {
            stream.abandon()
            throw error
        }
        stream.finish()
    }
}
