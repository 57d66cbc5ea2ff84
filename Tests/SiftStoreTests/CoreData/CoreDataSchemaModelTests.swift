import CoreDataFixtures
import Foundation
import Testing
@testable import SiftStore

/// ``CoreDataSchemaModel``: a model from a store's schema alone, on every fixture (with a model
/// cache or without), by hand where the schema says more than the columns, and on damaged schemas.
@Suite struct CoreDataSchemaModelTests {
    static let allStores = CoreDataFixtures.storesWithModelCache + CoreDataFixtures.storesWithoutModelCache

    /// The entities are Z_PRIMARYKEY's, and the layout of the guessed model fits the store it was
    /// read from (only `Z_FOK_` columns are extra: whether an inverse is ordered cannot be seen).
    @Test(arguments: allStores)
    func guessedModelFitsItsStore(_ store: String) throws {
        let before = try CoreDataFixtures.checksum(CoreDataFixtures.url(store))
        let schema = try CoreDataFixtureSchema.read(store)
        let guessed = try CoreDataSchemaModel(schema: schema)
        let rows = schema.primaryKeys.filter { $0.number < CoreDataStoreSchema.firstHistoryEntityNumber }
        #expect(Set(guessed.model.model.entities.map(\.name)) == Set(rows.map(\.name)))
        for row in rows where row.superNumber != 0 {
            #expect(guessed.model.model.entity(named: row.name)?.parent == rows.first { $0.number == row.superNumber }?.name, "\(row.name)")
        }
        #expect(guessed.warnings.first?.contains("holds no model") == true)
        let check = CoreDataLayout(guessed.model).check(schema)
        #expect(check.matches, "\(check.mismatches.map(\.description))")
        for difference in check.differences {
            guard case .extraColumn(_, let column) = difference, column.hasPrefix("Z_FOK_") else {
                Issue.record("unexpected difference: \(difference)")
                continue
            }
        }
        #expect(try CoreDataFixtures.checksum(CoreDataFixtures.url(store)) == before)
    }

    /// NotesV7 (a NULL model cache): to-ones from their `Z<n>_` columns, a name with its case from
    /// `Z_OfflineAction_sequenceNumber`, types from declared types.
    @Test func notesV7() throws {
        let guessed = try CoreDataSchemaModel(schema: CoreDataFixtureSchema.read("NotesV7.storedata"))
        let model = guessed.model.model
        #expect(model.entity(named: "Folder")?.relationship(named: "account")?.destination == "Account")
        #expect(model.entity(named: "Folder")?.relationship(named: "parent")?.destination == "Folder")
        #expect(model.entity(named: "OfflineAction")?.relationship(named: "note")?.destination == "Note")
        #expect(model.entity(named: "OfflineAction")?.attribute(named: "sequenceNumber")?.type == .integer64)
        #expect(model.entity(named: "Note")?.attribute(named: "datecreated")?.type == .date)
        #expect(model.entity(named: "Note")?.attribute(named: "title")?.type == .string)
        #expect(model.entity(named: "Note")?.attribute(named: "universallyuniqueid")?.type == .binary)
        // Sub-entities inherit the root's columns.
        #expect(model.entity(named: "IMAPNote")?.attribute(named: "title") != nil)
        #expect(model.entity(named: "InsertNoteAction")?.parent == "NoteAction")
    }

    /// Recipes (no cache): to-ones found by Core Data's foreign-key indexes, the destination guessed
    /// from the name where one entity has it, an Integer 64 where none does.
    @Test func recipes() throws {
        let guessed = try CoreDataSchemaModel(schema: CoreDataFixtureSchema.read("Recipes.sqlite"))
        let model = guessed.model.model
        #expect(model.entity(named: "Ingredient")?.relationship(named: "recipe")?.destination == "Recipe")
        #expect(model.entity(named: "Recipe")?.relationship(named: "image")?.destination == "Image")
        #expect(model.entity(named: "Recipe")?.attribute(named: "type")?.type == .integer64)
        #expect(model.entity(named: "Recipe")?.attribute(named: "thumbnailimage")?.type == .binary)
        #expect(model.entity(named: "Ingredient")?.attribute(named: "displayorder")?.type == .integer64)
        #expect(guessed.warnings.contains("Ingredient.recipe: a to-one relationship whose destination Recipe is guessed from its name"))
        #expect(guessed.warnings.contains { $0.hasPrefix("Recipe.type: column ZTYPE holds a to-one relationship's key") })
    }

    /// Accounts3: many-to-many relationships from the join tables; knowledgeC: names and owners
    /// from index names.
    @Test func joinTablesAndIndexNames() throws {
        let accounts = try CoreDataSchemaModel(schema: CoreDataFixtureSchema.read("Accounts3.sqlite")).model.model
        let enabled = try #require(accounts.entity(named: "Account")?.relationship(named: "enableddataclasses"))
        #expect(enabled.destination == "Dataclass" && enabled.isToMany && enabled.inverse == "enabledaccounts")
        #expect(accounts.entity(named: "AccessOptionsKey")?.relationship(named: "owningaccounttypes")?.destination == "AccountType")
        #expect(accounts.entity(named: "AccountType")?.relationship(named: "accesskeys")?.destination == "AccessOptionsKey")
        let knowledge = try CoreDataSchemaModel(schema: CoreDataFixtureSchema.read("knowledgec-10.14.db")).model.model
        #expect(knowledge.entity(named: "StructuredMetadata")?.attribute(named: "metadataHash")?.type == .string)
        #expect(knowledge.entity(named: "CustomMetadata")?.relationship(named: "object")?.destination == "Object")
        #expect(knowledge.entity(named: "Object")?.attribute(named: "uuid")?.type == .string)
        let notes = try CoreDataSchemaModel(schema: CoreDataFixtureSchema.read("NoteStore.sqlite"))
        #expect(notes.model.model.entity(named: "ICCloudSyncingObject")?.attribute(named: "identifier") != nil)
        #expect(notes.model.model.entity(named: "ICCloudState")?.relationship(named: "cloudsyncingobject")?.destination == "ICCloudSyncingObject")
        #expect(notes.warnings.contains("the persistent-history entities (Z_ENT 16001 and up) are left out"))
    }

    @Test(arguments: [
        ("Z_InstalledApp_bundleIdentifier", ["ZBUNDLEIDENTIFIER"], ["bundleIdentifier"]),
        ("Z_KeyValue_UNIQUE_domain_key", ["ZDOMAIN", "ZKEY"], ["domain", "key"]),
        ("Z_Thing_UNIQUE_a_b_c", ["ZA_B", "ZC"], ["a_b", "c"]),
        ("Z_Thing_byNameIndex", ["ZNAME"], []),
        ("Z_Other_name", ["ZNAME"], []),
    ])
    func indexNames(_ index: String, _ columns: [String], _ expected: [String]) {
        let names = CoreDataSchemaModel.namesFromIndexes([.init(name: index, table: "ZT", columns: columns)], entities: ["InstalledApp", "KeyValue", "Thing"])
        #expect(columns.compactMap { names[$0]?.1 } == expected)
    }

    /// Damaged `Z_PRIMARYKEY`s and tables: a model with warnings, never a crash.
    @Test func damagedSchemas() throws {
        let table = CoreDataStoreSchema.Table(name: "ZA", columns: [.init(name: "Z_PK", declaredType: "INTEGER"), .init(name: "ZWHEN", declaredType: "DATETIME"),
                                                                    .init(name: "Z7_X", declaredType: "INTEGER"), .init(name: "ZX.Y", declaredType: "VARCHAR"),
                                                                    .init(name: "Z", declaredType: "VARCHAR")])
        let schema = CoreDataStoreSchema(
            tables: [table, .init(name: "Z_1THINGS", columns: [.init(name: "Z_1OTHERS", declaredType: "INTEGER"), .init(name: "Z_99THINGS", declaredType: "INTEGER")])],
            primaryKeys: [.init(number: 1, name: "A", superNumber: 0), .init(number: 2, name: "B", superNumber: 3), .init(number: 3, name: "C", superNumber: 2),
                          .init(number: 4, name: "A", superNumber: 0), .init(number: 5, name: "D", superNumber: 42), .init(number: 6, name: "", superNumber: 0)])
        let guessed = try CoreDataSchemaModel(schema: schema)
        #expect(guessed.model.model.entities.map(\.name).sorted() == ["A", "B", "C", "D"])
        #expect(guessed.model.model.entity(named: "A")?.attribute(named: "when")?.type == .double)
        #expect(guessed.warnings.contains("A.when: declared type 'DATETIME' is not Core Data's: read as Double"))
        #expect(guessed.warnings.contains { $0.contains("form a cycle") })
        #expect(guessed.warnings.contains("entity D: its super-entity 42 is not in Z_PRIMARYKEY: read as a root"))
        #expect(guessed.warnings.contains("entity D: the store has no table ZD: it has no properties"))
        #expect(guessed.warnings.contains("table Z_1THINGS is not a join table Sift can read: left out"))
        #expect(guessed.warnings.contains { $0.contains("repeats or lacks a name") })
        #expect(guessed.warnings.contains("A.x.y: column ZX.Y gives a name that is taken or not a property name: left out"))
        #expect(guessed.model.model.entity(named: "A")?.attribute(named: "z")?.type == .string)
    }

    /// A join table's relationship whose name a sub-entity inherits already is left out; the
    /// rest of the model stays.
    @Test func inheritedNamesAreNotTakenTwice() throws {
        let schema = CoreDataStoreSchema(
            tables: [.init(name: "ZE", columns: [.init(name: "Z_PK", declaredType: "INTEGER"), .init(name: "ZTHINGS", declaredType: "VARCHAR")]),
                     .init(name: "ZG", columns: [.init(name: "Z_PK", declaredType: "INTEGER")]),
                     .init(name: "Z_2THINGS", columns: [.init(name: "Z_2OTHERS", declaredType: "INTEGER"), .init(name: "Z_3THINGS", declaredType: "INTEGER")]),
                     .init(name: "Z_3STUFF", columns: [.init(name: "Z_3THEM", declaredType: "INTEGER"), .init(name: "Z_1STUFF", declaredType: "INTEGER")])],
            primaryKeys: [.init(number: 1, name: "E", superNumber: 0), .init(number: 2, name: "F", superNumber: 1), .init(number: 3, name: "G", superNumber: 0)])
        let guessed = try CoreDataSchemaModel(schema: schema)
        let model = guessed.model.model
        #expect(model.entity(named: "F")?.attribute(named: "things")?.type == .string)
        #expect(model.entity(named: "G")?.relationship(named: "others") == nil)
        #expect(guessed.warnings.contains("table Z_2THINGS: relationship names F.things or G.others are taken: left out"))
        #expect(model.entity(named: "G")?.relationship(named: "stuff")?.destination == "E")
        #expect(model.entity(named: "E")?.relationship(named: "them")?.inverse == "stuff")
    }
}
