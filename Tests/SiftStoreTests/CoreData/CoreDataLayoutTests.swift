import CoreDataFixtures
import Foundation
import Testing
@testable import SiftStore

/// ``CoreDataLayout`` from each fixture store's cached model, against the tables Core Data
/// really wrote into that store (read with SQLite, read-only and immutable).
@Suite struct CoreDataLayoutTests {
    /// Every entity's number and super-entity, every table's name and place, every column's name,
    /// place and declared type: exactly as the store has them. The store's persistent-history
    /// entities (16001+, tables `ACHANGE`, ...) and bookkeeping tables are Core Data's, not the
    /// model's, and left out of the comparison.
    @Test(arguments: CoreDataFixtures.storesWithModelCache)
    func layoutEqualsTheStoresSchema(_ store: String) throws {
        let before = try CoreDataFixtures.checksum(CoreDataFixtures.url(store))
        let model = try #require(try CoreDataFixtureSchema.model(store))
        let real = try CoreDataFixtureSchema.read(store)
        let layout = CoreDataLayout(model)

        let modelRows = real.primaryKeys.filter { $0.number < CoreDataStoreSchema.firstHistoryEntityNumber }
        #expect(layout.entities.map { "\($0.number) \($0.name) \($0.superNumber)" } == modelRows.map { "\($0.number) \($0.name) \($0.superNumber)" })

        let modelTables = real.tables.filter { table in
            !CoreDataStoreSchema.bookkeepingTables.contains(table.name) && !["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"].contains(table.name)
        }
        #expect(layout.tables.map(\.name) == modelTables.map(\.name))
        for table in modelTables {
            let computed = try #require(layout.table(named: table.name), "\(table.name)")
            #expect(computed.columns.map { "\($0.name) \($0.declaredType)" } == table.columns.map { "\($0.name) \($0.declaredType)" }, "\(table.name)")
        }
        #expect(try CoreDataFixtures.checksum(CoreDataFixtures.url(store)) == before)
    }

    /// Every stored property of every entity maps to columns that exist in the layout's tables.
    @Test(arguments: CoreDataFixtures.storesWithModelCache)
    func everyPropertyMapsToLayoutColumns(_ store: String) throws {
        let model = try #require(try CoreDataFixtureSchema.model(store))
        let layout = CoreDataLayout(model)
        for entity in model.model.entities {
            for property in entity.propertyNames {
                let mapping = try #require(layout.mapping(entity: entity.name, property: property), "\(entity.name).\(property)")
                let columns: [(String, String?)]
                switch mapping {
                case .attribute(let table, let column): columns = [(table, column)]
                case .toOne(let table, let column, let entityColumn, let order): columns = [(table, column), (table, entityColumn), (table, order)]
                case .toManyThroughInverse(let table, let column, let order): columns = [(table, column), (table, order)]
                case .joinTable(let table, let owner, let destination, let order): columns = [(table, owner), (table, destination), (table, order)]
                }
                for (table, column) in columns {
                    guard let column else { continue }
                    #expect(layout.table(named: table)?.column(named: column) != nil, "\(entity.name).\(property): \(table).\(column)")
                }
            }
        }
    }

    /// NoteStore: inheritance two levels deep (ICCloudSyncingObject > ICNoteContainer > ICAccount,
    /// ICFolder), thirteen entities in one table, and six to-ones named `account`.
    @Test func noteStoreByHand() throws {
        let layout = CoreDataLayout(try #require(try CoreDataFixtureSchema.model("NoteStore.sqlite")))
        let account = try #require(layout.entity(named: "ICAccount"))
        #expect(account.number == 13 && account.superNumber == 12 && account.root == "ICCloudSyncingObject" && account.table == "ZICCLOUDSYNCINGOBJECT")
        #expect(layout.entity(named: "ICNoteContainer")?.kindNumbers == [12, 13, 14])
        #expect(layout.entity(named: "ICCloudSyncingObject")?.kindNumbers == Array(2...14))
        #expect(layout.entity(named: "ICAttachmentLocation")?.table == "ZICLOCATION")
        #expect(layout.entity(number: 16)?.name == "ICAttachmentLocation")
        // Six sub-entities' `account` to-ones share a base name: ZACCOUNT, ZACCOUNT1 ... ZACCOUNT5.
        #expect(layout.mapping(entity: "ICAccountData", property: "account") == .toOne(table: "ZICCLOUDSYNCINGOBJECT", column: "ZACCOUNT", entityColumn: nil, orderColumn: nil))
        #expect(layout.mapping(entity: "ICFolder", property: "account") == .toOne(table: "ZICCLOUDSYNCINGOBJECT", column: "ZACCOUNT5", entityColumn: nil, orderColumn: nil))
        #expect(layout.mapping(entity: "ICAccount", property: "folders") == .toManyThroughInverse(table: "ZICCLOUDSYNCINGOBJECT", column: "ZACCOUNT5", orderColumn: nil))
        // Inherited from two levels up.
        #expect(layout.mapping(entity: "ICAccount", property: "identifier") == .attribute(table: "ZICCLOUDSYNCINGOBJECT", column: "ZIDENTIFIER"))
        // A to-one to an entity with sub-entities also stores the destination's Z_ENT.
        #expect(layout.mapping(entity: "ICCloudState", property: "cloudSyncingObject")
                == .toOne(table: "ZICCLOUDSTATE", column: "ZCLOUDSYNCINGOBJECT", entityColumn: "Z2_CLOUDSYNCINGOBJECT", orderColumn: nil))
        let column = try #require(layout.table(named: "ZICCLOUDSYNCINGOBJECT")?.column(named: "ZTITLE2"))
        #expect(column.role == .attribute(entity: "ICFolder", name: "title", type: .string))
    }

    /// knowledgeC: Object with five sub-entities, to-ones to Object with `Z9_` columns, and a
    /// many-to-many between CustomMetadata (4) and Event (11).
    @Test func knowledgeCByHand() throws {
        let layout = CoreDataLayout(try #require(try CoreDataFixtureSchema.model("knowledgec-10.14.db")))
        #expect(layout.entity(named: "Object")?.kindNumbers == Array(9...14))
        for name in ["Category", "Event", "Identifier", "Quantity", "Relation"] {
            #expect(layout.entity(named: name)?.table == "ZOBJECT" && layout.entity(named: name)?.superNumber == 9, "\(name)")
        }
        #expect(layout.mapping(entity: "CustomMetadata", property: "object") == .toOne(table: "ZCUSTOMMETADATA", column: "ZOBJECT", entityColumn: "Z9_OBJECT", orderColumn: nil))
        #expect(layout.mapping(entity: "Relation", property: "subject") == .toOne(table: "ZOBJECT", column: "ZSUBJECT", entityColumn: "Z9_SUBJECT", orderColumn: nil))
        #expect(layout.mapping(entity: "CustomMetadata", property: "event") == .joinTable(table: "Z_4EVENT", ownerColumn: "Z_4CUSTOMMETADATA", destinationColumn: "Z_11EVENT", orderColumn: nil))
        #expect(layout.mapping(entity: "Event", property: "customMetadata") == .joinTable(table: "Z_4EVENT", ownerColumn: "Z_11EVENT", destinationColumn: "Z_4CUSTOMMETADATA", orderColumn: nil))
        #expect(layout.table(named: "Z_4EVENT")?.kind == .join(entity: "CustomMetadata", relationship: "event"))
    }

    /// Accounts3's five join tables; netusage's ordered to-many through `Z_FOK_HASAPP`.
    @Test func joinTablesAndOrderColumns() throws {
        let accounts = CoreDataLayout(try #require(try CoreDataFixtureSchema.model("Accounts3.sqlite")))
        #expect(accounts.tables.filter { if case .join = $0.kind { true } else { false } }.map(\.name)
                == ["Z_1OWNINGACCOUNTTYPES", "Z_2ENABLEDDATACLASSES", "Z_2PROVISIONEDDATACLASSES", "Z_4SUPPORTEDDATACLASSES", "Z_4SYNCABLEDATACLASSES"])
        #expect(accounts.mapping(entity: "AccountType", property: "accessKeys")
                == .joinTable(table: "Z_1OWNINGACCOUNTTYPES", ownerColumn: "Z_4OWNINGACCOUNTTYPES", destinationColumn: "Z_1ACCESSKEYS", orderColumn: nil))
        #expect(accounts.mapping(entity: "Account", property: "childAccounts") == .toManyThroughInverse(table: "ZACCOUNT", column: "ZPARENTACCOUNT", orderColumn: nil))
        let netusage = CoreDataLayout(try #require(try CoreDataFixtureSchema.model("netusage.sqlite")))
        #expect(netusage.mapping(entity: "App", property: "hasTypicalUsage") == .toManyThroughInverse(table: "ZAPPTYPICALUSAGE", column: "ZHASAPP", orderColumn: "Z_FOK_HASAPP"))
        #expect(netusage.mapping(entity: "AppTypicalUsage", property: "hasApp") == .toOne(table: "ZAPPTYPICALUSAGE", column: "ZHASAPP", entityColumn: nil, orderColumn: "Z_FOK_HASAPP"))
        #expect(netusage.mapping(entity: "LiveUsage", property: "hasProcess") == .toOne(table: "ZLIVEUSAGE", column: "ZHASPROCESS", entityColumn: "Z15_HASPROCESS", orderColumn: nil))
    }

    @Test(arguments: [
        (AttributeType.integer16, "INTEGER"), (.integer32, "INTEGER"), (.integer64, "INTEGER"), (.boolean, "INTEGER"), (.decimal, "DECIMAL"),
        (.double, "FLOAT"), (.float, "FLOAT"), (.date, "TIMESTAMP"), (.string, "VARCHAR"), (.uri, "VARCHAR"), (.uuid, "BLOB"),
        (.binary, "BLOB"), (.transformable, "BLOB"),
    ])
    func declaredTypes(_ type: AttributeType, _ declared: String) {
        #expect(CoreDataLayout.declaredType(of: type) == declared)
    }
}
