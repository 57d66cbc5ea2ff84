import Foundation
import PostgreSQLTestSupport
import SeedAppSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
@testable import SiftStore
import Testing

/// Every example fetch of every seed app (Examples/<App>/fetches.json) on the JSON store and on
/// a PostgreSQL store with the same data.json imported: the same object IDs in the same order,
/// the same counts, dictionaries, sections and errors.
@Suite struct SeedAppTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples", isDirectory: true)

    static let apps = ["Notes", "NestedItems", "TaterRater", "MustC", "Movies", "VideoItems", "ToDoItem", "PointsOfInterest", "HouseholdTasks", "Albums"]

    @Test(arguments: apps)
    func sameAnswersAsTheJSONStore(_ app: String) async throws {
        let folder = Self.examples.appendingPathComponent(app, isDirectory: true)
        let model = try ModelFile.load(folder.appendingPathComponent("model.json"))
        let data = try Data(contentsOf: folder.appendingPathComponent("data.json"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-pg-seed-\(app)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("\(app).json")
        try StoreImporter.importJSON(data, into: try AtomicStore.create(at: url, model: model))
        let json = try AtomicStore.open(at: url)

        let test = try await StoreTestDatabase.make(model, label: app.lowercased())
        defer { test.database.drop() }
        try StoreImporter.importJSON(data, into: test.store)
        let postgres = try test.reopened()

        let fetches = try Self.fetches(folder)
        #expect(!fetches.isEmpty)
        var answered = 0
        for (name, spec) in fetches {
            let request: FetchRequest
            do {
                request = try SeedFetchRequest.request(spec)
            } catch {
                continue  // a fetch whose text does not parse fails on every store alike
            }
            let expected = Self.outcome(request, on: json)
            let actual = Self.outcome(request, on: postgres)
            #expect(actual == expected, "\(app)/\(name)")
            if !expected.hasPrefix("error") { answered += 1 }
            // Sorted by a key path: the same order with and without a batch size.
            var batched = request
            batched.fetchBatchSize = 2
            if request.resultType == .objects {
                #expect(Self.outcome(batched, on: postgres) == expected, "\(app)/\(name) in batches")
            }
        }
        // Most fetches answer (a few are examples of errors).
        #expect(answered * 2 > fetches.count, "\(app): \(answered) of \(fetches.count) fetches answered")
    }

    /// What a request gives on a store, as comparable text: object IDs in order, a count,
    /// dictionaries, sections, or the error's message.
    static func outcome(_ request: FetchRequest, on store: any PersistentStore) -> String {
        do {
            if request.sectionNameKeyPath != nil, request.resultType == .objects {
                let sections = try store.fetchSections(request)
                return sections.sections.map { "§\($0.name) (\($0.indexTitle)) \($0.objects.map(\.objectID.rawValue))" }.joined(separator: "\n")
                    + (sections.warning ?? "")
            }
            switch try store.execute(request) {
            case .objects(let objects):
                let ids = objects.map(\.objectID.rawValue)
                let values = objects.map { object in object.attributeValues.pairs.map { "\($0.0)=\(text($0.1))" }.joined(separator: ",") }
                return "objects \(ids) \(values) count \(try store.count(request))"
            case .objectIDs(let ids): return "ids \(ids.map(\.rawValue))"
            case .count(let n): return "count \(n)"
            case .dictionaries(let rows):
                return "dictionaries " + rows.map { row in row.pairs.map { "\($0.0)=\(text($0.1))" }.joined(separator: ",") }.joined(separator: " | ")
            }
        } catch {
            return "error \(error)"
        }
    }

    static func text(_ value: Value) -> String {
        JSONWriter.string(JSONModelFormat.plainJSON(value))
    }

    static func fetches(_ folder: URL) throws -> [(String, ValueDictionary)] {
        guard case .dictionary(let top) = try JSONParser.parse(try Data(contentsOf: folder.appendingPathComponent("fetches.json"))),
              case .array(let items)? = top["fetches"] else { return [] }
        return items.compactMap { item in
            guard case .dictionary(let fields) = item, case .string(let name)? = fields["name"] else { return nil }
            return (name, fields)
        }
    }
}
