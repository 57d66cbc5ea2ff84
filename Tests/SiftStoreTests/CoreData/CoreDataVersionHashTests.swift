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

    /// SHA-512: FIPS 180-4's examples, and inputs across the 111/112/128-byte padding boundaries.
    @Test(arguments: [
        ("", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        ("abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        (String(repeating: "a", count: 111), "fa9121c7b32b9e01733d034cfc78cbf67f926c7ed83e82200ef86818196921760b4beff48404df811b953828274461673c68d04e297b0eb7b2b4d60fc6b566a2"),
        (String(repeating: "a", count: 112), "c01d080efd492776a1c43bd23dd99d0a2e626d481e16782e75d54c2503b5dc32bd05f0f1ba33e568b88fd2d970929b719ecbb152f58f130a407c8830604b70ca"),
        (String(repeating: "a", count: 128), "b73d1929aa615934e61a871596b3f3b33359f42b8175602e89f7e06e5f658a243667807ed300314b95cacdd579f3e33abdfbe351909519a846d465c59582f321"),
    ])
    func sha512(_ input: String, _ expected: String) {
        #expect(Self.hex(SHA512.hash(Array(input.utf8))) == expected)
    }

    /// `NSStoreModelVersionHashesDigest` is SHA-512 over each entity's name and hash, in name
    /// order: from the store's own hashes and from the cached model's, on every fixture that
    /// has one (knowledgeC, the oldest framework version, has none).
    @Test(arguments: CoreDataFixtures.storesWithModelCache)
    func theDigestOfTheHashesIsReproduced(_ store: String) throws {
        let metadata = try #require(try CoreDataFixtureSchema.metadata(store))
        guard let digest = metadata["NSStoreModelVersionHashesDigest"] as? String else {
            #expect(store == "knowledgec-10.14.db", "\(store) has no digest")
            return
        }
        #expect(CoreDataModel.versionHashesDigest(try CoreDataFixtureSchema.versionHashes(store)) == digest)
        let model = try #require(try CoreDataFixtureSchema.model(store))
        #expect(CoreDataModel.versionHashesDigest(model.entityVersionHashes()) == digest)
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
