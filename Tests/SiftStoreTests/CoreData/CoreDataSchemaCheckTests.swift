import CoreDataFixtures
import Foundation
import Testing
@testable import SiftStore

/// ``CoreDataLayout/check(_:)``: each fixture's model matches its own store with no difference,
/// and each kind of damage to a store's schema is named exactly.
@Suite struct CoreDataSchemaCheckTests {
    @Test(arguments: CoreDataFixtures.storesWithModelCache)
    func eachModelMatchesItsStore(_ store: String) throws {
        let before = try CoreDataFixtures.checksum(CoreDataFixtures.url(store))
        let layout = CoreDataLayout(try #require(try CoreDataFixtureSchema.model(store)))
        let check = layout.check(try CoreDataFixtureSchema.read(store))
        #expect(check.matches)
        #expect(check.differences == [], "\(check.differences.map(\.description))")
        #expect(try CoreDataFixtures.checksum(CoreDataFixtures.url(store)) == before)
    }

    /// A damage done to Accounts3's real schema, and the differences it must give.
    struct Damage: CustomTestStringConvertible, Sendable {
        let name: String
        let change: @Sendable (inout CoreDataStoreSchema) -> Void
        let expected: [CoreDataSchemaCheck.Difference]
        let matches: Bool
        var testDescription: String { name }
    }

    static func editing(_ table: String, _ edit: @escaping @Sendable (inout CoreDataStoreSchema.Table) -> Void) -> @Sendable (inout CoreDataStoreSchema) -> Void {
        { schema in
            if let i = schema.tables.firstIndex(where: { $0.name == table }) { edit(&schema.tables[i]) }
        }
    }

    static let damages: [Damage] = [
        Damage(name: "table dropped", change: { $0.tables.removeAll { $0.name == "ZCREDENTIALITEM" } },
               expected: [.missingTable("ZCREDENTIALITEM")], matches: false),
        Damage(name: "join table dropped", change: { $0.tables.removeAll { $0.name == "Z_2ENABLEDDATACLASSES" } },
               expected: [.missingTable("Z_2ENABLEDDATACLASSES")], matches: false),
        Damage(name: "attribute column dropped", change: editing("ZACCOUNT") { $0.columns.removeAll { $0.name == "ZUSERNAME" } },
               expected: [.missingColumn(table: "ZACCOUNT", column: "ZUSERNAME", property: "Account.username")], matches: false),
        Damage(name: "to-one column dropped", change: editing("ZACCOUNT") { $0.columns.removeAll { $0.name == "ZPARENTACCOUNT" } },
               expected: [.missingColumn(table: "ZACCOUNT", column: "ZPARENTACCOUNT", property: "Account.parentAccount")], matches: false),
        Damage(name: "text where an integer is stored", change: editing("ZACCOUNT") { table in
                   if let i = table.columns.firstIndex(where: { $0.name == "ZACTIVE" }) { table.columns[i].declaredType = "VARCHAR" }
               },
               expected: [.incompatibleType(table: "ZACCOUNT", column: "ZACTIVE", expected: "INTEGER", found: "VARCHAR")], matches: false),
        Damage(name: "a date as FLOAT still fits", change: editing("ZACCOUNT") { table in
                   if let i = table.columns.firstIndex(where: { $0.name == "ZDATE" }) { table.columns[i].declaredType = "FLOAT" }
               }, expected: [], matches: true),
        Damage(name: "names match case-insensitively", change: editing("ZACCOUNT") { table in
                   if let i = table.columns.firstIndex(where: { $0.name == "ZDATE" }) { table.columns[i].name = "zdate"; table.columns[i].declaredType = "timestamp" }
               }, expected: [], matches: true),
        Damage(name: "entity row missing", change: { $0.primaryKeys.removeAll { $0.name == "Authorization" } },
               expected: [.missingEntity(name: "Authorization", number: 5)], matches: false),
        Damage(name: "entities renumbered", change: { schema in
                   for i in schema.primaryKeys.indices where schema.primaryKeys[i].name == "Account" { schema.primaryKeys[i].number = 9 }
               }, expected: [.entityNumberMismatch(name: "Account", expected: 2, found: 9)], matches: false),
        Damage(name: "super-entity changed", change: { schema in
                   for i in schema.primaryKeys.indices where schema.primaryKeys[i].name == "Dataclass" { schema.primaryKeys[i].superNumber = 2 }
               }, expected: [.superEntityMismatch(name: "Dataclass", expected: 0, found: 2)], matches: false),
        Damage(name: "extras do not make a mismatch", change: { schema in
                   schema.tables.append(.init(name: "ZSOMETHINGELSE", columns: [.init(name: "Z_PK", declaredType: "INTEGER")]))
                   schema.tables[schema.tables.firstIndex { $0.name == "ZDATACLASS" }!].columns.append(.init(name: "ZADDED", declaredType: "VARCHAR"))
                   schema.primaryKeys.append(.init(number: 8, name: "Something", superNumber: 0))
                   schema.primaryKeys.append(.init(number: 16001, name: "CHANGE", superNumber: 0))
                   schema.tables.append(.init(name: "ACHANGE", columns: [.init(name: "Z_PK", declaredType: "INTEGER")]))
               },
               expected: [.extraColumn(table: "ZDATACLASS", column: "ZADDED"), .extraEntity(name: "Something", number: 8), .extraTable("ZSOMETHINGELSE")],
               matches: true),
    ]

    @Test(arguments: damages)
    func damageIsNamed(_ damage: Damage) throws {
        let layout = CoreDataLayout(try #require(try CoreDataFixtureSchema.model("Accounts3.sqlite")))
        var schema = try CoreDataFixtureSchema.read("Accounts3.sqlite")
        damage.change(&schema)
        let check = layout.check(schema)
        #expect(check.differences == damage.expected, "\(check.differences.map(\.description))")
        #expect(check.matches == damage.matches)
    }

    /// DataUsage's model against netusage's store (both have LiveUsage and Process, written by
    /// two versions of one framework): not a match, and it says why.
    @Test func anotherStoresModel() throws {
        let layout = CoreDataLayout(try #require(try CoreDataFixtureSchema.model("DataUsage.sqlite")))
        let check = layout.check(try CoreDataFixtureSchema.read("netusage.sqlite"))
        #expect(!check.matches)
        #expect(check.mismatches.contains(.missingTable("ZCHECKUPEVENT")))
        #expect(check.mismatches.contains(.entityNumberMismatch(name: "LiveUsage", expected: 5, found: 11)))
        #expect(check.differences.contains(.extraEntity(name: "App", number: 16)))
        #expect(check.mismatches.map(\.description).contains("Z_PRIMARYKEY numbers entity LiveUsage 11, the model 5"))
    }

    @Test(arguments: [
        ("INTEGER", "INTEGER", true), ("INTEGER", "int", true), ("INTEGER", "BIGINT", true), ("VARCHAR", "TEXT", true), ("TIMESTAMP", "FLOAT", true),
        ("TIMESTAMP", "INTEGER", true), ("DECIMAL", "NUMERIC", true), ("BLOB", "", true), ("INTEGER", "VARCHAR", false), ("VARCHAR", "BLOB", false),
        ("FLOAT", "INTEGER", false), ("BLOB", "INTEGER", false), ("TIMESTAMP", "VARCHAR", false),
    ])
    func compatibleTypes(_ expected: String, _ found: String, _ compatible: Bool) {
        #expect(CoreDataSchemaCheck.isCompatible(expected, found) == compatible)
    }
}
