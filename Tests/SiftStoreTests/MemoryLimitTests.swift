import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// Results held whole in memory count against ``EvaluationBudget/memoryLimit`` (issue 29,
/// item 9): sections over a key with many values, and an import into a store held in memory,
/// throw a `memoryLimit` error past it instead of growing until an allocation fails.
@Suite struct MemoryLimitTests {
    static let rows = 2000
    static let limit = 64 << 10

    static func model() throws -> DataModel {
        try JSONModelFormat.read(Data(#"""
            {"name": "Rows", "entities": [{"name": "Row", "attributes": [
              {"name": "k", "type": "Integer 64", "optional": true}], "relationships": []}]}
            """#.utf8))
    }

    static var lines: Data {
        Data((0..<rows).map { #"{"@entity": "Row", "k": \#($0)}"# }.joined(separator: "\n").utf8)
    }

    @Test(arguments: StoreKind.allCases)
    func sectionsPastTheLimitThrow(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.make(try Self.model(), name: "rows", in: directory)
        try StoreImporter.importJSONLines(Self.lines, into: store)
        var request = FetchRequest(entityName: "Row")
        request.sectionNameKeyPath = "k"
        let error = #expect(throws: EvaluationError.self, "\(kind)") {
            try EvaluationBudget.withMemoryLimit(Self.limit) { try store.fetchSections(request) }
        }
        #expect(error?.code == .memoryLimit)
        #expect(error?.message.hasPrefix("the sections of 'k' need more memory than the 64 KB allowed (stopped at ") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("LIMIT and OFFSET") == true)
        // Without the limit (and within it, fewer sections), the same fetch answers.
        #expect(try store.fetchSections(request).sections.count == Self.rows)
        request.predicate = try PredicateNode(format: "k < 10")
        #expect(try EvaluationBudget.withMemoryLimit(Self.limit) { try store.fetchSections(request) }.sections.count == 10)
    }

    @Test func sectionedResultsCountAgainstTheLimit() throws {
        let values: [Value] = (0..<Self.rows).map { .dictionary(ValueDictionary([("k", .int(Int64($0)))])) }
        let error = #expect(throws: EvaluationError.self) {
            try EvaluationBudget.withMemoryLimit(Self.limit) { try SectionedResults(values, order: Array(values.indices), sectionKeyPath: "k") }
        }
        #expect(error?.code == .memoryLimit)
        #expect(try SectionedResults(values, order: Array(values.indices), sectionKeyPath: "k").sections.count == Self.rows)
    }

    @Test(arguments: StoreKind.allCases)
    func importIntoAStoreHeldInMemoryStopsAtTheLimit(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.make(try Self.model(), name: "rows", in: directory)
        let imported = Result { try EvaluationBudget.withMemoryLimit(Self.limit) { try StoreImporter.importJSONLines(Self.lines, into: store) } }
        let count = try store.count(FetchRequest(entityName: "Row"))
        if kind == .sqlite {
            // A SQLite store keeps its rows on disk.
            #expect(try imported.get().total == Self.rows)
            #expect(count == Self.rows)
        } else {
            #expect(throws: StoreError.self) { try imported.get() }
            if case .failure(let error as StoreError) = imported {
                #expect(error.code == .memoryLimit)
                #expect(error.message.contains("the objects of the import need more memory than the 64 KB allowed (stopped at object "), "\(error.message)")
                #expect(error.message.contains("nothing was imported") && error.message.contains("SQLite store"))
            }
            #expect(count == 0)
            #expect(!store.hasChanges)
        }
    }
}

extension MemoryLimitTests {
    /// A sort in memory counts its columns once, before it reads them.
    @Test func aSortInMemoryPastTheLimitThrows() throws {
        let store = AtomicStore.inMemory(model: try Self.model())
        try StoreImporter.importJSONLines(Self.lines, into: store)
        var request = FetchRequest(entityName: "Row")
        request.sortDescriptors = [SortKey("k", ascending: false)]
        let error = #expect(throws: EvaluationError.self) {
            try EvaluationBudget.withMemoryLimit(16 << 10) { try store.fetch(request) }
        }
        #expect(error?.code == .memoryLimit)
        #expect(error?.message.hasPrefix("sorting 2,000 results by 1 key would need more memory than the 16 KB allowed: ") == true, "\(error?.message ?? "")")
        #expect(try store.fetch(request).first?.value(forKey: "k").description == "\(Self.rows - 1)")
    }
}
