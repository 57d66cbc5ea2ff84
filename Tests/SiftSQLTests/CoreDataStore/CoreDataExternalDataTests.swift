import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Core Data's binary attributes that allow external storage (issue 32 item 3): the column's
/// first byte says whether the rest is the value (1) or the UUID of a file in
/// `.<store>_SUPPORT/_EXTERNAL_DATA/` (2). A store Sift creates in Core Data's layout from a
/// model whose `Attachment.data` has the flag (`NSFlagsKey` 4), with rows written by hand: the
/// values read (objects, rows, dictionaries), the errors of a missing file and a hostile
/// reference, predicates against the evaluator, writes (marker 1), and reads that change no byte.
@Suite struct CoreDataExternalDataTests {
    static let modelJSON = #"""
    {"name": "Files", "entities": [
      {"name": "Attachment", "attributes": [{"name": "name", "type": "String"}, {"name": "data", "type": "Binary", "optional": true},
                                            {"name": "plain", "type": "Binary", "optional": true}]},
      {"name": "Photo", "parent": "Attachment", "attributes": [{"name": "width", "type": "Integer 64", "optional": true}]}]}
    """#

    static let hello = Data("hello".utf8)
    /// A file's content: bytes that are no text, a NUL and a marker byte among them.
    static let fileBytes = Data([0x00, 0x02, 0xFF, 0x01, 0x7F, 0x80, 0x00])
    static let fileUUID = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    static let otherUUID = "0b2e3f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"

    /// The rows written by hand: name, entity, the column's bytes (nil: NULL), `plain`, and the
    /// value `data` reads as.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let photo: Bool
        let column: [UInt8]?
        let plain: Data?
        let value: Data?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "inline", photo: false, column: [1] + Array(hello), plain: hello, value: hello),
        Row(name: "inlineEmpty", photo: false, column: [1], plain: nil, value: Data()),
        Row(name: "file", photo: false, column: [2] + Array(fileUUID.utf8) + [0], plain: fileBytes, value: fileBytes),
        Row(name: "fileWithoutNUL", photo: true, column: [2] + Array(otherUUID.utf8), plain: hello, value: hello),
        Row(name: "null", photo: false, column: nil, plain: nil, value: nil),
        Row(name: "unknownMarker", photo: true, column: [3, 0x41], plain: Data([3, 0x41]), value: Data([3, 0x41])),
        Row(name: "empty", photo: false, column: [], plain: Data(), value: Data()),
    ]

    /// A store made by Sift in Core Data's layout, its rows and external files written by hand
    /// (the connection closed, so the file is whole), in a directory of its own.
    static func makeStore(extraRows: [(name: String, column: [UInt8])] = []) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-cd-external-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("Files.sqlite")
        var model = CoreDataModel(deriving: try JSONModelFormat.read(Data(modelJSON.utf8)))
        model.entities["Attachment"]?.attributeFlags["data"] = 4
        _ = try SQLiteStore.createCoreData(at: url, model: model)
        let external = directory.appendingPathComponent(".Files_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try fileBytes.write(to: external.appendingPathComponent(fileUUID))
        try hello.write(to: external.appendingPathComponent(otherUUID))
        do {
            let database = try SQLiteDatabase(path: url.path, options: [])
            let numbers = try database.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY")
            func number(_ name: String) -> Int64 {
                for row in numbers where row[0] == .text(name) { if case .integer(let n) = row[1] { return n } }
                return 0
            }
            var key: Int64 = 0
            func insert(_ name: String, photo: Bool, column: [UInt8]?, plain: Data?) throws {
                key += 1
                try database.run("INSERT INTO ZATTACHMENT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZDATA, ZPLAIN, ZWIDTH) VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6)",
                                 [.integer(key), .integer(number(photo ? "Photo" : "Attachment")), .text(name),
                                  column.map { .blob($0) } ?? .null, plain.map { .blob([UInt8]($0)) } ?? .null,
                                  photo ? .integer(key * 10) : .null])
            }
            for row in rows { try insert(row.name, photo: row.photo, column: row.column, plain: row.plain) }
            for row in extraRows { try insert(row.name, photo: false, column: row.column, plain: nil) }
            try database.run("UPDATE Z_PRIMARYKEY SET Z_MAX = ?1 WHERE Z_NAME = 'Attachment'", [.integer(key)])
        }
        return url
    }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

    /// Every file of the store's directory (the store, its log if any, the external files) and
    /// its bytes.
    static func files(_ url: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = url.deletingLastPathComponent()
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return files }
        for case let path as String in walker {
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(path).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return files
    }

    /// The same objects in the in-memory store, which the evaluator answers for.
    static func reference() throws -> AtomicStore {
        let store = AtomicStore.inMemory(model: try JSONModelFormat.read(Data(modelJSON.utf8)))
        for row in rows {
            var attributes: [String: Value] = ["name": .string(row.name)]
            if let value = row.value { attributes["data"] = .data(value) }
            if let plain = row.plain { attributes["plain"] = .data(plain) }
            _ = try store.insert(entity: row.photo ? "Photo" : "Attachment", id: nil, attributes: attributes, relationships: [:])
        }
        try store.save()
        return store
    }

    static func data(_ value: Value?) -> Data? {
        if case .data(let bytes)? = value { return bytes }
        return nil
    }

    // MARK: Reading

    @Test(arguments: rows)
    func objectsRowsAndDictionariesReadTheValueNotTheMarker(_ row: Row) throws {
        let url = try Self.makeStore()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        #expect(store.openingWarnings.isEmpty, "\(store.openingWarnings)")
        let request = try FetchRequest(entityName: "Attachment", predicate: "name == %@", arguments: [row.name])
        let objects = try store.fetch(request)
        #expect(objects.count == 1)
        #expect(Self.data(objects.first?[attribute: "data"]) == row.value)
        // `plain` has no flag: its bytes as they are, a leading 1 or 3 included.
        #expect(Self.data(objects.first?[attribute: "plain"]) == row.plain)
        var read: [Data?] = []
        try store.forEachRow(request) { found in read.append(Self.data(found[attribute: "data"])) }
        #expect(read == [row.value])
        let dictionaries = try FetchRequest(statement: "SELECT name, data FROM Attachment WHERE name == %@", arguments: [row.name])
        guard case .dictionaries(let found) = try store.execute(dictionaries) else {
            Issue.record("no dictionaries")
            return
        }
        #expect(found.count == 1)
        #expect(Self.data(found.first?["data"]) == row.value)
    }

    /// Reading every row every way changes no byte of the store or of its external files.
    @Test func readingChangesNoByte() throws {
        let url = try Self.makeStore()
        defer { Self.remove(url) }
        let before = try Self.files(url)
        #expect(before.keys.contains(".Files_SUPPORT/_EXTERNAL_DATA/\(Self.fileUUID)"))
        do {
            let store = try SQLiteStore.open(at: url)
            try store.fetch(FetchRequest(statement: "Attachment WHERE data != nil SORT BY name")).forEachObject { _ in }
            try store.forEachRow(FetchRequest(statement: "Photo")) { _ in }
            _ = try store.execute(FetchRequest(statement: "SELECT name, data FROM Attachment"))
            _ = try store.count(FetchRequest(statement: "COUNT Attachment WHERE data == plain"))
        }
        #expect(try Self.files(url) == before)
    }

    // MARK: Errors

    @Test func aMissingFileIsAnErrorNamingTheAttributeTheObjectAndThePath() throws {
        let missing = "11111111-2222-3333-4444-555555555555"
        let url = try Self.makeStore(extraRows: [("missing", [2] + Array(missing.utf8) + [0])])
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let uuid = try #require(store.coreData?.storeUUID)
        let path = url.deletingLastPathComponent().appendingPathComponent(".Files_SUPPORT/_EXTERNAL_DATA/\(missing)").path
        let error = #expect(throws: StoreError.self) {
            try store.fetch(FetchRequest(statement: "Attachment WHERE name == 'missing'")).forEachObject { _ in }
        }
        #expect(error?.code == .fileSystem)
        #expect(error?.message == "Attachment.data of x-coredata://\(uuid)/Attachment/p\(Self.rows.count + 1) is stored in an external file, \(path), which does not exist: copy the store's .Files_SUPPORT folder with it")
        #expect(error?.objectID == ObjectID("x-coredata://\(uuid)/Attachment/p\(Self.rows.count + 1)"))
        // Every way of reading it says so: rows, dictionaries, a predicate on it.
        #expect(throws: StoreError.self) { try store.forEachRow(FetchRequest(statement: "Attachment WHERE name == 'missing'")) { _ in } }
        #expect(throws: StoreError.self) { _ = try store.execute(FetchRequest(statement: "SELECT data FROM Attachment WHERE name == 'missing'")) }
        #expect(throws: StoreError.self) { _ = try store.count(FetchRequest(statement: "COUNT Attachment WHERE data == nil")) }
        // The other rows read as ever.
        #expect(try store.count(FetchRequest(statement: "COUNT Attachment WHERE name != 'missing'")) == Self.rows.count)
    }

    @Test func anUnreadableFileIsAnError() throws {
        let folder = "22222222-3333-4444-5555-666666666666"
        let url = try Self.makeStore(extraRows: [("folder", [2] + Array(folder.utf8))])
        defer { Self.remove(url) }
        // A directory where the file should be: it exists, and cannot be read as a file.
        let path = url.deletingLastPathComponent().appendingPathComponent(".Files_SUPPORT/_EXTERNAL_DATA/\(folder)")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        let store = try SQLiteStore.open(at: url)
        let error = #expect(throws: StoreError.self) {
            try store.fetch(FetchRequest(statement: "Attachment WHERE name == 'folder'")).forEachObject { _ in }
        }
        #expect(error?.code == .fileSystem)
        #expect(error?.message.contains("Attachment.data of x-coredata://") == true)
        #expect(error?.message.contains("\(path.path), which cannot be read (") == true, "\(error?.message ?? "")")
    }

    /// A reference that is not a UUID is refused, whatever file it would name.
    @Test(arguments: [
        ("../../../etc/passwd", #""../../../etc/passwd""#),
        ("../Files.sqlite", #""../Files.sqlite""#),
        ("/etc/passwd", #""/etc/passwd""#),
        ("6F9619FF-8B86-D011-B42D-00C04FC964FF/..", #""6F9619FF-8B86-D011-B42D-00C04FC964FF/..""#),
        ("6F9619FF-8B86-D011-B42D-00C04FC964F", #""6F9619FF-8B86-D011-B42D-00C04FC964F""#),
        ("6F9619FF-8B86-D011-B42D-00C04FC964FG", #""6F9619FF-8B86-D011-B42D-00C04FC964FG""#),
        ("6F9619FF+8B86-D011-B42D-00C04FC964FF", #""6F9619FF+8B86-D011-B42D-00C04FC964FF""#),
        ("6F9619FF-8B86-D011-B42D-00C04FC964FF\u{0}\u{0}", #""6F9619FF-8B86-D011-B42D-00C04FC964FF\x00\x00""#),
        ("", #""""#),
    ])
    func aReferenceThatIsNoUUIDIsRefused(_ reference: String, shown: String) throws {
        let url = try Self.makeStore(extraRows: [("hostile", [2] + Array(reference.utf8))])
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let uuid = try #require(store.coreData?.storeUUID)
        let folder = url.deletingLastPathComponent().appendingPathComponent(".Files_SUPPORT/_EXTERNAL_DATA").path
        let error = #expect(throws: StoreError.self) {
            try store.fetch(FetchRequest(statement: "Attachment WHERE name == 'hostile'")).forEachObject { _ in }
        }
        #expect(error?.code == .corruptStore)
        #expect(error?.message == "Attachment.data of x-coredata://\(uuid)/Attachment/p\(Self.rows.count + 1) is stored in an external file, but its reference \(shown) is not a UUID: refused (only a file named by a UUID in \(folder) is read)")
    }

    /// The object an error names is the row's own entity's (a Photo read as an Attachment).
    @Test func theErrorNamesTheRowsOwnEntity() throws {
        let url = try Self.makeStore()
        defer { Self.remove(url) }
        let database = try SQLiteDatabase(path: url.path, options: [])
        try database.run("UPDATE ZATTACHMENT SET ZDATA = ?1 WHERE ZNAME = 'fileWithoutNUL'", [.blob([2] + Array("../x".utf8))])
        let store = try SQLiteStore.open(at: url)
        let uuid = try #require(store.coreData?.storeUUID)
        let error = #expect(throws: StoreError.self) {
            try store.fetch(FetchRequest(statement: "Attachment WHERE name == 'fileWithoutNUL'")).forEachObject { _ in }
        }
        #expect(error?.message.hasPrefix("Attachment.data of x-coredata://\(uuid)/Photo/p4 ") == true, "\(error?.message ?? "")")
    }

    // MARK: Predicates

    /// Predicates on the attribute give the evaluator's answers (the in-memory store holding the
    /// same values): SQL compares the value `sift_external_data` reads, never the marker.
    @Test(arguments: [
        ("data == %@", [[hello]]), ("data != %@", [[hello]]), ("data == nil", []), ("data != nil", []),
        ("data == plain", []), ("data != plain", []), ("NOT (data == %@)", [[fileBytes]]), ("data IN %@", [[hello, fileBytes]]),
        ("data == %@ OR name == 'null'", [[Data()]]), ("name BEGINSWITH 'file' AND data != nil", []),
        ("ANY {data, plain} == %@", [[fileBytes]]),
    ] as [(String, [[Data]])])
    func predicatesGiveTheEvaluatorsAnswers(_ format: String, values: [[Data]]) throws {
        // (One argument each: a value, or a list for IN.)
        let arguments: [Any?] = values.map { $0.count == 1 ? $0[0] as Any : $0 as Any }
        let url = try Self.makeStore()
        defer { Self.remove(url) }
        let store = try SQLiteStore.open(at: url)
        let reference = try Self.reference()
        for entity in ["Attachment", "Photo"] {
            var request = try FetchRequest(entityName: entity, predicate: format, arguments: arguments)
            request.sortDescriptors = [SortKey("name")]
            let expected = try reference.fetch(request).map { "\($0[attribute: "name"]!) \(String(describing: Self.data($0[attribute: "data"])))" }
            let fetched = try store.fetch(request)
            let found = fetched.map { "\($0[attribute: "name"]!) \(String(describing: Self.data($0[attribute: "data"])))" }
            #expect(fetched.readError == nil)
            #expect(found == expected, "\(entity) WHERE \(format)")
            #expect(try store.count(request) == expected.count, "COUNT \(entity) WHERE \(format)")
        }
    }

    // MARK: Writing

    /// An insert and an update write the value inline after the marker 1 (the referenced file
    /// stays), nil writes NULL, and the values read back; `plain` (no flag) is written as it is.
    @Test func writesAreInlineAfterTheMarker1() throws {
        let url = try Self.makeStore()
        defer { Self.remove(url) }
        let written = Data([0x02, 0x00, 0xAB])
        let id: ObjectID
        do {
            let store = try SQLiteStore.open(at: url)
            id = try store.insert(entity: "Attachment", id: nil, attributes: ["name": .string("new"), "data": .data(written), "plain": .data(written)],
                                  relationships: [:])
            let file = try #require(try store.fetch(FetchRequest(statement: "Attachment WHERE name == 'file'")).first)
            try store.update(file.objectID, attributes: ["data": .data(Self.hello)], relationships: [:])
            let inline = try #require(try store.fetch(FetchRequest(statement: "Attachment WHERE name == 'inline'")).first)
            try store.update(inline.objectID, attributes: ["data": .null], relationships: [:])
            try store.save()
        }
        let database = try SQLiteDatabase(path: url.path, options: [.readOnly])
        func column(_ name: String) throws -> [SQLiteValue] {
            try database.rows("SELECT ZDATA, ZPLAIN FROM ZATTACHMENT WHERE ZNAME = ?1", [.text(name)]).first ?? []
        }
        #expect(try column("new") == [.blob([1] + [UInt8](written)), .blob([UInt8](written))])
        #expect(try column("file").first == .blob([1] + [UInt8](Self.hello)))
        #expect(try column("inline").first == .null)
        // Sift writes no external file and removes none.
        let folder = url.deletingLastPathComponent().appendingPathComponent(".Files_SUPPORT/_EXTERNAL_DATA")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [Self.otherUUID, Self.fileUUID].sorted())
        let store = try SQLiteStore.open(at: url)
        let values = try store.fetch(FetchRequest(statement: "Attachment WHERE name IN {'new', 'file', 'inline'} SORT BY name")).map {
            "\($0.objectID == id) \(String(describing: Self.data($0[attribute: "data"])))"
        }
        #expect(values == ["false \(String(describing: Optional(Self.hello)))", "false nil", "true \(String(describing: Optional(written)))"])
        #expect(try store.count(FetchRequest(entityName: "Attachment", predicate: "data == %@", arguments: [written])) == 1)
    }

    /// An Xcode `contents` file's `allowsExternalBinaryDataStorage` gives the attribute its flag
    /// (`NSFlagsKey` 4) and its version hash the flag's byte (as the entities below it inherit).
    @Test(arguments: ["YES", "true", "1"])
    func anXcodeContentsFileSaysWhichAttributesAllowExternalStorage(_ yes: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-cd-external-\(UUID().uuidString)/Files.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        func contents(_ flag: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Attachment" representedClassName="Attachment" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <attribute name="data" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="\(flag)"/>
                    <attribute name="plain" optional="YES" attributeType="Binary"/>
                </entity>
                <entity name="Photo" parentEntity="Attachment" syncable="YES">
                    <attribute name="width" optional="YES" attributeType="Integer 64"/>
                </entity>
            </model>
            """
        }
        try contents(yes).write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let flagged = try XcodeModelFormat.loadCoreData(folder)
        try contents("NO").write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let unflagged = try XcodeModelFormat.loadCoreData(folder)
        #expect(flagged.entities["Attachment"]?.attributeFlags == ["data": 4])
        #expect(flagged.entities["Photo"]?.attributeFlags == [:])
        #expect(unflagged.entities["Attachment"]?.attributeFlags == [:])
        let (with, without) = (flagged.entityVersionHashes(), unflagged.entityVersionHashes())
        #expect(with["Attachment"] != nil && with["Attachment"] != without["Attachment"])
        #expect(with["Photo"] != nil && with["Photo"] != without["Photo"])
        // The same hashes as a model that says the flag in Core Data's own terms.
        var described = CoreDataModel(deriving: unflagged.model)
        described.entities["Attachment"]?.propertyVersionHashes?["data"] = CoreDataVersionHash.attribute(
            property: CoreDataVersionHash.property(name: "data", isOptional: true, isReadOnly: false, modifier: nil),
            typeCode: 1000, externalStorage: true, preservesValueInHistory: false)
        #expect(described.entityVersionHashes() == with)
    }

    /// The folder of a store's external data: beside it, named by the store without its extension.
    @Test(arguments: [("/a/b/Notes.sqlite", "/a/b/.Notes_SUPPORT/_EXTERNAL_DATA"), ("/a/Store.db", "/a/.Store_SUPPORT/_EXTERNAL_DATA"),
                      ("/a/plain", "/a/.plain_SUPPORT/_EXTERNAL_DATA"), ("/a/x.y.storedata", "/a/.x.y_SUPPORT/_EXTERNAL_DATA")])
    func theFolderIsBesideTheStore(_ store: String, folder: String) {
        #expect(CoreDataExternalData.directory(ofStoreAt: store) == folder)
    }
}
