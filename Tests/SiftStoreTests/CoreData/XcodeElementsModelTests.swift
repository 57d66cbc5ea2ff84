import CoreDataFixtures
import Foundation
import SiftEvaluation
import Testing
@testable import SiftStore

/// Xcode 3's binary model (`Recipes.xcdatamodel/elements`, a keyed archive of Xcode's design
/// classes) read into a model, checked by hand and against the store Core Data made from it.
@Suite struct XcodeElementsModelTests {
    static func recipes() throws -> CoreDataModel {
        let data = try Data(contentsOf: CoreDataFixtures.url("Recipes.xcdatamodel").appendingPathComponent("elements"))
        return try CoreDataModel(xcodeElements: data, name: "Recipes")
    }

    @Test func entities() throws {
        let decoded = try Self.recipes()
        #expect(decoded.model.entities.map(\.name) == ["Image", "Ingredient", "Recipe", "RecipeType"])
        #expect(decoded.model.entities.allSatisfy { $0.parent == nil && !$0.isAbstract })
        #expect(decoded.entities["Recipe"]?.className == "Recipe")
        #expect(decoded.entities["Image"]?.className == "NSManagedObject")
        #expect(decoded.entities.values.allSatisfy { $0.transientProperties.isEmpty })
    }

    @Test(arguments: [
        ("Ingredient.name", AttributeType.string, false), ("Ingredient.amount", .string, true), ("Ingredient.displayOrder", .integer16, false),
        ("Recipe.name", .string, true), ("Recipe.prepTime", .string, true), ("Recipe.instructions", .string, true),
        ("Recipe.overview", .string, true), ("Recipe.thumbnailImage", .transformable, true),
        ("RecipeType.name", .string, true), ("Image.image", .transformable, true),
    ])
    func attributes(_ path: String, _ type: AttributeType, _ optional: Bool) throws {
        let parts = path.split(separator: ".").map(String.init)
        let attribute = try #require(try Self.recipes().model.entity(named: parts[0])?.attribute(named: parts[1]), "\(path)")
        #expect(attribute.type == type)
        #expect(attribute.isOptional == optional)
    }

    @Test func defaultValues() throws {
        let model = try Self.recipes().model
        #expect(model.entity(named: "Ingredient")?.attribute(named: "name")?.defaultValue.flatMap { if case .string(let s) = $0 { s } else { nil } } == "Ingredient Name")
        #expect(model.entity(named: "Ingredient")?.attribute(named: "displayOrder")?.defaultValue.flatMap { (value: Value) -> Int64? in if case .int(let i) = value { i } else { nil } } == 0)
        #expect(model.entity(named: "Recipe")?.attribute(named: "name")?.defaultValue.map(ValueText.text) == nil)
    }

    @Test(arguments: [
        ("Recipe.ingredients", "Ingredient", true, "recipe", DeleteRule.cascade, true),
        ("Recipe.type", "RecipeType", false, "recipes", .nullify, true),
        ("Recipe.image", "Image", false, "recipe", .cascade, true),
        ("Ingredient.recipe", "Recipe", false, "ingredients", .nullify, true),
        ("RecipeType.recipes", "Recipe", true, "type", .nullify, true),
        ("Image.recipe", "Recipe", false, "image", .nullify, false),
    ])
    func relationships(_ path: String, _ destination: String, _ toMany: Bool, _ inverse: String, _ rule: DeleteRule, _ optional: Bool) throws {
        let parts = path.split(separator: ".").map(String.init)
        let relationship = try #require(try Self.recipes().model.entity(named: parts[0])?.relationship(named: parts[1]), "\(path)")
        #expect(relationship.destination == destination)
        #expect(relationship.isToMany == toMany)
        #expect(relationship.inverse == inverse)
        #expect(relationship.deleteRule == rule)
        #expect(relationship.isOptional == optional)
        #expect(!relationship.isOrdered)
    }

    /// The layout of the decoded model is the schema Core Data wrote into Recipes.sqlite
    /// (tables, columns by name, declared types, Z_PRIMARYKEY), with no difference at all.
    @Test func layoutMatchesRecipesStore() throws {
        let store = "Recipes.sqlite"
        let before = try CoreDataFixtures.checksum(CoreDataFixtures.url(store))
        let layout = CoreDataLayout(try Self.recipes())
        let schema = try CoreDataFixtureSchema.read(store)
        let check = layout.check(schema)
        #expect(check.matches)
        #expect(check.differences == [], "\(check.differences.map(\.description))")
        // The same columns, by name (Recipes is older Core Data: its column order differs).
        for table in schema.tables where !CoreDataStoreSchema.bookkeepingTables.contains(table.name) {
            let computed = try #require(layout.table(named: table.name), "\(table.name)")
            #expect(Set(computed.columns.map { "\($0.name) \($0.declaredType)" }) == Set(table.columns.map { "\($0.name) \($0.declaredType)" }), "\(table.name)")
        }
        #expect(layout.mapping(entity: "Recipe", property: "ingredients") == .toManyThroughInverse(table: "ZINGREDIENT", column: "ZRECIPE", orderColumn: nil))
        #expect(try CoreDataFixtures.checksum(CoreDataFixtures.url(store)) == before)
    }

    /// `ModelFile` and `XcodeModelFormat` load a `.xcdatamodel` folder holding only `elements`.
    @Test func modelFileLoadsTheFolder() throws {
        let model = try ModelFile.load(CoreDataFixtures.url("Recipes.xcdatamodel"))
        #expect(model.name == "Recipes")
        #expect(model.entities.map(\.name) == ["Image", "Ingredient", "Recipe", "RecipeType"])
        #expect(model.entity(named: "Recipe")?.relationship(named: "ingredients")?.isToMany == true)
    }

    /// A damaged `elements` file is an error naming the file, never a crash.
    @Test func damagedElementsFile() throws {
        let data = try Data(contentsOf: CoreDataFixtures.url("Recipes.xcdatamodel").appendingPathComponent("elements"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-elements-\(UUID().uuidString)/Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try data.prefix(data.count / 2).write(to: folder.appendingPathComponent("elements"))
        #expect { try ModelFile.load(folder) } throws: { error in
            let message = (error as? ModelError)?.message ?? ""
            return message.contains("Broken.xcdatamodel/elements: ") && message.contains("binary property list")
        }
    }

    /// A model cache's archive is not Xcode's model, and the other way round: each says so.
    @Test func wrongKindOfArchive() throws {
        let data = try Data(contentsOf: CoreDataFixtures.url("Recipes.xcdatamodel").appendingPathComponent("elements"))
        #expect { try CoreDataModel(archive: data) } throws: { ($0 as? CoreDataModelError)?.message.contains("XDPMModel, not an NSManagedObjectModel") == true }
        let cache = try #require(try CoreDataFixtureSchema.modelCache("IMODb2.sqlite"))
        let archive = try RawInflate.inflate(cache)
        #expect { try CoreDataModel(xcodeElements: archive) } throws: { ($0 as? CoreDataModelError)?.message.contains("NSManagedObjectModel, not Xcode's model") == true }
    }
}
