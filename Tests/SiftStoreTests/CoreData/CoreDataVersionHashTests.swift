import CoreDataFixtures
import Foundation
import Testing
@testable import SiftStore

/// Entity version hashes computed from decoded models equal the `NSStoreModelVersionHashes`
/// Core Data wrote into each fixture store's `Z_METADATA`.
@Suite struct CoreDataVersionHashTests {
    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    /// FIPS 180-4's examples, and inputs across the 55/56/64-byte padding boundaries.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ])
    func sha256(_ input: String, _ expected: String) {
        #expect(Self.hex(SHA256Hasher.hash(Array(input.utf8))) == expected)
    }

    @Test(arguments: CoreDataFixtures.storesWithModelCache)
    func cachedModelsReproduceTheStoresHashes(_ store: String) throws {
        let before = try CoreDataFixtures.checksum(CoreDataFixtures.url(store))
        let model = try #require(try CoreDataFixtureSchema.model(store))
        let expected = try CoreDataFixtureSchema.versionHashes(store)
        #expect(expected.count == model.model.entities.count)
        let computed = model.entityVersionHashes()
        #expect(computed.mapValues(Self.hex) == expected.mapValues(Self.hex))
        #expect(try CoreDataFixtures.checksum(CoreDataFixtures.url(store)) == before)
    }

    /// Recipes.sqlite predates model caches; its model is Xcode 3's `elements`, and the hashes
    /// come out the same (the to-ones' counts taken as Xcode wrote them: 1 and 1).
    @Test func recipesElementsReproduceTheStoresHashes() throws {
        let expected = try CoreDataFixtureSchema.versionHashes("Recipes.sqlite")
        #expect(expected.count == 4)
        let computed = try XcodeElementsModelTests.recipes().entityVersionHashes()
        #expect(computed.mapValues(Self.hex) == expected.mapValues(Self.hex))
    }

    /// A change to what a hash covers changes it: the optionality of one attribute, one name.
    @Test func hashesFollowTheModel() throws {
        let property = CoreDataVersionHash.property(name: "title", isOptional: true, isReadOnly: false, modifier: nil)
        #expect(property != CoreDataVersionHash.property(name: "title", isOptional: false, isReadOnly: false, modifier: nil))
        #expect(property != CoreDataVersionHash.property(name: "title", isOptional: true, isReadOnly: false, modifier: "2"))
        #expect(CoreDataVersionHash.attribute(property: property, typeCode: 700, externalStorage: false, preservesValueInHistory: false)
                != CoreDataVersionHash.attribute(property: property, typeCode: 800, externalStorage: false, preservesValueInHistory: false))
    }

    /// An entity with a derived attribute (whose expression Core Data hashes and Sift does not),
    /// and its sub-entity, have no hash; the others keep theirs.
    @Test func derivedAttributesLeaveTheirEntityWithoutAHash() throws {
        let data = try HostileArchiveBuilder.model([("A", nil, ["x"]), ("B", 0, []), ("C", nil, ["y"])]) { b, uids in
            let derived = b.add(["$class": b.klass("NSDerivedAttributeDescription"), "NSPropertyName": b.string("d"), "NSAttributeType": 300,
                                 "NSEntity": HostileArchiveBuilder.uid(uids[0])] as [String: Any])
            b.set(uids[0], ["$class": b.klass("NSEntityDescription"), "NSEntityName": b.string("A"),
                            "NSProperties": HostileArchiveBuilder.uid(b.dictionary([("d", derived)]))] as [String: Any])
        }
        let hashes = try CoreDataModel(archive: data).entityVersionHashes()
        #expect(hashes.keys.sorted() == ["C"])
    }

    /// A model guessed from a schema cannot say what the hashes cover: it has none.
    @Test func aGuessedModelHasNoHashes() throws {
        let guessed = try CoreDataSchemaModel(schema: try CoreDataFixtureSchema.read("Accounts3.sqlite"))
        #expect(guessed.model.entityVersionHashes().isEmpty)
    }
}
