import ArgumentParser
import Foundation
import Sift

/// `sift import`: data into a store, all or nothing.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import JSON, JSON Lines or CSV data into a store (creating it from a model if needed).",
        discussion: """
            JSON data maps entity names to arrays of rows (docs/IMPORT.md):
              {"Note": [{"@id": "N1", "title": "Hello", "createdAt": "2017-07-06T07:22:18Z",
                         "category": "C1", "tags": ["T1", "T2"]}], "Category": [...], "Tag": [...]}
            Rows are inserted in file order and keep their @id as their object ID; relationships name
            @ids of the file or of the store; dates are ISO 8601 strings, UUIDs strings, binary base64;
            an omitted attribute takes its default. A .jsonl (or .ndjson) file holds one object a line,
            naming its entity: {"@entity": "Note", "@id": "N1", "title": "Hello", "category": "C1"};
            it is read a line at a time, so files of any size import in flat memory ('-' reads standard
            input as JSON Lines). A .csv file holds rows of one entity (--entity), with a header row of
            property names (@id optional).

            Every file is checked before anything is written: a wrong type, an unknown key, a dangling
            reference or a broken constraint is reported with the entity, the @id and the key, and the
            store is left as it was. The store kind follows the extension: .sqlite or .db (SQLite), .json or .plist.
            On a terminal, an import that takes more than a second shows its progress on standard error.
            A .json or .csv file is read whole, in at most --memory bytes (default: half of what the
            process may use; also SIFT_MEMORY); a larger one is refused before it is read (write it
            as JSON Lines instead). In a .csv file an empty cell leaves its attribute out (nil, or the
            model's default) and a quoted empty cell ("") is the empty string; errors name the line.

            Examples:
              $ sift import --store notes.json --model Examples/Notes/model.json Examples/Notes/data.json
              $ sift import --store notes.plist --model Examples/Notes/Notes.xcdatamodeld Examples/Notes/data.json
              $ sift import --store notes.sqlite --model Examples/Notes/model.json Examples/Notes/data.json
              $ sift import --store potatoes.json --entity Potato potatoes.csv
              $ sift import --store people.sqlite --model people.json people.jsonl
              $ generate-rows | sift import --store people.sqlite -
            """
    )

    @Option(help: ArgumentHelp("The store file (.sqlite, .db, .json or .plist); created when it does not exist.", valueName: "STORE"))
    var store: String

    @Option(help: ArgumentHelp("The model (model.json, .xcdatamodel or .xcdatamodeld), needed to create a store.", valueName: "MODEL"))
    var model: String?

    @Option(help: ArgumentHelp("The entity of CSV rows.", valueName: "ENTITY"))
    var entity: String?

    @Argument(help: "JSON, JSON Lines (.jsonl, .ndjson, or - for standard input) or CSV data files, imported in order.")
    var data: [String] = []

    @Option(help: ArgumentHelp("The most memory a .json or .csv file read whole may take: bytes, or 512M, 2G.", valueName: "SIZE"))
    var memory: String?

    func run() throws {
        let budget = try MemoryBudget.forCommand(option: memory)
        var newModel: DataModel?
        if !FileManager.default.fileExists(atPath: self.store) {
            guard let model else {
                Output.error("error: \(self.store) does not exist; give --model MODEL to create it")
                throw ExitCode(1)
            }
            newModel = try StoreFile.loadModel(model)
        }
        // Held under the store's write lock from reading it to the last save (atomic stores).
        let store = try StoreFile.openForWriting(self.store, creatingWith: newModel)
        for path in data {
            let progress = ProgressLine(label: path == "-" ? "<stdin>" : path)
            defer { progress.finish() }
            let summary: ImportSummary = try StoreFile.report { () throws(StoreError) in
                do throws(StoreError) {
                    return try Self.importFile(path, entity: entity, into: store, budget: budget, progress: progress.update(rows:))
                } catch {
                    throw error.prefixed("\(path == "-" ? "<stdin>" : path): ")
                }
            }
            progress.finish()
            let parts = summary.counts.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")
            print("\(path == "-" ? "<stdin>" : path): imported \(summary.total) object\(summary.total == 1 ? "" : "s")\(parts.isEmpty ? "" : " (\(parts))")")
        }
    }

    /// How many times its size a JSON or CSV file takes in memory once read (its text and the
    /// values made of it), roughly.
    static let wholeFileFactor = 8

    /// Imports one file by its kind: JSON Lines streams; JSON and CSV (rows of `entity`) are read
    /// whole, if `budget` has room for them. Also the REPL's `.import`.
    static func importFile(_ path: String, entity: String?, into store: any PersistentStore, budget: MemoryBudget? = nil,
                           progress: @escaping (Int) -> Void = { _ in }) throws(StoreError) -> ImportSummary {
        // A JSON or binary store is read again under its write lock if another process saved it.
        let atomic = store as? AtomicStore
        try atomic?.lockForWriting()
        defer { atomic?.unlockForWriting() }
        let lowered = path.lowercased()
        if path == "-" || lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson") {
            let handle: FileHandle
            if path == "-" {
                handle = FileHandle.standardInput
            } else {
                guard let opened = FileHandle(forReadingAtPath: path) else { throw StoreError(.fileSystem, "cannot read \(path)") }
                handle = opened
            }
            defer { if path != "-" { try? handle.close() } }
            return try StoreImporter.importJSONLines(JSONRecordReader(fileHandle: handle, keepingText: false), into: store, progress: progress)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        var budget = budget ?? (try? MemoryBudget.resolve(option: nil)) ?? MemoryBudget(limit: MemoryBudget.systemDefault())
        if let size, !budget.hold(size.multipliedReportingOverflow(by: wholeFileFactor).overflow ? Int.max : size * wholeFileFactor) {
            throw StoreError(.invalidRequest, "a .json or .csv file is read whole, and this one (\(MemoryBudget.text(size))) would take more than the "
                             + "\(budget.limitText) sift may use; write its rows as JSON Lines (.jsonl, one object a line), which is read a line "
                             + "at a time, or allow more with --memory SIZE (or SIFT_MEMORY) where the machine has it")
        }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw StoreError(.fileSystem, "cannot read \(path)")
        }
        if lowered.hasSuffix(".csv") {
            guard let entity else {
                throw StoreError(.invalidRequest, "CSV rows are of one entity: give --entity")
            }
            return try StoreImporter.importCSV(contents, entity: entity, into: store, progress: progress)
        }
        return try StoreImporter.importJSON(contents, into: store, progress: progress)
    }
}
