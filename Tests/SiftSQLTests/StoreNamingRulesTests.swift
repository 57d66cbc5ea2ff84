import Foundation
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Models a SQL store cannot hold are refused up front, by every store kind alike, with a
/// message naming the clash; before, SQLite failed half-way with its own words and the hint
/// "if another program changed the file…" (issue 29, item 11), and the JSON store took them.
@Suite struct StoreNamingRulesTests {
    static func attribute(_ name: String) -> AttributeDescription { AttributeDescription(name: name, type: .string) }

    static let cases: [(String, [EntityDescription], String)] = [
        ("entities in two cases", [EntityDescription(name: "Item", attributes: [attribute("a")]), EntityDescription(name: "item", attributes: [attribute("a")])],
         "entities Item and item differ only in case: a SQL store holds them in one table; rename one"),
        ("attributes in two cases", [EntityDescription(name: "Item", attributes: [attribute("name"), attribute("NAME")])],
         "properties name and NAME of Item differ only in case: a SQL store holds them in one column; rename one"),
        ("sibling attributes in two cases", [EntityDescription(name: "Item", attributes: [attribute("a")]),
                                             EntityDescription(name: "Book", parent: "Item", attributes: [attribute("title")]),
                                             EntityDescription(name: "Film", parent: "Item", attributes: [attribute("Title")])],
         "properties title and Title of Book and Film, which share one table, differ only in case: a SQL store holds them in one column; rename one"),
        ("SQLite's own name", [EntityDescription(name: "sqlite_master", attributes: [attribute("a")])],
         "entity sqlite_master: names beginning with 'sqlite_' are SQLite's own; rename the entity"),
        ("NUL in an entity name", [EntityDescription(name: "It\u{0}em", attributes: [attribute("a")])],
         "entity 'It\\0em': a name cannot hold U+0000"),
        ("NUL in an attribute name", [EntityDescription(name: "Item", attributes: [attribute("na\u{0}me")])],
         "property 'na\\0me' of Item: a name cannot hold U+0000"),
    ]

    enum Kind: String, CaseIterable { case sqlite, json, plist }

    static func create(_ kind: Kind, _ model: DataModel, in directory: URL) throws {
        let url = directory.appendingPathComponent("store.\(kind.rawValue)")
        switch kind {
        case .sqlite: _ = try SQLiteStore.create(at: url, model: model)
        case .json, .plist: _ = try AtomicStore.create(at: url, model: model)
        }
    }

    @Test(arguments: Kind.allCases, cases.indices)
    func everyStoreKindRefusesTheClash(_ kind: Kind, _ index: Int) throws {
        let (label, entities, message) = Self.cases[index]
        let model = try DataModel(entities: entities)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try Self.create(kind, model, in: directory)
            Issue.record("\(label): \(kind) made the store")
        } catch let error as StoreError {
            #expect(error.code == .unsupportedModel, "\(label)")
            #expect(error.message == message, "\(label)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "\(label): nothing is left behind")
    }

    /// More columns than SQLite holds in one table: SQLite says so in words (the JSON and
    /// plist stores hold them).
    @Test func moreColumnsThanSQLiteHolds() throws {
        let model = try DataModel(entities: [EntityDescription(name: "Wide", attributes: (0..<2_000).map { Self.attribute("a\($0)") })])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: StoreError.self) { try Self.create(.sqlite, model, in: directory) }
        do {
            try Self.create(.sqlite, model, in: directory)
        } catch let error as StoreError {
            #expect(error.code == .unsupportedModel)
            #expect(error.message.hasPrefix("entity Wide and its subentities have more attributes and to-one relationships than SQLite holds in one table (2000 columns"),
                    "\(error.message)")
        }
        try Self.create(.json, model, in: directory)
    }

    /// A deep inheritance chain loads in time linear in its size (it was cubic: 1,000 levels
    /// took 10.6 s, 2,000 over a minute).
    @Test func aDeepInheritanceChainLoads() throws {
        var entities = [EntityDescription(name: "E0", attributes: [Self.attribute("a0")])]
        for i in 1..<1_500 { entities.append(EntityDescription(name: "E\(i)", parent: "E\(i - 1)", attributes: [Self.attribute("a\(i)")])) }
        let model = try DataModel(entities: entities)
        #expect(model.entity(named: "E0")?.entityAndSubentities.count == 1_500)
        #expect(model.entity(named: "E1499")?.attributes.count == 1_500)
        #expect(model.entity(named: "E700")?.entityAndSubentities == (700..<1_500).map { "E\($0)" })
    }
}
