import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore
import Testing

/// CSV imports (`StoreImporter.importCSV`, `sift import --entity`): a quoted empty field is the
/// empty string while an unquoted empty one leaves its attribute out; text that is not UTF-8
/// and a header naming a column twice are errors; every error names the line of the file (a
/// quoted field over several lines counts each), never a record number.
@Suite struct CSVImportTests {
    static let model = #"""
    {"name": "Potatoes", "entities": [{"name": "Potato", "attributes": [
      {"name": "variety", "type": "String"}, {"name": "notes", "type": "String"},
      {"name": "colour", "type": "String", "default": "brown"},
      {"name": "rating", "type": "Integer 16"}]}]}
    """#

    static func store() throws -> AtomicStore {
        AtomicStore.inMemory(model: try JSONModelFormat.read(Data(model.utf8)))
    }

    /// A value as JSON text, to compare (nil and "" differ).
    static func json(_ value: Value?) -> String { value.map { JSONWriter.string($0) } ?? "(missing)" }

    static func rows(_ store: AtomicStore) throws -> [[String: Value]] {
        try store.fetch(FetchRequest(statement: "Potato")).map { object in
            var row: [String: Value] = [:]
            for key in ["variety", "notes", "colour", "rating"] { row[key] = object[attribute: key] ?? .null }
            return row
        }
    }

    @Test func aQuotedEmptyFieldIsTheEmptyStringAndAnUnquotedOneIsLeftOut() throws {
        let store = try Self.store()
        try StoreImporter.importCSV(Data("variety,notes,colour,rating\n\"\",,\"\",\nRusset,\"\",,3\n".utf8), entity: "Potato", into: store)
        let rows = try Self.rows(store)
        #expect(rows.count == 2)
        #expect(Self.json(rows[0]["variety"]) == Self.json(Value.string("")))
        #expect(Self.json(rows[0]["notes"]) == Self.json(Value.null))
        #expect(Self.json(rows[0]["colour"]) == Self.json(Value.string("")))  // given: the default does not apply
        #expect(Self.json(rows[0]["rating"]) == Self.json(Value.null))
        #expect(Self.json(rows[1]["notes"]) == Self.json(Value.string("")))
        #expect(Self.json(rows[1]["colour"]) == Self.json(Value.string("brown")))  // left out: the default
        #expect(Self.json(rows[1]["rating"]) == Self.json(Value.int(3)))
    }

    @Test(arguments: [
        // (CSV, the line the error names, what it says)
        ("variety,notes\nRusset,ok\nYukon,\u{FF}bad\n", 3, "not UTF-8"),
        ("variety,notes\nRusset,\"two\nlines\"\nYukon,\u{FF}\n", 4, "not UTF-8"),
        ("variety,notes\nRusset,\"first\n\u{FF}second\"\n", 3, "not UTF-8"),
        ("variety,notes,variety\nRusset,a,b\n", 1, "the header names 'variety' twice (columns 1 and 3)"),
        ("variety,,notes\nRusset,a,b\n", 1, "column 2 of the header has no name"),
        ("variety,notes\n\"a\nb\nc\",x\nRusset\n", 5, "1 fields, but the header has 2"),
        ("variety,notes\n\n\nRusset,x,y\n", 4, "3 fields, but the header has 2"),
        ("variety,rating\n\"multi\nline\",2\nYukon,many\n", 4, "'many' is not a valid Integer 16"),
        ("variety,notes\nRusset,\"open\nstill open\n", 2, "no closing quote"),
        ("variety,notes\nRu\"sset,x\n", 2, "a quote inside an unquoted field"),
        ("variety,notes\n\"Rus\"set,x\n", 2, "after a closing quote"),
        ("variety,colour\n\"a\nb\",x\nRusset,y\nYukon,z,extra\n", 5, "3 fields"),
        ("variety,size\n\"a\nb\",x\n", 2, "unknown key 'size'"),
    ] as [(String, Int, String)])
    func errorsNameTheLineOfTheFile(_ csv: String, _ line: Int, _ message: String) throws {
        let store = try Self.store()
        // "\u{FF}" stands for the byte 0xFF, which is not UTF-8.
        let bytes = csv.unicodeScalars.map { $0 == "\u{FF}" ? UInt8(0xFF) : UInt8(truncatingIfNeeded: $0.value) }
        let error = #expect(throws: StoreError.self) { try StoreImporter.importCSV(Data(bytes), entity: "Potato", into: store) }
        #expect(error?.message.contains("CSV line \(line)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("row") == false, "\(error?.message ?? "")")
        #expect(try store.count(FetchRequest(statement: "Potato")) == 0)
    }

    @Test func aByteOrderMarkAndCRLFAreRead() throws {
        let store = try Self.store()
        try StoreImporter.importCSV(Data([0xEF, 0xBB, 0xBF] + Array("variety,notes\r\n\"Ru,sset\",\"say \"\"hi\"\"\"\r\n".utf8)), entity: "Potato", into: store)
        let rows = try Self.rows(store)
        #expect(Self.json(rows.first?["variety"]) == Self.json(Value.string("Ru,sset")))
        #expect(Self.json(rows.first?["notes"]) == Self.json(Value.string("say \"hi\"")))
    }
}
