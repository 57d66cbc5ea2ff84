import Foundation
import Sift
import Synchronization
import Testing
@testable import SiftCLI

/// `sift query`'s sectioned results stream: each object is printed before the next batch is
/// read, so the objects alive at once stay a few batches however large the result. Measured
/// by counting the store's live objects whenever output leaves, not by timing.
@Suite struct SectionStreamingTests {
    static let count = 20_000
    static let batchSize = 100

    /// People in 4 cities, inserted in no city order.
    static func store() throws -> AtomicStore {
        let model = try DataModel(name: "People", entities: [
            EntityDescription(name: "Person", attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "city", type: .string),
            ]),
        ])
        let store = AtomicStore.inMemory(model: model)
        let cities = ["Berlin", "Oslo", "Lima", "Quito"]
        for i in 0..<count {
            try store.insert("Person", ["name": .string("p\(i)"), "city": .string(cities[i % cities.count])])
        }
        try store.save()
        return store
    }

    /// Prints `statement`'s sections as `format`, flushing after every object; returns the
    /// output and the most objects alive at any flush.
    static func print(_ statement: String, as format: OutputFormat) throws -> (text: String, maxLive: Int, flushes: Int) {
        let store = try Self.store()
        var request = try FetchRequest(statement: statement)
        request.fetchBatchSize = batchSize
        let collected = Mutex((text: "", maxLive: 0, flushes: 0))
        let output = StandardOutput(collector: { text in
            let live = store.liveObjectCount
            collected.withLock {
                $0.text += text
                $0.maxLive = max($0.maxLive, live)
                $0.flushes += 1
            }
        }, interactive: true)
        let results = try store.fetchSections(request)
        try FetchedSectionsPrinter.print(results, to: format.makeRenderer(output)) { ObjectOutput().value(of: $0, model: store.model) }
        output.flush()
        return collected.withLock { $0 }
    }

    @Test(arguments: [OutputFormat.json, .jsonl])
    func sectionedObjectsArePrintedAsTheyAreRead(_ format: OutputFormat) throws {
        let printed = try Self.print("Person SORT BY city SECTION BY city", as: format)
        // Printed object by object (a flush each), never near every object alive at once.
        #expect(printed.flushes >= Self.count)
        #expect(printed.maxLive <= 4 * Self.batchSize, "at most a few batches alive (\(printed.maxLive))")
        #expect(printed.text.contains("\"p19999\""))
    }

    /// What streams is what ``JSONRenderer/writeSections(_:)`` and
    /// ``JSONLinesRenderer/writeSections(_:)`` print for the same sections whole.
    @Test(arguments: [OutputFormat.json, .jsonl, .csv, .table])
    func streamedSectionsPrintAsWholeSectionsDo(_ format: OutputFormat) throws {
        let statement = "Person WHERE name ENDSWITH '7' SORT BY city DESC, name SECTION BY city"
        let streamed = try Self.print(statement, as: format).text
        let store = try Self.store()
        let results = try store.fetchSections(try FetchRequest(statement: statement))
        var position = 0
        let sections = results.sections.map { section in
            MatchSection(name: section.name, indexTitle: section.indexTitle, matches: section.objects.map { object in
                defer { position += 1 }
                return StoredObjectJSON.match(ObjectOutput().value(of: object, model: store.model), position: position)
            })
        }
        let whole = Mutex("")
        let output = StandardOutput(collector: { text in whole.withLock { $0 += text } })
        var renderer = format.makeRenderer(output)
        renderer.writeSections(sections)
        output.flush()
        #expect(streamed == whole.withLock { $0 })
        #expect(streamed.contains("Quito"))
    }

    @Test func noSectionsPrintAsBefore() throws {
        #expect(try Self.print("Person WHERE name == 'nobody' SECTION BY city", as: .json).text == "{\"sections\": []}\n")
        #expect(try Self.print("Person WHERE name == 'nobody' SECTION BY city", as: .jsonl).text == "")
    }
}
