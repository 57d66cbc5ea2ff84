import CoreDataFixtures
import Foundation
import Testing
@testable import SiftStore

/// Core Data's model read from real stores' `Z_MODELCACHE`, checked against their Z tables
/// (`Z_PRIMARYKEY`'s entities and super-entities, the Z<NAME> columns), by hand.
@Suite struct CoreDataModelCacheTests {
    struct Expectation: CustomTestStringConvertible, Sendable {
        let store: String
        let entityCount: Int
        /// Sub-entity → parent, as Z_PRIMARYKEY.Z_SUPER says.
        let parents: [String: String]
        /// "Entity.attribute" → type.
        let attributes: [String: AttributeType]
        /// "Entity.relationship" → (destination, to-many).
        let relationships: [String: (String, Bool)]
        var testDescription: String { store }
    }

    static let expectations: [Expectation] = [
        Expectation(store: "Accounts3.sqlite", entityCount: 7, parents: [:],
                    attributes: ["Account.date": .date, "Account.active": .boolean, "Account.username": .string, "Account.dataclassProperties": .transformable],
                    relationships: ["Account.accountType": ("AccountType", false), "Account.parentAccount": ("Account", false)]),
        Expectation(store: "netusage.sqlite", entityCount: 18, parents: ["App": "Process"],
                    attributes: ["AppExperience.timeStamp": .date], relationships: ["App.hasAppExperience": ("AppExperience", true)]),
        Expectation(store: "NoteStore.sqlite", entityCount: 18,
                    parents: ["ICAccountData": "ICCloudSyncingObject", "ICAttachment": "ICCloudSyncingObject", "ICAttachmentPreviewImage": "ICCloudSyncingObject",
                              "ICDeviceMigrationState": "ICCloudSyncingObject", "ICHashtag": "ICCloudSyncingObject", "ICInlineAttachment": "ICCloudSyncingObject",
                              "ICLegacyTombstone": "ICCloudSyncingObject", "ICMedia": "ICCloudSyncingObject", "ICNote": "ICCloudSyncingObject",
                              "ICNoteContainer": "ICCloudSyncingObject", "ICAccount": "ICNoteContainer", "ICFolder": "ICNoteContainer",
                              "ICAttachmentLocation": "ICLocation"],
                    attributes: [:], relationships: [:]),
        Expectation(store: "IMODb2.sqlite", entityCount: 7, parents: [:], attributes: [:], relationships: [:]),
        Expectation(store: "DataUsage.sqlite", entityCount: 9, parents: [:], attributes: [:], relationships: [:]),
        Expectation(store: "knowledgec-10.14.db", entityCount: 17,
                    parents: ["Category": "Object", "Event": "Object", "Identifier": "Object", "Quantity": "Object", "Relation": "Object"],
                    attributes: [:], relationships: [:]),
    ]

    /// The store's `Z_MODELCACHE.Z_CONTENT`, read with SQLite read-only and immutable; nil for a NULL or missing cache.
    static func modelCache(_ store: String) throws -> Data? {
        try CoreDataFixtureSchema.modelCache(store)
    }

    @Test(arguments: expectations)
    func modelFromTheStoresCache(_ expected: Expectation) throws {
        let before = try CoreDataFixtures.checksum(CoreDataFixtures.url(expected.store))
        let cache = try #require(try Self.modelCache(expected.store))
        let decoded = try CoreDataModel(modelCache: cache)
        let model = decoded.model
        #expect(model.entities.count == expected.entityCount)
        #expect(decoded.entities.count == expected.entityCount)
        var parents: [String: String] = [:]
        for entity in model.entities { if let parent = entity.parent { parents[entity.name] = parent } }
        #expect(parents == expected.parents)
        for (path, type) in expected.attributes {
            let parts = path.split(separator: ".").map(String.init)
            let attribute = try #require(model.entity(named: parts[0])?.attribute(named: parts[1]), "\(path)")
            #expect(attribute.type == type, "\(path)")
        }
        for (path, (destination, toMany)) in expected.relationships {
            let parts = path.split(separator: ".").map(String.init)
            let relationship = try #require(model.entity(named: parts[0])?.relationship(named: parts[1]), "\(path)")
            #expect(relationship.destination == destination, "\(path)")
            #expect(relationship.isToMany == toMany, "\(path)")
        }
        #expect(!decoded.versionIdentifiers.isEmpty)
        #expect(try CoreDataFixtures.checksum(CoreDataFixtures.url(expected.store)) == before)
    }

    @Test(arguments: CoreDataFixtures.storesWithoutModelCache)
    func storesWithoutACache(_ store: String) throws {
        #expect(try Self.modelCache(store) == nil)
    }
}
