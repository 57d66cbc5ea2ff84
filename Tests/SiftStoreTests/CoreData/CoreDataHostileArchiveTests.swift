import CoreDataFixtures
import Foundation
import Testing
@testable import SiftStore

/// Builds keyed archives object by object, in shapes no archiver writes: wrong classes, loops,
/// huge and deep graphs. Object 1 is the root.
final class HostileArchiveBuilder {
    private(set) var objects: [Any] = ["$null", "root placeholder"]
    private var classes: [String: Int] = [:]

    static func uid(_ n: Int) -> [String: Any] { CoreDataHostileInputTests.uid(n) }

    @discardableResult func add(_ object: Any) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    func set(_ index: Int, _ object: Any) { objects[index] = object }

    /// A reference to the class object `name`, made once.
    func klass(_ name: String) -> [String: Any] {
        if let index = classes[name] { return Self.uid(index) }
        let index = add(["$classname": name, "$classes": [name, "NSObject"]] as [String: Any])
        classes[name] = index
        return Self.uid(index)
    }

    func string(_ text: String) -> [String: Any] { Self.uid(add(text)) }

    /// An `NSDictionary` of the given keys and value references.
    func dictionary(_ entries: [(String, Int)]) -> Int {
        add(["$class": klass("NSDictionary"), "NS.keys": entries.map { string($0.0) }, "NS.objects": entries.map { Self.uid($0.1) }] as [String: Any])
    }

    func data() throws -> Data { try CoreDataHostileInputTests.archive(objects) }

    /// A model archive: each entity a name, a parent (an index into `entities`) and String
    /// attributes; `edit` may change the objects before the archive is written.
    static func model(_ entities: [(name: String, parent: Int?, attributes: [String])], edit: (HostileArchiveBuilder, [Int]) -> Void = { _, _ in }) throws -> Data {
        let builder = HostileArchiveBuilder()
        let uids = entities.map { _ in builder.add("entity placeholder") }
        for (index, entity) in entities.enumerated() {
            var properties: [(String, Int)] = []
            for attribute in entity.attributes {
                properties.append((attribute, builder.add([
                    "$class": builder.klass("NSAttributeDescription"), "NSPropertyName": builder.string(attribute),
                    "NSAttributeType": 700, "NSIsOptional": true, "NSEntity": uid(uids[index]),
                ] as [String: Any])))
            }
            var fields: [String: Any] = [
                "$class": builder.klass("NSEntityDescription"), "NSEntityName": builder.string(entity.name),
                "NSProperties": uid(builder.dictionary(properties)),
            ]
            if let parent = entity.parent { fields["NSSuperentity"] = uid(uids[parent]) }
            builder.set(uids[index], fields)
        }
        let list = builder.dictionary(zip(entities, uids).map { ($0.0.name, $0.1) })
        builder.set(1, ["$class": builder.klass("NSManagedObjectModel"), "NSEntities": uid(list)] as [String: Any])
        edit(builder, uids)
        return try builder.data()
    }
}

/// Hostile archives and model caches: each gives a ``CoreDataModelError`` saying what is wrong
/// (the error the store turns into its model-less mode), never a trap, a hang or unbounded memory.
@Suite struct CoreDataHostileArchiveTests {
    static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as CoreDataModelError {
            return error.message
        } catch {
            return "not a CoreDataModelError: \(error)"
        }
    }

    @Test func theBuilderMakesAValidModel() throws {
        let data = try HostileArchiveBuilder.model([("A", nil, ["x", "y"]), ("B", 0, ["z"])])
        let model = try CoreDataModel(archive: data).model
        #expect(model.entities.map(\.name) == ["A", "B"])
        #expect(model.entity(named: "B")?.parent == "A")
        #expect(model.entity(named: "B")?.attribute(named: "x")?.type == .string)
    }

    /// Each kind of damage and the words its error must contain.
    static let damages: [(String, [(name: String, parent: Int?, attributes: [String])], @Sendable (HostileArchiveBuilder, [Int]) -> Void, String)] = [
        ("root of the wrong class", [("A", nil, [])], { b, uids in b.set(1, ["$class": b.klass("NSEntityDescription")] as [String: Any]) },
         "holds a NSEntityDescription, not an NSManagedObjectModel"),
        ("entity of the wrong class", [("A", nil, [])], { b, uids in b.set(uids[0], ["$class": b.klass("NSAttributeDescription")] as [String: Any]) },
         "holds a NSAttributeDescription, not an NSEntityDescription"),
        ("entity list that is a string", [("A", nil, [])], { b, _ in
            b.set(1, ["$class": b.klass("NSManagedObjectModel"), "NSEntities": b.string("entities")] as [String: Any])
        }, "is not a keyed object"),
        ("entity list that holds the model", [("A", nil, [])], { b, _ in
            let list = b.dictionary([("A", 1)])
            b.set(1, ["$class": b.klass("NSManagedObjectModel"), "NSEntities": HostileArchiveBuilder.uid(list)] as [String: Any])
        }, "holds a NSManagedObjectModel, not an NSEntityDescription"),
        ("entity that is its own parent", [("A", 0, [])], { _, _ in }, "its inheritance loops through 'A'"),
        ("inheritance loop", [("A", 1, []), ("B", 0, [])], { _, _ in }, "its inheritance loops through"),
        ("an entity listed twice", [("A", nil, [])], { b, uids in
            let list = b.dictionary([("A", uids[0]), ("A2", uids[0])])
            b.set(1, ["$class": b.klass("NSManagedObjectModel"), "NSEntities": HostileArchiveBuilder.uid(list)] as [String: Any])
        }, "lists one entity twice"),
        ("two entities of one name", [("A", nil, []), ("A", nil, [])], { _, _ in }, "does not hold together"),
        ("a UID past the end", [("A", nil, [])], { b, uids in
            b.set(uids[0], ["$class": b.klass("NSEntityDescription"), "NSEntityName": HostileArchiveBuilder.uid(1_000_000)] as [String: Any])
        }, "refers to object 1000000"),
        ("a class that is not a class", [("A", nil, [])], { b, uids in
            b.set(uids[0], ["$class": b.string("NSEntityDescription")] as [String: Any])
        }, "has a $class that is not a class"),
        ("a default value that contains itself", [("A", nil, ["x"])], { b, uids in
            let array = b.add("array placeholder")
            b.set(array, ["$class": b.klass("NSArray"), "NS.objects": [HostileArchiveBuilder.uid(array)]] as [String: Any])
            let attribute = b.add(["$class": b.klass("NSAttributeDescription"), "NSPropertyName": b.string("x"), "NSAttributeType": 700,
                                   "NSEntity": HostileArchiveBuilder.uid(uids[0]), "NSDefaultValue": HostileArchiveBuilder.uid(array)] as [String: Any])
            b.set(uids[0], ["$class": b.klass("NSEntityDescription"), "NSEntityName": b.string("A"),
                            "NSProperties": HostileArchiveBuilder.uid(b.dictionary([("x", attribute)]))] as [String: Any])
        }, "contains itself (a cycle)"),
        ("a default value nested 100 deep", [("A", nil, ["x"])], { b, uids in
            var inner = b.add("leaf")
            for _ in 0..<100 { inner = b.add(["$class": b.klass("NSArray"), "NS.objects": [HostileArchiveBuilder.uid(inner)]] as [String: Any]) }
            let attribute = b.add(["$class": b.klass("NSAttributeDescription"), "NSPropertyName": b.string("x"), "NSAttributeType": 700,
                                   "NSEntity": HostileArchiveBuilder.uid(uids[0]), "NSDefaultValue": HostileArchiveBuilder.uid(inner)] as [String: Any])
            b.set(uids[0], ["$class": b.klass("NSEntityDescription"), "NSEntityName": b.string("A"),
                            "NSProperties": HostileArchiveBuilder.uid(b.dictionary([("x", attribute)]))] as [String: Any])
        }, "nest more than \(KeyedArchive.maximumDepth) deep"),
        ("an unknown attribute type", [("A", nil, ["x"])], { b, uids in
            let attribute = b.add(["$class": b.klass("NSAttributeDescription"), "NSPropertyName": b.string("x"), "NSAttributeType": 4242,
                                   "NSEntity": HostileArchiveBuilder.uid(uids[0])] as [String: Any])
            b.set(uids[0], ["$class": b.klass("NSEntityDescription"), "NSEntityName": b.string("A"),
                            "NSProperties": HostileArchiveBuilder.uid(b.dictionary([("x", attribute)]))] as [String: Any])
        }, "unknown attribute type 4242"),
        ("a relationship to an attribute", [("A", nil, ["x"])], { b, uids in
            let relationship = b.add(["$class": b.klass("NSRelationshipDescription"), "NSPropertyName": b.string("r"),
                                      "NSEntity": HostileArchiveBuilder.uid(uids[0]), "NSDestinationEntity": HostileArchiveBuilder.uid(1)] as [String: Any])
            b.set(uids[0], ["$class": b.klass("NSEntityDescription"), "NSEntityName": b.string("A"),
                            "NSProperties": HostileArchiveBuilder.uid(b.dictionary([("r", relationship)]))] as [String: Any])
        }, "its destination is not an entity of the model"),
    ]

    @Test(arguments: damages.indices)
    func damagedModel(_ index: Int) throws {
        let (name, entities, edit, words) = Self.damages[index]
        let data = try HostileArchiveBuilder.model(entities, edit: edit)
        let message = Self.failure { _ = try CoreDataModel(archive: data) }
        #expect(message?.contains(words) == true, "\(name): \(message ?? "no error")")
    }

    /// Inheritance deeper than the limit is refused; at the limit it is read.
    @Test func inheritanceDepth() throws {
        let limit = CoreDataModelDecoder.maximumInheritanceDepth
        func chain(_ depth: Int) -> [(name: String, parent: Int?, attributes: [String])] {
            (0...depth).map { ("E\($0)", $0 == 0 ? nil : $0 - 1, ["a\($0)"]) }
        }
        #expect(try CoreDataModel(archive: HostileArchiveBuilder.model(chain(limit))).model.entities.count == limit + 1)
        let message = Self.failure { _ = try CoreDataModel(archive: HostileArchiveBuilder.model(chain(limit + 1))) }
        #expect(message?.contains("inheritance nests more than \(limit) deep") == true, "\(message ?? "no error")")
    }

    @Test func tooManyEntities() throws {
        let entities = (0...CoreDataModelDecoder.maximumEntities).map { (name: "E\($0)", parent: Int?.none, attributes: [String]()) }
        let message = Self.failure { _ = try CoreDataModel(archive: HostileArchiveBuilder.model(entities)) }
        #expect(message?.contains("more than \(CoreDataModelDecoder.maximumEntities) entities") == true, "\(message ?? "no error")")
    }

    /// A root with 1,000 attributes and 1,001 sub-entities would make a model of a million
    /// inherited properties from an archive of a few thousand objects.
    @Test func inheritedPropertiesAreBounded() throws {
        let root = (name: "Root", parent: Int?.none, attributes: (0..<1000).map { "a\($0)" })
        let children = (0...1000).map { (name: "C\($0)", parent: Int?(0), attributes: [String]()) }
        let message = Self.failure { _ = try CoreDataModel(archive: HostileArchiveBuilder.model([root] + children)) }
        #expect(message?.contains("more than \(CoreDataModelDecoder.maximumPropertySlots) properties") == true, "\(message ?? "no error")")
    }

    /// 1,000 entities sharing one list of 1,000 properties (each owned by another entity): reading
    /// it once per entity is a million property reads from an archive of a few thousand objects.
    @Test func sharedListsMeterTheWork() throws {
        let data = try HostileArchiveBuilder.model((0..<1000).map { ("E\($0)", nil, []) }) { b, uids in
            let owner = uids[0]
            let shared = b.dictionary((0..<1000).map { i in
                ("p\(i)", b.add(["$class": b.klass("NSAttributeDescription"), "NSPropertyName": b.string("p\(i)"), "NSAttributeType": 700,
                                 "NSEntity": HostileArchiveBuilder.uid(owner)] as [String: Any]))
            })
            for (i, entity) in uids.enumerated() {
                b.set(entity, ["$class": b.klass("NSEntityDescription"), "NSEntityName": b.string("E\(i)"),
                               "NSProperties": HostileArchiveBuilder.uid(shared)] as [String: Any])
            }
        }
        let message = Self.failure { _ = try CoreDataModel(archive: data) }
        #expect(message?.contains("steps to read") == true, "\(message ?? "no error")")
    }

    /// A real cache spends less than an eighth of its allowance.
    @Test(arguments: CoreDataFixtures.storesWithModelCache)
    func realCachesSpendLittle(_ store: String) throws {
        let archive = try KeyedArchive(RawInflate.inflate(try #require(try CoreDataFixtureSchema.modelCache(store))))
        _ = try CoreDataModelDecoder.decode(archive)
        #expect(archive.meter.spent > 0)
        #expect(archive.meter.spent * 8 < archive.meter.limit, "\(archive.meter.spent) steps of \(archive.meter.limit)")
    }

    /// A binary property list by hand: the objects' bytes, 4-byte offsets, 1-byte references,
    /// object 0 at the top; the trailer may claim another object count.
    static func propertyList(_ objects: [[UInt8]], claimedCount: UInt64? = nil) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt32] = []
        for object in objects {
            offsets.append(UInt32(bytes.count))
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 24), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)] }
        func be64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(v >> (56 - 8 * UInt64($0)) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, 4, 1] + be64(claimedCount ?? UInt64(objects.count)) + be64(0) + be64(UInt64(table))
        return Data(bytes)
    }

    @Test func objectCountLimit() {
        #expect(Self.failure { _ = try KeyedArchive(Self.propertyList(Array(repeating: [0x08], count: 10))) }?.contains("top object is not a dictionary") == true)
        let many = Array(repeating: [UInt8(0x08)], count: PropertyListObjectTable.maximumObjects + 1)
        let message = Self.failure { _ = try KeyedArchive(Self.propertyList(many)) }
        #expect(message?.contains("more than \(PropertyListObjectTable.maximumObjects)") == true, "\(message ?? "no error")")
        let claimed = Self.failure { _ = try KeyedArchive(Self.propertyList(Array(repeating: [0x08], count: 10), claimedCount: 1 << 40)) }
        #expect(claimed?.contains("more than the file holds") == true, "\(claimed ?? "no error")")
    }

    /// An array, a dictionary and a string whose lengths say 2^62.
    @Test(arguments: [UInt8(0xAF), 0xDF, 0x5F, 0x6F, 0x4F])
    func hugeMemberCount(_ marker: UInt8) {
        let huge: [UInt8] = [marker, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]
        let message = Self.failure { _ = try KeyedArchive(Self.propertyList([huge, [0x08]])) }
        #expect(message?.contains("object 0 claims") == true || message?.contains("object 0 runs past") == true, "\(message ?? "no error")")
    }

    /// A raw deflate stream of fixed-Huffman blocks: one literal, then `copies` matches of 258
    /// bytes at distance 1 — 13 bits for each 258 bytes out.
    static func deflateBomb(copies: Int) -> Data {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var count = 0
        func put(_ value: UInt32, _ bits: Int) {
            buffer |= value << UInt32(count)
            count += bits
            while count >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }
        func code(_ value: UInt32, _ bits: Int) {  // Huffman codes go most significant bit first
            var reversed: UInt32 = 0
            for i in 0..<bits { reversed |= (value >> UInt32(i) & 1) << UInt32(bits - 1 - i) }
            put(reversed, bits)
        }
        put(1, 1)
        put(1, 2)  // the final block, fixed Huffman codes
        code(0x30 + 0x41, 8)  // the literal "A"
        for _ in 0..<copies {
            code(0b1100_0101, 8)  // length code 285: 258 bytes
            code(0, 5)  // distance code 0: distance 1
        }
        code(0, 7)  // end of block
        if count > 0 { out.append(UInt8(buffer & 0xFF)) }
        return Data(out)
    }

    @Test func deflateBomb() throws {
        let small = Self.deflateBomb(copies: 10)
        #expect(try RawInflate.inflate(small) == Data(repeating: 0x41, count: 1 + 10 * 258))
        // 300,000 copies: 77 MB from 488 KB, past the 64 MiB bound.
        let bomb = Self.deflateBomb(copies: 300_000)
        #expect(bomb.count < 500_000)
        let message = Self.failure { _ = try CoreDataModel(modelCache: bomb) }
        #expect(message?.contains("inflates to more than \(RawInflate.defaultLimit) bytes") == true, "\(message ?? "no error")")
    }

    /// Every prefix of a real model cache, compressed and inflated, is an error.
    @Test func truncatedRealCache() throws {
        let cache = try #require(try CoreDataFixtureSchema.modelCache("IMODb2.sqlite"))
        let archive = try RawInflate.inflate(cache)
        for cut in stride(from: 0, to: cache.count, by: max(1, cache.count / 97)) {
            #expect(Self.failure { _ = try CoreDataModel(modelCache: cache.prefix(cut)) } != nil, "cache cut at \(cut)")
        }
        for cut in stride(from: 0, to: archive.count, by: max(1, archive.count / 97)) {
            #expect(Self.failure { _ = try CoreDataModel(archive: archive.prefix(cut)) } != nil, "archive cut at \(cut)")
        }
    }

    /// A real archive with one byte changed, at many places: a model or an error, never a trap.
    @Test func flippedBytesInARealArchive() throws {
        let archive = try RawInflate.inflate(try #require(try CoreDataFixtureSchema.modelCache("Accounts3.sqlite")))
        var errors = 0
        for position in stride(from: 0, to: archive.count, by: 37) {
            var damaged = archive
            damaged[position] ^= 0x5A
            if Self.failure({ _ = try CoreDataModel(archive: damaged) }) != nil { errors += 1 }
        }
        #expect(errors > 0)
    }
}
