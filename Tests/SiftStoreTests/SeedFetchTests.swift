import Foundation
import SeedAppSupport
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Runs every example fetch of every seed app (Examples/<App>/fetches.json) through the Swift
/// API against each atomic store kind, with the app's data.json imported, and checks the
/// result against the fetch's `expect` (the shape is documented in ExampleModelsTests).
///
/// The file stores are created, imported into (which saves), and then opened again from disk
/// before fetching, so what is checked is what the file kept.
@Suite struct SeedFetchTests {
    /// One example fetch of one app.
    struct Fetch: Sendable, CustomTestStringConvertible {
        let app: String
        let name: String
        var testDescription: String { "\(app)/\(name)" }
    }

    /// Every (app, fetch) pair, from the names ExampleModelsTests checks against fetches.json.
    static let fetches: [Fetch] = ExampleModelsTests.fetchNames.flatMap { app, names in
        names.map { Fetch(app: app, name: $0) }
    }

    // MARK: The fetches

    @Test(arguments: fetches, AtomicStore.Kind.allCases)
    func exampleFetch(_ fetch: Fetch, _ kind: AtomicStore.Kind) throws {
        let spec = try Self.fetchSpec(fetch)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.importedStore(fetch.app, kind: kind, in: directory)
        try Self.check(spec, fetch: fetch, on: store)
    }

    /// The same fetches on the SQLite store: in memory, and in a file reopened from disk.
    @Test(arguments: fetches, [false, true])
    func exampleFetchOnSQLite(_ fetch: Fetch, _ inFile: Bool) throws {
        let spec = try Self.fetchSpec(fetch)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = ExampleModelsTests.folder(fetch.app)
        let model = try ModelFile.load(folder.appendingPathComponent("model.json"))
        let data = try Data(contentsOf: folder.appendingPathComponent("data.json"))
        let store: SQLiteStore
        if inFile {
            let url = directory.appendingPathComponent("\(fetch.app).sqlite")
            try StoreImporter.importJSON(data, into: try SQLiteStore.create(at: url, model: model))
            store = try SQLiteStore.open(at: url)
        } else {
            store = try SQLiteStore.inMemory(model: model)
            try StoreImporter.importJSON(data, into: store)
        }
        try Self.check(spec, fetch: fetch, on: store)
    }

    /// The names listed here are exactly the fetches in the files, so none is skipped.
    @Test(arguments: ExampleModelsTests.apps)
    func everyFetchInTheFileIsRun(_ app: String) throws {
        guard case .dictionary(let top) = try ExampleModelsTests.readJSON(ExampleModelsTests.folder(app).appendingPathComponent("fetches.json")),
              case .array(let items)? = top["fetches"] else {
            Issue.record("\(app)/fetches.json: not {\"fetches\": [...]}")
            return
        }
        let inFile: [String] = items.compactMap { item in
            guard case .dictionary(let fields) = item, case .string(let name)? = fields["name"] else { return nil }
            return name
        }
        #expect(inFile == Self.fetches.filter { $0.app == app }.map(\.name))
    }

    // MARK: Stores

    /// A store of `kind` holding the app's model and data.json. File stores are reopened from
    /// disk after the import.
    static func importedStore(_ app: String, kind: AtomicStore.Kind, in directory: URL) throws -> AtomicStore {
        let folder = ExampleModelsTests.folder(app)
        let model = try ModelFile.load(folder.appendingPathComponent("model.json"))
        let data = try Data(contentsOf: folder.appendingPathComponent("data.json"))
        switch kind {
        case .inMemory:
            let store = AtomicStore.inMemory(model: model)
            try StoreImporter.importJSON(data, into: store)
            return store
        case .json, .binaryPropertyList:
            let url = directory.appendingPathComponent(kind == .json ? "\(app).json" : "\(app).plist")
            let created = try AtomicStore.create(at: url, model: model)
            #expect(created.kind == kind)
            try StoreImporter.importJSON(data, into: created)
            #expect(!created.hasChanges)
            let reopened = try AtomicStore.open(at: url)
            #expect(reopened.kind == kind)
            return reopened
        }
    }

    // MARK: Reading fetches.json

    static func fetchSpec(_ fetch: Fetch) throws -> ValueDictionary {
        let url = ExampleModelsTests.folder(fetch.app).appendingPathComponent("fetches.json")
        guard case .dictionary(let top) = try ExampleModelsTests.readJSON(url), case .array(let items)? = top["fetches"] else {
            throw Failure("\(fetch.app)/fetches.json: not {\"fetches\": [...]}")
        }
        for case .dictionary(let fields) in items {
            if case .string(fetch.name)? = fields["name"] { return fields }
        }
        throw Failure("\(fetch.app)/fetches.json has no fetch named \(fetch.name)")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Checking

    /// A value as comparable JSON text: dates ISO 8601, UUIDs and decimals as strings.
    static func text(_ value: Value) -> String {
        JSONWriter.string(JSONModelFormat.plainJSON(value))
    }

    /// The fetch's `property` of an object: an attribute, or "@id" for the object ID.
    static func property(_ name: String, of object: ManagedObject) -> String {
        if name == "@id" { return text(.string(object.objectID.rawValue)) }
        guard let value = object[attribute: name] else { return "<no attribute \(name)>" }
        return text(value)
    }

    static func check(_ spec: ValueDictionary, fetch: Fetch, on store: any PersistentStore) throws {
        guard case .dictionary(let expect)? = spec["expect"], expect.count == 1, let form = expect.keys.first, let expected = expect[form] else {
            throw Failure("\(fetch): \"expect\" must have exactly one form")
        }
        guard case .string(let property)? = spec["property"] else { throw Failure("\(fetch): no \"property\"") }
        let kind = (store as? AtomicStore).map { "\($0.kind)" } ?? "\(type(of: store))"

        if form == "error" {
            guard case .string(let substring) = expected else { throw Failure("\(fetch): \"error\" must be a string") }
            do {
                let request = try SeedFetchRequest.request(spec)
                let result = try store.execute(request)
                Issue.record("\(fetch) [\(kind)]: expected an error containing '\(substring)', got \(describe(result))")
            } catch {
                let message = String(describing: error)
                #expect(message.contains(substring), "\(fetch) [\(kind)]: error '\(message)' does not mention '\(substring)'")
                #expect(error is StoreError || error is ParseError, "\(fetch) [\(kind)]: \(type(of: error)) is not a StoreError or ParseError")
            }
            return
        }

        let request = try SeedFetchRequest.request(spec)
        switch form {
        case "ordered", "unordered":
            guard case .array(let values) = expected else { throw Failure("\(fetch): \(form) must be an array") }
            #expect(request.resultType == .objects, "\(fetch): an object fetch")
            let objects = try store.fetch(request)
            let actual = objects.map { Self.property(property, of: $0) }
            let wanted = values.map(text)
            if form == "ordered" {
                #expect(actual == wanted, "\(fetch) [\(kind)]")
            } else {
                #expect(actual.sorted() == wanted.sorted(), "\(fetch) [\(kind)]")
            }
            // IDs and count agree with the objects.
            #expect(objects.objectIDs == objects.map(\.objectID), "\(fetch) [\(kind)]")
            #expect(try store.count(request) == objects.count, "\(fetch) [\(kind)]")

        case "count":
            guard case .int(let n) = expected else { throw Failure("\(fetch): count must be an integer") }
            guard case .count(let count) = try store.execute(request) else {
                Issue.record("\(fetch) [\(kind)]: a count request did not return a count")
                return
            }
            #expect(count == Int(n), "\(fetch) [\(kind)]")
            // The same request for objects returns that many.
            var objects = request
            objects.resultType = .objects
            #expect(try store.fetch(objects).count == Int(n), "\(fetch) [\(kind)]")

        case "sections":
            guard case .array(let sections) = expected else { throw Failure("\(fetch): sections must be an array") }
            var wanted: [String] = []
            for section in sections {
                guard case .dictionary(let s) = section, case .string(let name)? = s["name"], case .string(let title)? = s["indexTitle"],
                      case .array(let objects)? = s["objects"] else { throw Failure("\(fetch): a section is {name, indexTitle, objects}") }
                wanted.append("§\(name) (\(title)) [\(objects.map(text).joined(separator: ", "))]")
            }
            let result = try store.fetchSections(request)
            let actual = result.sections.map { section in
                "§\(section.name) (\(section.indexTitle)) [\(section.objects.map { Self.property(property, of: $0) }.joined(separator: ", "))]"
            }
            #expect(actual == wanted, "\(fetch) [\(kind)]")
            #expect(result.sections.map(\.numberOfObjects) == result.sections.map { $0.objects.count })
            #expect(result.sectionIndexTitles == result.sections.map(\.indexTitle))
            // Sections hold exactly the objects of the unsectioned fetch, in its order.
            let flat = try store.fetch(request).objectIDs
            #expect(result.sections.flatMap { $0.objects.objectIDs } == flat, "\(fetch) [\(kind)]")
            #expect(result.warning == nil, "\(fetch) [\(kind)]: \(result.warning ?? "")")

        default:
            throw Failure("\(fetch): unknown expect form \(form)")
        }
    }

    static func describe(_ result: FetchResult) -> String {
        switch result {
        case .objects(let objects): "\(objects.count) objects"
        case .dictionaries(let rows): "\(rows.count) dictionaries"
        case .count(let n): "count \(n)"
        case .objectIDs(let ids): "\(ids.count) object IDs"
        }
    }
}
