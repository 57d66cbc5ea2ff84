import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// The atomic store files (JSON and binary property list): every attribute type and every kind
/// of relationship survives a save and a reopen exactly; a rejected import or a failed save
/// leaves the file byte for byte as it was; a file that is not a Sift store is a clear
/// `.corruptStore` error and is never written over; saves leave no temporary files behind.
@Suite struct StoreFileTests {
    static let fileKinds: [AtomicStore.Kind] = [.json, .binaryPropertyList]

    static func url(in directory: URL, _ kind: AtomicStore.Kind, name: String = "store") -> URL {
        directory.appendingPathComponent(kind == .json ? "\(name).json" : "\(name).plist")
    }

    // MARK: A model with every attribute type and every kind of relationship

    static let modelJSON = #"""
    {"name": "Everything", "entities": [
      {"name": "Thing", "attributes": [
         {"name": "i16", "type": "Integer 16"}, {"name": "i32", "type": "Integer 32"}, {"name": "i64", "type": "Integer 64"},
         {"name": "dec", "type": "Decimal"}, {"name": "dbl", "type": "Double"}, {"name": "flt", "type": "Float"},
         {"name": "str", "type": "String"}, {"name": "flag", "type": "Boolean"}, {"name": "when", "type": "Date"},
         {"name": "blob", "type": "Binary"}, {"name": "uid", "type": "UUID"}, {"name": "link", "type": "URI"},
         {"name": "xform", "type": "Transformable"},
         {"name": "label", "type": "String", "optional": false, "default": "unlabelled"}],
       "relationships": [
         {"name": "owner", "destination": "Owner", "inverse": "things"},
         {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "things"},
         {"name": "twin", "destination": "Thing", "inverse": "twin"},
         {"name": "playlists", "destination": "Playlist", "toMany": true, "inverse": "items"}],
       "uniquenessConstraints": [["uid"]]},
      {"name": "SpecialThing", "parent": "Thing", "attributes": [{"name": "extra", "type": "String"}]},
      {"name": "Owner", "attributes": [{"name": "name", "type": "String", "optional": false}],
       "relationships": [{"name": "things", "destination": "Thing", "toMany": true, "inverse": "owner", "deleteRule": "cascade"}]},
      {"name": "Tag", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "things", "destination": "Thing", "toMany": true, "inverse": "tags"}]},
      {"name": "Playlist", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "items", "destination": "Thing", "toMany": true, "ordered": true, "inverse": "playlists"}]}
    ]}
    """#

    static func model() throws -> DataModel { try JSONModelFormat.read(Data(modelJSON.utf8)) }

    static let allBytes = Data((0...255).map { UInt8($0) })

    /// Objects inserted through the API with values of every type, extreme ones included;
    /// relationships are set after every object exists, some pointing forward.
    static func fill(_ store: AtomicStore) throws {
        try store.insert("Owner", id: "owner-1", ["name": .string("Ada")])
        try store.insert("Owner", id: "owner-2", ["name": .string("Grace")])
        try store.insert("Tag", id: "tag-a", ["name": .string("a")])
        try store.insert("Tag", id: "tag-b", ["name": .string("b")])
        try store.insert("Thing", id: "t-max", [
            "i16": .int(Int64(Int16.max)), "i32": .int(Int64(Int32.min)), "i64": .int(Int64.max),
            "dec": .decimal(try #require(Decimal(string: "12345678901234567890.123456789", locale: nil))),
            "dbl": .double(0.1), "flt": .double(0.1),
            "str": .string("Cafe\u{301} ☕️ \"quoted\" \\ back\nline\ttab \u{0} \u{1} \u{7F} 😀 \u{2028}"),
            "flag": .bool(true),
            "when": .date(Date(timeIntervalSinceReferenceDate: 636_000_000.123_456_789)),
            "blob": .data(allBytes), "uid": .uuid(try #require(UUID(uuidString: "1975DB51-5A45-4FD6-AC54-46CA6042C710"))),
            "link": .string("https://example.com/a%20b?c=d&e=f#g"), "xform": .data(Data([0, 0, 1, 0xFF])),
            "label": .string("max"),
        ])
        try store.insert("Thing", id: "t-min", [
            "i16": .int(Int64(Int16.min)), "i32": .int(Int64(Int32.max)), "i64": .int(Int64.min),
            "dec": .decimal(try #require(Decimal(string: "-0.000000000000000000001", locale: nil))),
            "dbl": .double(-0.0), "flt": .double(Double(Float.greatestFiniteMagnitude)),
            "str": .string(""), "flag": .bool(false),
            "when": .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000)),  // year 1
            "blob": .data(Data()), "uid": .uuid(UUID()), "link": .string(""), "xform": .data(Data()),
        ])
        try store.insert("Thing", id: "t-odd", [
            "i16": .int(0), "i32": .int(-1), "i64": .int((1 << 53) + 1),
            "dec": .decimal(Decimal(0)), "dbl": .double(Double.leastNonzeroMagnitude), "flt": .double(-1.5),
            "str": .string("0"), "flag": .bool(true),
            "when": .date(Date(timeIntervalSinceReferenceDate: 0.5)),
        ])
        // Every optional attribute nil; the required one takes its default.
        try store.insert("Thing", id: "t-nil")
        try store.insert("SpecialThing", id: "t-special", ["extra": .string("sub-entity"), "dbl": .double(Double.greatestFiniteMagnitude),
                                                          "when": .date(Date(timeIntervalSinceReferenceDate: 1e12 + 0.25))])  // year 33690
        try store.insert("Playlist", id: "list-1", ["name": .string("mixed")])
        try store.insert("Playlist", id: "list-2", ["name": .string("empty")])

        try store.update("t-max", attributes: [:], relationships: ["owner": ["owner-1"], "tags": ["tag-b", "tag-a"], "twin": ["t-min"]])
        try store.update("t-min", attributes: [:], relationships: ["owner": ["owner-1"], "tags": ["tag-a"]])
        try store.update("t-special", attributes: [:], relationships: ["owner": ["owner-2"], "twin": ["t-odd"]])
        // An ordered to-many in an order that is not insertion order.
        try store.update("list-1", attributes: [:], relationships: ["items": ["t-special", "t-max", "t-nil", "t-min"]])
        try store.save()
    }

    /// A value with its kind and exact bits, so "round-trips" means identical.
    static func exact(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): "bool:\(b)"
        case .int(let i): "int:\(i)"
        case .double(let d): "double:\(d) bits:\(d.bitPattern)"
        case .decimal(let d): "decimal:\(d)"
        case .string(let s): "string:\(Array(s.unicodeScalars.map(\.value)))"
        case .date(let d): "date:\(ISO8601.string(from: d)) bits:\(d.timeIntervalSinceReferenceDate.bitPattern)"
        case .data(let d): "data:\(d.base64EncodedString())"
        case .uuid(let u): "uuid:\(u.uuidString)"
        default: "other:\(ValueText.text(value))"
        }
    }

    /// Every object, in insertion order: entity, ID, exact attribute values, relationship IDs in order.
    static func dump(_ store: any PersistentStore) throws -> [String] {
        var lines: [String] = []
        for entity in store.model.entities where entity.parent == nil {
            for object in try store.fetch(FetchRequest(entityName: entity.name)) {
                var line = "\(object.entityName) \(object.objectID):"
                for (key, value) in object.attributeValues.pairs { line += " \(key)=\(exact(value))" }
                for relationship in object.relationshipIDs {
                    line += " \(relationship.name)->[\(relationship.ids.map(\.rawValue).joined(separator: ","))]"
                }
                lines.append(line)
            }
        }
        return lines
    }

    // MARK: Round trips

    @Test(arguments: fileKinds)
    func everyAttributeTypeAndRelationshipRoundTrips(_ kind: AtomicStore.Kind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        let store = try AtomicStore.create(at: url, model: try Self.model())
        try Self.fill(store)
        let before = try Self.dump(store)
        #expect(before.count == 11)

        let reopened = try AtomicStore.open(at: url)
        let after = try Self.dump(reopened)
        #expect(after.count == before.count)
        for (a, b) in zip(before, after) { #expect(a == b) }
        #expect(JSONModelFormat.write(reopened.model) == JSONModelFormat.write(store.model))

        // The specific promises, spelled out.
        let special = try #require(reopened.object(with: "t-special"))
        #expect(special.entityName == "SpecialThing")
        #expect(Self.exact(reopened.object(with: "t-nil")?[attribute: "label"] ?? .null) == Self.exact(.string("unlabelled")))
        #expect(Self.exact(reopened.object(with: "t-nil")?[attribute: "str"] ?? .string("?")) == "null")
        #expect(Self.exact(reopened.object(with: "t-min")?[attribute: "str"] ?? .null) == Self.exact(.string("")))
        #expect(Self.exact(reopened.object(with: "t-max")?[attribute: "str"] ?? .null) == Self.exact(.string("Caf\u{E9} ☕️ \"quoted\" \\ back\nline\ttab \u{0} \u{1} \u{7F} 😀 \u{2028}")))
        #expect(StoreRulesTests.destinations(reopened, "list-1", "items") == ["t-special", "t-max", "t-nil", "t-min"])
        #expect(StoreRulesTests.destinations(reopened, "list-2", "items") == [])
        #expect(StoreRulesTests.destinations(reopened, "t-odd", "twin") == ["t-special"])
        #expect(StoreRulesTests.destinations(reopened, "owner-1", "things") == ["t-max", "t-min"])
        #expect(StoreRulesTests.destinations(reopened, "t-max", "tags") == ["tag-a", "tag-b"])  // unordered: insertion order
        #expect(StoreRulesTests.destinations(reopened, "t-nil", "owner") == [])

        // Predicates see the same values: the exact date and the exact double match.
        let when = Date(timeIntervalSinceReferenceDate: 636_000_000.123_456_789)
        #expect(try reopened.count(FetchRequest(statement: "COUNT Thing WHERE when == %@", arguments: [when])) == 1)
        #expect(try reopened.count(FetchRequest(statement: "COUNT Thing WHERE dbl == %@", arguments: [0.1])) == 1)
        #expect(try reopened.count(FetchRequest(statement: "COUNT Thing WHERE flt == %@", arguments: [Double(Float(0.1))])) == 1)

        // Saving the reopened store again keeps everything; the JSON store writes the same
        // bytes (binary property lists order dictionary keys as they come, so only the
        // content is compared there).
        let first = try Data(contentsOf: url)
        try reopened.update("t-nil", ["label": .string("changed")])
        try reopened.update("t-nil", ["label": .string("unlabelled")])
        try reopened.save()
        if kind == .json { #expect(try Data(contentsOf: url) == first) }
        #expect(try Self.dump(AtomicStore.open(at: url)) == before)
    }

    /// Infinities are numbers a Double or Float attribute holds (JSON has no spelling for
    /// them, so the JSON store must find one); NaN is not a value a store accepts.
    @Test(arguments: fileKinds)
    func infinitiesRoundTripAndNaNIsRejected(_ kind: AtomicStore.Kind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        let store = try AtomicStore.create(at: url, model: try Self.model())
        try store.insert("Thing", id: "inf", ["dbl": .double(.infinity), "flt": .double(1e300)])  // too big for a Float
        try store.insert("Thing", id: "-inf", ["dbl": .double(-.infinity), "flt": .double(-.infinity)])
        try store.insert("Thing", id: "max", ["dbl": .double(.greatestFiniteMagnitude), "flt": .double(-Double(Float.greatestFiniteMagnitude))])
        for value in [Value.double(.nan), .double(-.nan), .double(.signalingNaN)] {
            for key in ["dbl", "flt"] {
                let error = #expect(throws: StoreError.self) { try store.insert("Thing", id: "nan", [key: value]) }
                #expect(error?.code == .invalidValue)
                #expect(error?.key == key)
                #expect(error?.message.contains("NaN") == true, "\(error?.message ?? "")")
            }
        }
        let decimal = #expect(throws: StoreError.self) { try store.insert("Thing", id: "nan", ["dec": .decimal(.nan)]) }
        #expect(decimal?.code == .invalidValue)
        #expect(decimal?.key == "dec")
        try store.save()
        let before = try Self.dump(store)
        let reopened = try AtomicStore.open(at: url)
        #expect(try Self.dump(reopened) == before)
        #expect(Self.exact(reopened.object(with: "inf")?[attribute: "flt"] ?? .null) == Self.exact(.double(.infinity)))
        #expect(try reopened.count(FetchRequest(statement: "COUNT Thing WHERE dbl > %@", arguments: [Double.greatestFiniteMagnitude])) == 1)
        #expect(try reopened.count(FetchRequest(statement: "COUNT Thing WHERE dbl == -1e999")) == 1)
    }

    @Test(arguments: fileKinds)
    func deletesAndChangesArePersisted(_ kind: AtomicStore.Kind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        let store = try AtomicStore.create(at: url, model: try Self.model())
        try Self.fill(store)
        try store.delete("owner-1")  // cascades to t-max and t-min
        try store.update("t-odd", ["str": .null, "flag": .bool(false)])
        try store.save()
        let reopened = try AtomicStore.open(at: url)
        #expect(reopened.object(with: "t-max") == nil)
        #expect(reopened.object(with: "t-min") == nil)
        #expect(StoreRulesTests.destinations(reopened, "list-1", "items") == ["t-special", "t-nil"])
        #expect(StoreRulesTests.destinations(reopened, "tag-a", "things") == [])
        #expect(Self.exact(reopened.object(with: "t-odd")?[attribute: "str"] ?? .string("?")) == "null")
        #expect(Self.exact(reopened.object(with: "t-odd")?[attribute: "flag"] ?? .null) == "bool:false")
        #expect(try Self.dump(reopened) == Self.dump(store))
        // New objects after reopening get IDs that do not clash with the stored ones, generated
        // ones included.
        let generated = try (0..<3).map { i in try reopened.insert("Tag", ["name": .string("generated \(i)")]) }
        try reopened.save()
        let again = try AtomicStore.open(at: url)
        let more = try (0..<3).map { i in try again.insert("Tag", ["name": .string("more \(i)")]) }
        #expect(Set(generated + more).count == 6)
        try again.save()
        #expect(try AtomicStore.open(at: url).count(FetchRequest(entityName: "Tag")) == 8)
        for (id, name) in zip(generated, ["generated 0", "generated 1", "generated 2"]) {
            #expect(StoreRulesTests.value(again, id, "name") == StoreRulesTests.text(.string(name)))
        }
    }

    // MARK: Rejected imports and failed saves leave the file as it was

    struct BadImport: Sendable, CustomTestStringConvertible {
        let label: String
        let json: String
        let code: StoreError.Code
        let entity: String
        let id: String
        let key: String
        var testDescription: String { label }
    }

    static let badImports: [BadImport] = [
        BadImport(label: "wrong type", json: #"{"Thing": [{"@id": "n1", "i16": 1}, {"@id": "n2", "i32": "many"}]}"#,
                  code: .invalidValue, entity: "Thing", id: "n2", key: "i32"),
        BadImport(label: "out of range", json: #"{"Thing": [{"@id": "n1", "i16": 40000}]}"#,
                  code: .invalidValue, entity: "Thing", id: "n1", key: "i16"),
        BadImport(label: "unknown attribute", json: #"{"Tag": [{"@id": "n1", "name": "x"}], "Thing": [{"@id": "n2", "labell": "x"}]}"#,
                  code: .unknownKey, entity: "Thing", id: "n2", key: "labell"),
        BadImport(label: "dangling reference", json: #"{"Thing": [{"@id": "n1", "owner": "owner-9"}]}"#,
                  code: .unknownObject, entity: "Thing", id: "n1", key: "owner"),
        BadImport(label: "dangling to-many reference", json: #"{"Playlist": [{"@id": "n1", "items": ["t-max", "n2"]}]}"#,
                  code: .unknownObject, entity: "Playlist", id: "n1", key: "items"),
        BadImport(label: "constraint violation", json: #"{"Thing": [{"@id": "n1", "uid": "1975db51-5a45-4fd6-ac54-46ca6042c710"}]}"#,
                  code: .constraintViolation, entity: "Thing", id: "n1", key: "uid"),
        BadImport(label: "required value nil", json: #"{"Owner": [{"@id": "n1", "name": null}]}"#,
                  code: .missingValue, entity: "Owner", id: "n1", key: "name"),
    ]

    @Test(arguments: badImports, fileKinds)
    func aRejectedImportLeavesTheFileUnchanged(_ bad: BadImport, _ kind: AtomicStore.Kind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        let store = try AtomicStore.create(at: url, model: try Self.model())
        try Self.fill(store)
        let bytes = try Data(contentsOf: url)
        let objects = try Self.dump(store)

        let error = #expect(throws: StoreError.self) { try StoreImporter.importJSON(Data(bad.json.utf8), into: store) }
        #expect(error?.code == bad.code, "\(error?.message ?? "")")
        #expect(error?.entity == bad.entity)
        #expect(error?.objectID == ObjectID(bad.id))
        #expect(error?.key == bad.key)
        for part in [bad.entity, "'\(bad.id)'", bad.key] {
            #expect(error?.message.contains(part) == true, "'\(error?.message ?? "")' should name \(part)")
        }
        #expect(try Data(contentsOf: url) == bytes)
        #expect(try Self.dump(store) == objects)
        #expect(!store.hasChanges)
        #expect(try Self.leftovers(in: directory, besides: url) == [])
    }

    @Test(arguments: fileKinds)
    func aFailedSaveLeavesTheFileUnchanged(_ kind: AtomicStore.Kind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        let store = try AtomicStore.create(at: url, model: try Self.model())
        try Self.fill(store)
        let bytes = try Data(contentsOf: url)

        try store.insert("Owner", id: "nameless")
        try store.update("t-odd", ["str": .string("changed")])
        let missing = #expect(throws: StoreError.self) { try store.save() }
        #expect(missing?.code == .missingValue)
        #expect(try Data(contentsOf: url) == bytes)

        try store.update("nameless", ["name": .string("Named")])
        try store.update("t-nil", ["uid": .string("1975DB51-5A45-4FD6-AC54-46CA6042C710")])
        let duplicate = #expect(throws: StoreError.self) { try store.save() }
        #expect(duplicate?.code == .constraintViolation)
        #expect(try Data(contentsOf: url) == bytes)
        #expect(store.hasChanges)
        #expect(try Self.leftovers(in: directory, besides: url) == [])

        // Rolled back, the store matches the file again.
        store.rollback()
        #expect(try Self.dump(store) == Self.dump(AtomicStore.open(at: url)))
    }

    @Test(arguments: fileKinds)
    func aSaveThatCannotWriteFailsAndKeepsTheChanges(_ kind: AtomicStore.Kind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        let store = try AtomicStore.create(at: url, model: try Self.model())
        try Self.fill(store)
        // The directory is gone: the temporary file cannot be created.
        try FileManager.default.removeItem(at: directory)
        try store.update("t-odd", ["str": .string("changed")])
        let error = #expect(throws: StoreError.self) { try store.save() }
        #expect(error?.code == .fileSystem)
        #expect(store.hasChanges)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    // MARK: Files that are not Sift stores

    /// Files that are not (whole, valid) Sift stores, by name, with the kind to open them as.
    static func foreignFiles() throws -> [(String, Data, AtomicStore.Kind)] {
        let model = try model()
        let graph = ObjectGraph(model: model)
        let validJSON = StoreFileFormat.jsonData(graph)
        let validPlist = try StoreFileFormat.propertyListData(graph)
        var random = SeededBytes(seed: 42)
        let noise = Data((0..<4096).map { _ in random.next() })
        func plist(_ object: Any) throws -> Data { try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0) }
        func json(_ text: String) -> Data { Data(text.utf8) }
        let storeJSON = try filledStoreData(.json)
        let storePlist = try filledStoreData(.binaryPropertyList)
        let store = String(decoding: storeJSON, as: UTF8.self)
        return [
            ("empty file", Data(), .json),
            ("empty file", Data(), .binaryPropertyList),
            ("random bytes", noise, .json),
            ("random bytes", noise, .binaryPropertyList),
            ("random bytes after the plist magic", Data("bplist00".utf8) + noise, .binaryPropertyList),
            ("another JSON document", json(#"{"name": "Notes", "entities": []}"#), .json),
            ("a JSON array", json("[1, 2, 3]"), .json),
            ("a JSON string", json(#""sift""#), .json),
            ("a model file", try Data(contentsOf: ExampleModelsTests.folder("Notes").appendingPathComponent("model.json")), .json),
            ("an import file", try Data(contentsOf: ExampleModelsTests.folder("Notes").appendingPathComponent("data.json")), .json),
            ("a store of another format", json(#"{"sift": "model", "version": 1, "model": {"entities": []}, "objects": []}"#), .json),
            ("a store of a later version", json(#"{"sift": "store", "version": 2, "model": {"entities": []}, "objects": []}"#), .json),
            ("a store with an invalid model", json(#"{"sift": "store", "version": 1, "model": {"entities": [{"name": "A", "parent": "B"}]}, "objects": []}"#), .json),
            ("a store without objects", json(#"{"sift": "store", "version": 1, "model": {"entities": []}}"#), .json),
            ("a truncated store", storeJSON.prefix(storeJSON.count / 2), .json),
            ("a store missing its last byte", storeJSON.dropLast(2), .json),
            ("a truncated plist store", storePlist.prefix(storePlist.count / 2), .binaryPropertyList),
            ("a plist store missing its last bytes", storePlist.dropLast(8), .binaryPropertyList),
            ("a JSON store opened as a plist", validJSON, .binaryPropertyList),
            ("a plist store opened as JSON", validPlist, .json),
            ("a plist that isn't ours", try plist(["CFBundleName": "Foo", "version": 1]), .binaryPropertyList),
            ("a plist array", try plist([1, 2, 3]), .binaryPropertyList),
            ("an XML plist", try PropertyListSerialization.data(fromPropertyList: ["sift": "store"], format: .xml, options: 0), .binaryPropertyList),
            ("a plist with our marker and no model", try plist(["sift": "store", "version": 1, "objects": [Any]()]), .binaryPropertyList),
            ("a store whose object has an unknown entity", json(store.replacingOccurrences(of: #""@entity": "Tag""#, with: #""@entity": "Tagg""#)), .json),
            ("a store whose object has an unknown key", json(store.replacingOccurrences(of: #""extra":"#, with: #""extraa":"#)), .json),
            ("a store with a dangling reference", json(store.replacingOccurrences(of: #""owner": "owner-2""#, with: #""owner": "owner-9""#)), .json),
            ("a store with a duplicate ID", json(store.replacingOccurrences(of: #""@id": "tag-b""#, with: #""@id": "tag-a""#)), .json),
            ("a store with a value of the wrong type", json(store.replacingOccurrences(of: #""name": "Ada""#, with: #""name": 12"#)), .json),
        ]
    }

    static func filledStoreData(_ kind: AtomicStore.Kind) throws -> Data {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        try fill(try AtomicStore.create(at: url, model: try model()))
        return try Data(contentsOf: url)
    }

    @Test func aCorruptOrForeignFileIsACorruptStoreErrorAndIsNeverOverwritten() throws {
        let cases = try Self.foreignFiles()
        // The substitutions above must have hit something.
        let store = try Self.filledStoreData(.json)
        for (label, data, _) in cases where label.hasPrefix("a store with") || label.hasPrefix("a store whose") {
            #expect(data != store, "\(label): the test's substitution did not apply")
        }
        for (label, data, kind) in cases {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let url = Self.url(in: directory, kind)
            try data.write(to: url)
            do {
                _ = try AtomicStore.open(at: url)
                Issue.record("\(label) [\(kind)]: opened without an error")
            } catch {
                #expect(error.code == .corruptStore, "\(label) [\(kind)]: \(error.code): \(error.message)")
                #expect(error.message.contains(url.lastPathComponent), "\(label): the message names the file: \(error.message)")
                #expect(error.message.contains("not a valid Sift store"), "\(label): \(error.message)")
            }
            // Creating a store there is refused too; the file is untouched.
            #expect(throws: StoreError.self, "\(label)") { try AtomicStore.create(at: url, model: try Self.model()) }
            #expect(try Data(contentsOf: url) == data, "\(label) [\(kind)]: the file changed")
            #expect(try Self.leftovers(in: directory, besides: url) == [], "\(label)")
        }
    }

    @Test func aMissingFileIsAFileSystemError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: StoreError.self) { try AtomicStore.open(at: directory.appendingPathComponent("nothing.json")) }
        #expect(error?.code == .fileSystem)
        #expect(error?.message.contains("nothing.json") == true)
        let unknownKind = #expect(throws: StoreError.self) { try AtomicStore.create(at: directory.appendingPathComponent("store.db"), model: try Self.model()) }
        #expect(unknownKind?.message.contains(".json") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    // MARK: create(at:)

    @Test(arguments: fileKinds)
    func creatingOverAnExistingFileIsAnError(_ kind: AtomicStore.Kind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        let store = try AtomicStore.create(at: url, model: try Self.model())
        try Self.fill(store)
        let bytes = try Data(contentsOf: url)
        let error = #expect(throws: StoreError.self) { try AtomicStore.create(at: url, model: try Self.model()) }
        #expect(error?.message.contains(url.path) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("exists") == true)
        #expect(try Data(contentsOf: url) == bytes)
        // Also when the existing file is the other kind of store, or empty.
        let other = directory.appendingPathComponent("other.\(kind == .json ? "json" : "plist")")
        try Data().write(to: other)
        #expect(throws: StoreError.self) { try AtomicStore.create(at: other, model: try Self.model()) }
        #expect(try Data(contentsOf: other) == Data())
    }

    @Test(arguments: fileKinds)
    func aNewStoreFileOpensEmptyWithItsModel(_ kind: AtomicStore.Kind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        _ = try AtomicStore.create(at: url, model: try Self.model())
        let reopened = try AtomicStore.open(at: url)
        #expect(reopened.model.entities.map(\.name) == ["Thing", "SpecialThing", "Owner", "Tag", "Playlist"])
        #expect(try reopened.count(FetchRequest(entityName: "Thing")) == 0)
        #expect(!reopened.hasChanges)
    }

    // MARK: Temporary files

    /// The files in `directory` but the store (docs/STORES.md: no lock file is kept beside it).
    static func leftovers(in directory: URL, besides url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0 != url.lastPathComponent }.sorted()
    }

    @Test(arguments: fileKinds)
    func savesLeaveNoTemporaryFilesBehind(_ kind: AtomicStore.Kind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = Self.url(in: directory, kind)
        let store = try AtomicStore.create(at: url, model: try Self.model())
        #expect(try Self.leftovers(in: directory, besides: url) == [])
        try Self.fill(store)
        for i in 0..<20 {
            try store.insert("Tag", ["name": .string("tag \(i)")])
            try store.save()
        }
        try StoreImporter.importJSON(Data(#"{"Tag": [{"@id": "imported", "name": "x"}]}"#.utf8), into: store)
        #expect(try Self.leftovers(in: directory, besides: url) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [url.lastPathComponent])
        #expect(try AtomicStore.open(at: url).count(FetchRequest(entityName: "Tag")) == 23)
    }
}

/// SplitMix64 bytes, so the "random" file is the same on every run.
struct SeededBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt8 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
}
