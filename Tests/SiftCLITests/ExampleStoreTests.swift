import Foundation
import Sift
import Testing
@testable import SiftCLI

/// The bundled example stores: the seed apps embedded in the binary (scripts/embed-examples)
/// are exactly Examples/<App>/model.json and data.json, the default store combines the apps
/// that do not collide, every app opens by name, quickly, and its example fetches give the same
/// answers on SQLite and on the in-memory evaluator (`.engine both`).
@Suite struct ExampleStoreTests {
    static let examples = QueryCommandTests.examples

    static var appsOnDisk: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: examples.appendingPathComponent("\($0)/model.json").path) }.sorted()
    }

    @Test func theEmbeddedAppsAreExamplesAsTheyAre() throws {
        #expect(ExampleApp.embedded.map(\.name) == Self.appsOnDisk, "run scripts/embed-examples")
        for app in ExampleApp.embedded {
            let folder = Self.examples.appendingPathComponent(app.name)
            let model = try String(contentsOf: folder.appendingPathComponent("model.json"), encoding: .utf8)
            let data = try String(contentsOf: folder.appendingPathComponent("data.json"), encoding: .utf8)
            #expect(app.model == model, "\(app.name)/model.json differs from the embedded copy: run scripts/embed-examples")
            #expect(app.data == data, "\(app.name)/data.json differs from the embedded copy: run scripts/embed-examples")
        }
    }

    /// The entity names and object IDs of an app.
    static func names(of app: ExampleApp) throws -> (entities: Set<String>, ids: Set<String>) {
        let model = try JSONModelFormat.read(Data(app.model.utf8), name: app.name)
        var ids: Set<String> = []
        if case .dictionary(let top) = try JSONParser.parse(Data(app.data.utf8)) {
            for (_, rows) in top.pairs {
                for row in rows.collectionElements ?? [] { if let id = row.field("@id")?.text { ids.insert(id) } }
            }
        }
        return (Set(model.entities.map(\.name)), ids)
    }

    @Test func theDefaultStoreHoldsEveryAppThatDoesNotCollide() throws {
        var entities: Set<String> = [], ids: Set<String> = []
        for name in ExampleStores.defaultApps {
            let app = try #require(ExampleStores.app(named: name))
            let names = try Self.names(of: app)
            #expect(entities.isDisjoint(with: names.entities), "\(name)'s entity names collide")
            #expect(ids.isDisjoint(with: names.ids), "\(name)'s object IDs collide")
            entities.formUnion(names.entities)
            ids.formUnion(names.ids)
        }
        for app in ExampleApp.embedded where !ExampleStores.defaultApps.contains(app.name) {
            let names = try Self.names(of: app)
            #expect(!entities.isDisjoint(with: names.entities) || !ids.isDisjoint(with: names.ids),
                    "\(app.name) collides with nothing in the default store: add it to ExampleStores.defaultApps")
        }
    }

    @Test(arguments: ExampleApp.embedded.map(\.name))
    func everyAppOpensByName(_ name: String) throws {
        let store = try ExampleStores.open("example:\(name)")
        let data = try JSONParser.parse(Data(contentsOf: Self.examples.appendingPathComponent("\(name)/data.json")))
        guard case .dictionary(let top) = data else { Issue.record("\(name): data.json is not an object"); return }
        let rows = top.pairs.reduce(0) { $0 + ($1.1.collectionElements?.count ?? 0) }
        let objects = try store.model.entities.filter { $0.parent == nil }.reduce(0) { $0 + (try store.count(FetchRequest(entityName: $1.name))) }
        #expect(objects == rows, "\(name): \(objects) objects, \(rows) rows in data.json")
    }

    @Test func theDefaultStoreHoldsTheDefaultApps() throws {
        let store = try ExampleStores.open("example")
        #expect(try store.count(FetchRequest(entityName: "Note")) == 5)
        #expect(try store.count(FetchRequest(entityName: "Movie")) == 9)
        #expect(try store.count(FetchRequest(entityName: "Potato")) == 10)
        #expect(store.model.entity(named: "FamilyMember") == nil)
    }

    @Test func namesAreCheckedAndSuggested() {
        #expect(ExampleStores.canonicalName("example:movies") == "example:Movies")
        #expect(ExampleStores.isExampleName("example"))
        #expect(!ExampleStores.isExampleName("examples.sqlite"))
        #expect(throws: SessionError.self) { try ExampleStores.open("example:Movis") }
        do {
            _ = try ExampleStores.open("example:Movis")
        } catch {
            #expect("\(error)" == "no example app 'Movis'; did you mean 'example:Movies'?")
        }
    }

    // MARK: .engine both on every example fetch

    struct Fetch: Sendable, CustomTestStringConvertible {
        let app: String
        let name: String
        let fetch: String
        var testDescription: String { "\(app) \(name)" }
    }

    static let fetches: [Fetch] = ExampleApp.embedded.flatMap { app -> [Fetch] in
        let url = examples.appendingPathComponent("\(app.name)/fetches.json")
        guard let document = try? JSONParser.parse(Data(contentsOf: url)), case .array(let fetches)? = document.field("fetches") else { return [] }
        return fetches.map { Fetch(app: app.name, name: $0.field("name")?.text ?? "?", fetch: JSONWriter.string($0)) }
    }

    static func request(_ fetch: Value) throws -> FetchRequest {
        if let request = fetch.field("request") { return try FetchRequest(jsonValue: request) }
        let arguments = try (fetch.field("arguments")?.collectionElements ?? []).map { try JSONArguments.argument($0) }
        var variables: [String: Any?] = [:]
        if case .dictionary(let pairs)? = fetch.field("variables") {
            for (name, value) in pairs.pairs { variables[name] = try JSONArguments.argument(value) }
        }
        return try FetchRequest(statement: fetch.field("statement")?.text ?? "", arguments: arguments, variables: variables)
    }

    @Test(arguments: fetches)
    func theEnginesAgreeOnTheExampleFetch(_ fetch: Fetch) throws {
        let store = try ExampleStores.open("example:\(fetch.app)")
        let memory = AtomicStore.inMemory(model: store.model)
        try store.copyObjects(into: memory)
        let request = try Self.request(try JSONParser.parse(fetch.fetch))
        let sql = EngineComparison.outcome(of: request, on: store)
        let verdict = EngineComparison.compare(("sql", sql), ("memory", EngineComparison.outcome(of: request, on: memory)))
        #expect(verdict.agree, "\(verdict.message)")
        if case .failed(let message) = sql, try JSONParser.parse(fetch.fetch).field("expect")?.field("error") == nil {
            Issue.record("\(fetch.name) failed: \(message)")
        }
    }
}
