import CoreDataFixtures
import Foundation
import Testing
@testable import SiftStore

/// A model written as Core Data's model cache (``CoreDataModel/modelCache()``: an
/// `NSKeyedArchiver` archive of `NSManagedObjectModel`, raw-deflated) reads back, through the
/// decoder that reads real stores' caches, as the same model: entities, parents, abstractness,
/// attributes with their types, optionality and defaults, relationships with destinations,
/// inverses, counts, delete rules and order, indexes and uniqueness constraints.
@Suite struct CoreDataModelCacheWritingTests {
    /// Everything the model says, as Sift's model JSON, and what Core Data's details keep.
    static func same(_ a: CoreDataModel, _ b: CoreDataModel, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(JSONModelFormat.write(a.model) == JSONModelFormat.write(b.model), "\(label)", sourceLocation: sourceLocation)
        // (A real cache repeats inherited attributes in each sub-entity; the written one lists each once.)
        for entity in a.model.entities {
            let own = Set(entity.ownAttributes.map(\.name))
            #expect(a.entities[entity.name]?.attributeTypeCodes.filter { own.contains($0.key) } == b.entities[entity.name]?.attributeTypeCodes,
                    "\(label): \(entity.name)", sourceLocation: sourceLocation)
        }
        #expect(a.entities.mapValues(\.className) == b.entities.mapValues(\.className), "\(label)", sourceLocation: sourceLocation)
        #expect(a.entities.mapValues(\.attributeFlags) == b.entities.mapValues(\.attributeFlags), "\(label)", sourceLocation: sourceLocation)
        #expect(a.versionIdentifiers == b.versionIdentifiers, "\(label)", sourceLocation: sourceLocation)
    }

    /// Each fixture's cache, decoded, written again and decoded: the same model.
    @Test(arguments: CoreDataFixtures.storesWithModelCache)
    func aFixturesCacheWrittenAgainIsTheSameModel(_ store: String) throws {
        let model = try #require(try CoreDataFixtureSchema.model(store))
        let again = try CoreDataModel(modelCache: model.modelCache(), name: model.model.name)
        Self.same(model, again, store)
    }

    /// A model with every kind of part, written and read back.
    @Test func aModelOfEveryPartReadsBack() throws {
        let json = #"""
        {"name": "Shop", "entities": [
          {"name": "Item", "abstract": true, "attributes": [
             {"name": "title", "type": "String", "optional": false, "default": "untitled"},
             {"name": "price", "type": "Double", "default": 1.5},
             {"name": "count", "type": "Integer 32", "default": 3},
             {"name": "onSale", "type": "Boolean", "default": true},
             {"name": "added", "type": "Date"},
             {"name": "photo", "type": "Binary"},
             {"name": "code", "type": "UUID"}],
           "relationships": [
             {"name": "shelf", "destination": "Shelf", "inverse": "items", "deleteRule": "nullify"},
             {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "items", "deleteRule": "nullify"}],
           "indexes": [["title", "price"]],
           "uniquenessConstraints": [["title"]]},
          {"name": "Book", "parent": "Item", "attributes": [{"name": "isbn", "type": "String"}]},
          {"name": "Shelf", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [{"name": "items", "destination": "Item", "toMany": true, "ordered": true, "inverse": "shelf", "deleteRule": "cascade"}]},
          {"name": "Tag", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "tags", "deleteRule": "deny", "minCount": 1, "maxCount": 5}]}
        ]}
        """#
        let model = CoreDataModel(deriving: try JSONModelFormat.read(Data(json.utf8)))
        let cache = try model.modelCache()
        // Raw deflate: no zlib header, and smaller than the archive.
        #expect(cache.first != 0x78)
        #expect(try RawInflate.inflate(cache) == CoreDataModelEncoder.archive(model))
        let read = try CoreDataModel(modelCache: cache, name: "Shop")
        // Read back once, the model is what it is again (a to-one's counts come back as Core Data
        // keeps them, 0 and 1).
        let again = try CoreDataModel(modelCache: read.modelCache(), name: "Shop")
        #expect(JSONModelFormat.write(again.model) == JSONModelFormat.write(read.model))
        // (The decoder, as every model file's reader, lists entities and properties by name.)
        #expect(read.model.entities.map(\.name) == model.model.entities.map(\.name).sorted())
        for var entity in model.model.entities {
            entity.ownAttributes.sort { $0.name < $1.name }
            entity.ownRelationships.sort { $0.name < $1.name }
            let back = try #require(read.model.entity(named: entity.name))
            #expect(back.ownAttributes.map(\.name) == entity.ownAttributes.map(\.name))
            #expect(back.ownAttributes.map(\.type) == entity.ownAttributes.map(\.type))
            #expect(back.ownAttributes.map(\.isOptional) == entity.ownAttributes.map(\.isOptional))
            #expect(back.ownAttributes.map { $0.defaultValue.map { "\($0)" } } == entity.ownAttributes.map { $0.defaultValue.map { "\($0)" } })
            #expect(back.ownRelationships.map(\.name) == entity.ownRelationships.map(\.name))
            #expect(back.ownRelationships.map(\.destination) == entity.ownRelationships.map(\.destination))
            #expect(back.ownRelationships.map(\.inverse) == entity.ownRelationships.map(\.inverse))
            #expect(back.ownRelationships.map(\.isToMany) == entity.ownRelationships.map(\.isToMany))
            #expect(back.ownRelationships.map(\.isOrdered) == entity.ownRelationships.map(\.isOrdered))
            #expect(back.ownRelationships.map(\.deleteRule) == entity.ownRelationships.map(\.deleteRule))
            #expect(back.indexes == entity.indexes)
            #expect(back.uniquenessConstraints == entity.uniquenessConstraints)
            #expect(back.parent == entity.parent)
            #expect(back.isAbstract == entity.isAbstract)
        }
        let tagItems = try #require(read.model.entity(named: "Tag")?.relationship(named: "items"))
        #expect(tagItems.minCount == 1 && tagItems.maxCount == 5)
        #expect(read.model.entity(named: "Tag")?.relationship(named: "items")?.deleteRule == .deny)
        #expect(read.model.entity(named: "Shelf")?.relationship(named: "items")?.isOrdered == true)
        #expect(read.model.entity(named: "Item")?.isAbstract == true)
        #expect(read.model.entity(named: "Book")?.parent == "Item")
        guard case .string("untitled")? = read.model.entity(named: "Item")?.attribute(named: "title")?.defaultValue else {
            Issue.record("the default of Item.title was not read back")
            return
        }
    }
}
