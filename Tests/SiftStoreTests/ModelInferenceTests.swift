import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore
import Testing

/// A one-entity model inferred from CSV or JSON Lines (`ModelInference`), and dates read in a
/// pattern (`ImportDateFormat`).
@Suite struct ModelInferenceTests {
    static func types(csv: String, dateFormat: ImportDateFormat? = nil) throws -> [String] {
        var inference = ModelInference(entity: "Row", dateFormat: dateFormat)
        try inference.addCSV(Data(csv.utf8))
        return try inference.model().entities[0].attributes.map { "\($0.name): \($0.type.name)" }
    }

    @Test func csvColumnsAreTypedByTheirCells() throws {
        let csv = "@id,i,d,b,t,s,mixed,none,quoted\n"
            + "R1,1,1,TRUE,2020-01-02,x,1,,\"\"\n"
            + "R2,-7,2.5,false,2020-01-02T03:04:05Z,2020-01-02,true,,\"\"\n"
        #expect(try Self.types(csv: csv) == ["i: Integer 64", "d: Double", "b: Boolean", "t: Date", "s: String", "mixed: String",
                                             "none: String", "quoted: String"])
        // "nan" and "inf" are text, not numbers.
        #expect(try Self.types(csv: "x\nnan\ninf\n") == ["x: String"])
        #expect(try Self.types(csv: "d\n04/03/2021\n", dateFormat: ImportDateFormat("dd/MM/yyyy")) == ["d: Date"])
        #expect(try Self.types(csv: "d\n2021-03-04\n", dateFormat: ImportDateFormat("dd/MM/yyyy")) == ["d: String"])
    }

    @Test func jsonLinesKeysAreTypedByTheirValues() throws {
        var inference = ModelInference(entity: "Row")
        try inference.addJSONLines(JSONRecordReader(text: """
            {"@entity": "Row", "a": 1, "b": 1, "c": null}
            {"a": 2, "b": 1.5, "d": "2020-01-02"}
            """))
        let model = try inference.model()
        #expect(model.entities.map(\.name) == ["Row"])
        #expect(model.entities[0].attributes.map { "\($0.name): \($0.type.name) \($0.isOptional)" }
                == ["a: Integer 64 true", "b: Double true", "c: String true", "d: Date true"])
    }

    @Test func jsonLinesOfAnotherEntityOrNestedValuesAreErrors() throws {
        var other = ModelInference(entity: "Row")
        #expect(throws: StoreError.self) { try other.addJSONLines(JSONRecordReader(text: #"{"@entity": "Note"}"#)) }
        var nested = ModelInference(entity: "Row")
        do {
            try nested.addJSONLines(JSONRecordReader(text: #"{"tags": ["a"]}"#))
            Issue.record("an array was taken as an attribute")
        } catch {
            #expect(error.message.hasPrefix("line 1: 'tags' holds a nested value (array)"), "\(error.message)")
        }
    }

    @Test func datePatternsReadStrictlyInUTC() throws {
        let format = try ImportDateFormat("dd/MM/yyyy HH:mm")
        let store = AtomicStore.inMemory(model: try DataModel(entities: [
            EntityDescription(name: "Row", attributes: [AttributeDescription(name: "at", type: .date)]),
        ]))
        let summary = try StoreImporter.importCSV(Data("at\n04/03/2021 13:30\n".utf8), entity: "Row", into: store,
                                                  options: ImportOptions(dateFormat: format))
        #expect(summary.total == 1)
        let rows = try StoreImporter.importJSONLines(Data(#"{"at": "31/12/1999 23:59"}"#.utf8), into: store,
                                                     options: ImportOptions(entity: "Row", dateFormat: format))
        #expect(rows.total == 1)
        #expect(throws: StoreError.self) {
            try StoreImporter.importCSV(Data("at\n31/02/2021 10:00\n".utf8), entity: "Row", into: store, options: ImportOptions(dateFormat: format))
        }
        #expect(throws: StoreError.self) { try ImportDateFormat("") }
        #expect(throws: StoreError.self) { try ImportDateFormat("hello") }
        let dates = try store.fetch(FetchRequest(entityName: "Row")).compactMap { object -> Date? in
            if case .date(let date)? = object[attribute: "at"] { date } else { nil }
        }
        #expect(Set(dates.map(ISO8601.string(from:))) == ["2021-03-04T13:30:00Z", "1999-12-31T23:59:00Z"])
    }
}
