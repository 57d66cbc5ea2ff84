import ArgumentParser
import Foundation
import Sift

/// `sift import`: data into a store, all or nothing.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import JSON or CSV data into a store (creating it from a model if needed).",
        discussion: """
            JSON data maps entity names to arrays of rows (docs/IMPORT.md):
              {"Note": [{"@id": "N1", "title": "Hello", "createdAt": "2017-07-06T07:22:18Z",
                         "category": "C1", "tags": ["T1", "T2"]}], "Category": [...], "Tag": [...]}
            Rows are inserted in file order and keep their @id as their object ID; relationships name
            @ids of the file or of the store; dates are ISO 8601 strings, UUIDs strings, binary base64;
            an omitted attribute takes its default. A .csv file holds rows of one entity (--entity),
            with a header row of property names (@id optional).

            Every file is checked before anything is written: a wrong type, an unknown key, a dangling
            reference or a broken constraint is reported with the entity, the @id and the key, and the
            store is left as it was. The store kind follows the extension: .sqlite or .db (SQLite), .json or .plist.

            Examples:
              $ sift import --store notes.json --model Examples/Notes/model.json Examples/Notes/data.json
              $ sift import --store notes.plist --model Examples/Notes/Notes.xcdatamodeld Examples/Notes/data.json
              $ sift import --store notes.sqlite --model Examples/Notes/model.json Examples/Notes/data.json
              $ sift import --store potatoes.json --entity Potato potatoes.csv
            """
    )

    @Option(help: ArgumentHelp("The store file (.sqlite, .db, .json or .plist); created when it does not exist.", valueName: "STORE"))
    var store: String

    @Option(help: ArgumentHelp("The model (model.json, .xcdatamodel or .xcdatamodeld), needed to create a store.", valueName: "MODEL"))
    var model: String?

    @Option(help: ArgumentHelp("The entity of CSV rows.", valueName: "ENTITY"))
    var entity: String?

    @Argument(help: "JSON or CSV data files, imported in order.")
    var data: [String] = []

    func run() throws {
        let store: any PersistentStore
        if FileManager.default.fileExists(atPath: self.store) {
            store = try StoreFile.open(self.store)
        } else {
            guard let model else {
                Output.error("error: \(self.store) does not exist; give --model MODEL to create it")
                throw ExitCode(1)
            }
            store = try StoreFile.create(self.store, model: try StoreFile.loadModel(model))
        }
        for path in data {
            guard let contents = FileManager.default.contents(atPath: path) else {
                Output.error("error: cannot read \(path)")
                throw ExitCode(1)
            }
            let summary: ImportSummary = try StoreFile.report { () throws(StoreError) in
                do throws(StoreError) {
                    if path.lowercased().hasSuffix(".csv") {
                        guard let entity else {
                            throw StoreError(.invalidRequest, "CSV rows are of one entity: give --entity")
                        }
                        return try StoreImporter.importCSV(contents, entity: entity, into: store)
                    }
                    return try StoreImporter.importJSON(contents, into: store)
                } catch {
                    throw StoreError(error.code, "\(path): \(error.message)", entity: error.entity, objectID: error.objectID, key: error.key)
                }
            }
            let parts = summary.counts.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")
            print("\(path): imported \(summary.total) object\(summary.total == 1 ? "" : "s")\(parts.isEmpty ? "" : " (\(parts))")")
        }
    }
}
