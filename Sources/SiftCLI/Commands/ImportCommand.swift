#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import Sift

/// `sift import`: data into a store, all or nothing.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import JSON, JSON Lines or CSV data, or every object of another store (--from), into a store (creating it if needed).",
        discussion: """
            JSON data maps entity names to arrays of rows (docs/IMPORT.md):
              {"Note": [{"@id": "N1", "title": "Hello", "createdAt": "2017-07-06T07:22:18Z",
                         "category": "C1", "tags": ["T1", "T2"]}], "Category": [...], "Tag": [...]}
            Rows are inserted in file order and keep their @id as their object ID; relationships name @ids of the file or of the store; dates are ISO 8601 strings (or --date-format's), UUIDs strings, binary base64; an omitted attribute takes its default. A .jsonl (or .ndjson) file holds one object a line, naming its entity: {"@entity": "Note", "@id": "N1", "title": "Hello", "category": "C1"} (or of --entity, when a line names none); it is read a line at a time, so files of any size import in flat memory; a file's lines are cut into chunks that --jobs threads (default: one fewer than the processors sift may use) parse and check, while one more thread inserts the rows in file order. A .csv file holds rows of one entity (--entity), with a header row of property names (@id optional). Standard input (-) and files of another extension are told by their content (CSV unless it starts with {), unless --format says.

            A new store needs a model: --model, or with --entity alone a model of one entity inferred from CSV or JSON Lines data (an attribute per column or key, typed by its values: Integer 64, Double, Boolean, Date for ISO 8601 dates, else String; all optional): --save-model FILE writes it, to edit and give as --model next time, and --verbose prints it on standard error. A file is read through to infer the model before anything is written, so a record with the wrong number of fields is reported first; standard input, read once, is typed by its first 16 MB. A store whose model was inferred grows: --entity naming an entity it lacks adds one inferred from the data. A new store appears only once every file is in: a failed import leaves no file.

            Every file is checked before anything is written: a wrong type, an unknown key, a dangling reference or a broken constraint is reported with the entity, the @id and the key, and the store is left as it was. The store kind follows the extension: .sqlite or .db (SQLite), .json or .plist; an existing file of another extension is told by its first bytes. On a terminal, an import that takes more than a second shows its progress on standard error. A .json file is read whole, in at most --memory bytes (default: half of what the process may use; also SIFT_MEMORY); a larger one is refused before it is read (write it as JSON Lines instead); .jsonl and .csv files stream, in flat memory. In a .csv file an empty cell leaves its attribute out (nil, or the model's default) and a quoted empty cell ("") is the empty string; errors name the line.

            --from SOURCE copies a whole store instead of data files: every object of every entity of SOURCE (any store sift opens: a .sqlite or .db store, a SQLite database Sift did not create, a Core Data store, .json, .plist, postgres://…), with its attributes and every relationship (to-one, to-many, ordered, many-to-many), into --store in one transaction, all or nothing. A missing --store is created with SOURCE's model; an existing one must hold it (every entity, attribute type and relationship of SOURCE's model; more is allowed), else the error names the difference. --model is then the model of a Core Data SOURCE. SOURCE is read a batch of objects at a time, and only read. Object IDs: a store in Sift's layout (SQLite, PostgreSQL, JSON, binary) keeps SOURCE's IDs (N1, Album/3, x-coredata://…/ICNote/p8); a database Sift did not create gives each row the ID of its own key, and relationships follow.

            Examples:
              $ sift import --store notes.json --model Examples/Notes/model.json Examples/Notes/data.json
              $ sift import --store notes.plist --model Examples/Notes/Notes.xcdatamodeld Examples/Notes/data.json
              $ sift import --store notes.sqlite --model Examples/Notes/model.json Examples/Notes/data.json
              $ sift import --store potatoes.json --entity Potato potatoes.csv
              $ sift import --store people.sqlite --entity Person --save-model person.json people.csv
              $ sift import --store people.sqlite --model people.json people.jsonl
              $ sift import --store people.sqlite --entity Person --date-format dd/MM/yyyy people.csv
              $ generate-rows | sift import --store people.sqlite -
              $ sift import --store notes.sqlite --from notes.json
              $ sift import --store postgres://localhost/notes --from NoteStore.sqlite
            """
    )

    @Option(help: ArgumentHelp("The store file (.sqlite, .db, .json or .plist), or a PostgreSQL database (postgres://USER@HOST/DB); created when it does not exist.", valueName: "STORE"))
    var store: String

    @Option(help: ArgumentHelp("The model (model.json, .xcdatamodel or .xcdatamodeld), needed to create a store unless --entity infers one; with --from, the model of a Core Data SOURCE; for an existing Core Data store, its model (.momd and .mom too), which one without a model cache is changed with.", valueName: "MODEL"))
    var model: String?

    @Option(help: ArgumentHelp("Copy every object and relationship of this store (any store sift opens, a Core Data store or postgres://… included) into --store, instead of data files.", valueName: "SOURCE"))
    var from: String?

    @Option(help: ArgumentHelp("The entity of CSV rows and of JSON Lines records without @entity; for a new store without --model, the one entity of the model inferred from the data (or one added to a store whose model was inferred).", valueName: "ENTITY"))
    var entity: String?

    @Argument(help: "JSON, JSON Lines (.jsonl, .ndjson) or CSV data files, imported in order; - reads standard input.")
    var data: [String] = []

    @Option(help: ArgumentHelp("The format of the data files: json, jsonl or csv (by default each file's extension says; standard input and other files are told by their content).", valueName: "FORMAT"),
            completion: .list(ImportFormat.allCases.map(\.rawValue)))
    var format: String?

    @Option(help: ArgumentHelp("How dates that are not ISO 8601 are written: a DateFormatter pattern such as dd/MM/yyyy or MM-dd-yyyy HH:mm, read in UTC.", valueName: "PATTERN"))
    var dateFormat: String?

    @Option(help: ArgumentHelp("Write the model inferred from the data (--entity without --model) to FILE, to edit and give as --model.", valueName: "FILE"))
    var saveModel: String?

    @Flag(help: "Print the model inferred from the data (--entity without --model) on standard error.")
    var verbose = false

    @Option(help: ArgumentHelp("The most memory a .json file read whole may take: bytes, or 512M, 2G.", valueName: "SIZE"))
    var memory: String?

    @Option(help: ArgumentHelp("The layout of a new SQLite store: sift (Sift's own, the default) or coredata (Core Data's tables, Z_PRIMARYKEY and Z_METADATA, for an app to open with the same model).", valueName: "LAYOUT"),
            completion: .list(NewStoreLayout.allCases.map(\.rawValue)))
    var layout: String?

    @Option(help: ArgumentHelp("Threads that read and check a JSON Lines file (default: one fewer than the processors this process may use, at least 1); 1 reads it on one thread. One more thread inserts the rows, in file order.", valueName: "N"))
    var jobs: Int?

    /// The default of `--jobs`: the usable processors but the one the inserting thread keeps
    /// busy (on two, the one reading thread of `--jobs 1`: chunks would only add threads that
    /// take turns with the writer on the same two processors).
    static var defaultJobs: Int { max(1, UsableProcessors.count - 1) }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more (threads; the default is \(Self.defaultJobs), one fewer than the processors this process may use), not \(jobs)") }
        if from != nil {
            if !data.isEmpty {
                throw ValidationError("--from copies a whole store and takes no data files: import \(data.map { "'\($0)'" }.joined(separator: ", ")) without --from, and the store with --from alone")
            }
            let dataOptions = [(entity != nil, "--entity"), (self.format != nil, "--format"), (dateFormat != nil, "--date-format"),
                               (saveModel != nil, "--save-model"), (verbose, "--verbose"), (jobs != nil, "--jobs")].filter(\.0).map(\.1)
            if let option = dataOptions.first {
                throw ValidationError("\(option) is for data files; --from copies a store, whose model and values are its own")
            }
        }
        if let format, ImportFormat(rawValue: format) == nil {
            throw ValidationError("--format takes json, jsonl or csv, not '\(format)'")
        }
        if let layout {
            guard let chosen = NewStoreLayout(rawValue: layout) else {
                throw ValidationError("--layout takes \(NewStoreLayout.allCases.map(\.rawValue).joined(separator: " or ")), not '\(layout)'")
            }
            if chosen == .coredata && StoreFile.Kind(path: store) != .sqlite {
                throw ValidationError("--layout coredata makes a SQLite store (.sqlite, .db, .sqlite3): \(store) is not one")
            }
        }
        if saveModel != nil && model != nil {
            throw ValidationError("--save-model writes the model inferred from the data, and --model gives one: use one of them")
        }
    }

    func run() throws {
        let budget = try MemoryBudget.forCommand(option: memory)
        EvaluationBudget.defaultMemoryLimit = budget.limit
        if let from {
            try copyStore(from: from)
            return
        }
        let dates = try dateFormat.map { pattern in try StoreFile.report { () throws(StoreError) in try ImportDateFormat(pattern) } }
        let options = ImportOptions(entity: entity, dateFormat: dates, jobs: jobs ?? Self.defaultJobs)
        let format = self.format.flatMap(ImportFormat.init(rawValue:))
        let input = data.contains("-") ? StandardInput() : nil
        var imports = Imports(command: self, options: options, format: format, budget: budget, standardInput: input)
        // A file that cannot be read is found before anything is made or changed.
        for path in data where path != "-" {
            try StoreFile.report { () throws(StoreError) in
                let handle = try Self.open(path)
                try? handle.close()
            }
        }
        let layout = self.layout.flatMap(NewStoreLayout.init(rawValue:)) ?? .sift
        var coreDataModel: CoreDataModel?
        if try !Self.holdsStore(self.store) {
            let newModel: DataModel
            if let model, layout == .coredata {
                let loaded = try StoreFile.loadCoreDataModel(model)
                coreDataModel = loaded
                newModel = loaded.model
            } else if let model {
                newModel = try StoreFile.loadModel(model)
            } else if let entity {
                var reading = budget
                let inferred = try StoreFile.report { () throws(StoreError) in
                    try Self.inferModel(entity: entity, from: data, options: options, format: format, standardInput: input, budget: &reading)
                }
                try show(inferred.model)
                newModel = inferred.model
                imports.sampled = inferred.sampled
            } else if StoreFile.Kind(path: self.store) == .postgres {
                Output.error("error: the database \(self.store) holds no Sift store; give --model MODEL to make one in it (or --entity ENTITY to infer a model from CSV or JSON Lines data)")
                throw ExitCode(1)
            } else {
                Output.error("error: \(self.store) does not exist; give --model MODEL to create it (or --entity ENTITY to infer a model from CSV or JSON Lines data)")
                throw ExitCode(1)
            }
            // A new store file appears whole, once every file is in, or not at all.
            imports.creating = true
            var done: [String] = []
            do {
                if layout == .coredata {
                    let described = coreDataModel ?? CoreDataModel(deriving: newModel)
                    _ = try SQLiteStore.createCoreData(at: URL(fileURLWithPath: self.store), model: described) { store in
                        try imports.run(into: store) { done.append($0) }
                    }
                } else {
                    try StoreFile.create(self.store, model: newModel) { store in try imports.run(into: store) { done.append($0) } }
                }
                done.forEach { print($0) }
                return
            } catch let error as StoreError where error.code == .conflict && !data.contains("-") {
                // Another process created the store meanwhile (before this one started to make
                // it, or while it did): the files go into the one it made.
            } catch let error as StoreError {
                Output.error("error: \(error.message)")
                throw ExitCode(1)
            }
            imports.creating = false
        }
        if self.layout != nil {
            Output.error("error: \(self.store) exists: --layout chooses the layout of a new store")
            throw ExitCode(1)
        }
        // Held under the store's write lock from reading it to the last save (atomic stores).
        // (--model of an existing Core Data store is its model, which a store without a model
        // cache is changed with; of another existing store, it is not used.)
        let existingStoreModel = StoreFile.Kind(path: self.store) == .sqlite && SQLiteStore.isCoreDataStore(at: URL(fileURLWithPath: self.store)) ? model : nil
        let store = try StoreFile.openForWriting(self.store, creatingWith: nil, coreDataModel: existingStoreModel)
        if model == nil, let entity, store.model.entity(named: entity) == nil, store.model.isInferred, store is any ModelGrowingStore {
            // A store whose model was inferred grows by an entity inferred from the data.
            var reading = budget
            let inferred = try StoreFile.report { () throws(StoreError) in
                try Self.inferModel(entity: entity, from: data, options: options, format: format, standardInput: input, budget: &reading)
            }
            let grown = try StoreFile.report { () throws(StoreError) in
                do throws(ModelError) {
                    return try store.model.adding(inferred.model.entities)
                } catch {
                    throw StoreError(.unsupportedModel, "cannot add \(entity) to the store's model: \(error.message)")
                }
            }
            try show(grown)
            imports.sampled = inferred.sampled
            imports.newEntities = inferred.model.entities
        } else if saveModel != nil {
            Output.error("error: \(self.store) exists: its model is the store's (--save-model writes a model inferred for a new store, or for an entity added to a store's inferred model)")
            throw ExitCode(1)
        }
        try imports.run(into: store) { print($0) }
    }

    /// `--from SOURCE`: every object of SOURCE into the store (made with SOURCE's model when
    /// there is none), by ``StoreCopy``, with a progress line on a terminal and one summary line.
    private func copyStore(from sourcePath: String) throws {
        if Self.sameStore(sourcePath, store) {
            Output.error("error: --from and --store name the same store, \(store); copy it into another")
            throw ExitCode(64)
        }
        let source = try StoreFile.open(sourcePath, readOnly: true, model: model)
        let progress = ProgressLine(label: sourcePath)
        defer { progress.finish() }
        var summary: StoreCopy.Summary?
        func copy(into target: any PersistentStore) throws {
            summary = try StoreCopy(from: source, into: target).run { state in
                progress.update(status: { seconds in
                    let done = state.inserted + state.linked
                    let rate = Int((Double(done) / 2 / max(seconds, 0.001)).rounded())
                    return state.inserted < state.total
                        ? "inserted \(state.inserted.formatted()) of \(state.total.formatted()) objects  (\(rate.formatted()) objects/s)"
                        : "set the relationships of \(state.linked.formatted()) of \(state.total.formatted()) objects  (\(rate.formatted()) objects/s)"
                })
            }
        }
        let creating = try !Self.holdsStore(store)
        if !creating && layout != nil {
            Output.error("error: \(store) exists: --layout chooses the layout of a new store")
            throw ExitCode(1)
        }
        // Ctrl-C stops the copy (SOURCE's reads, which it checks between objects): nothing of it
        // is saved, a new store is not made, and the process ends as SIGINT ends it.
        let interrupter = StatementInterrupter(whenIdle: .terminate)
        defer { interrupter.stop() }
        var failure: (any Error)?
        let interrupted = interrupter.run(stopping: source) {
            do {
                if creating && layout.flatMap(NewStoreLayout.init(rawValue:)) == .coredata {
                    // Core Data's tables for SOURCE's model, filled as a Sift store is.
                    _ = try SQLiteStore.createCoreData(at: URL(fileURLWithPath: store), model: CoreDataModel(deriving: StoreCopy.model(of: source)), filling: copy(into:))
                } else if creating {
                    // A new store file appears whole, once every object is in, or not at all.
                    try StoreFile.create(store, model: StoreCopy.model(of: source), filling: copy(into:))
                } else {
                    // Held under the store's write lock from reading it to the save (atomic stores).
                    let target = try StoreFile.openForWriting(store, creatingWith: nil)
                    let locking = target as? any WriteLockingStore
                    try locking?.lockForWriting()
                    defer { locking?.unlockForWriting() }
                    try copy(into: target)
                }
            } catch {
                failure = error
            }
        }
        progress.finish()
        if let failure {
            if let exit = failure as? ExitCode { throw exit }
            let stopped = interrupted || BatchChange.isInterruption(failure)
            var message = stopped ? "interrupted" : ErrorText.message(of: failure)
            if creating {
                message += StoreFile.Kind(path: store) == .postgres ? "; the store made in the database holds none of the data" : "; \(store) was not created"
            } else {
                message += "; \(store) was left as it was"
            }
            Output.error("error: \(sourcePath): \(message)")
            if stopped { StatementInterrupter.endInterrupted() }
            throw ExitCode(1)
        }
        guard let summary else { return }
        let parts = summary.counts.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")
        let line = "\(sourcePath): imported \(summary.total) object\(summary.total == 1 ? "" : "s")\(parts.isEmpty ? "" : " (\(parts))")"
        print(line)
        if interrupted {
            // (Ctrl-C after the copy was saved: it was made, and says so.)
            Output.error(BatchChange.interruptedAfterSaving("\(sourcePath): imported \(summary.total) object\(summary.total == 1 ? "" : "s")"))
            StatementInterrupter.endInterrupted()
        }
    }

    /// Whether two `--store` values name the same store: the same PostgreSQL string, or the same
    /// file (through links).
    static func sameStore(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        let kinds = (StoreFile.Kind(path: a), StoreFile.Kind(path: b))
        guard kinds.0 != .postgres, kinds.1 != .postgres else { return false }
        let resolved = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        return resolved(a) == resolved(b)
    }

    /// Whether `store` names a store to import into: an existing file (not an empty `.sqlite`
    /// one, SQLite's empty database, which a store from --model replaces), or a PostgreSQL
    /// database holding a Sift store (a database without one gets one from --model, as a
    /// missing file does).
    static func holdsStore(_ store: String) throws -> Bool {
        switch StoreFile.Kind(path: store) {
        case .postgres: break
        case .sqlite: return FileManager.default.fileExists(atPath: store) && !SQLiteStore.isEmptyDatabaseFile(URL(fileURLWithPath: store))
        case .atomic: return FileManager.default.fileExists(atPath: store)
        }
        return try StoreFile.report { () throws(StoreError) in
            do throws(StoreError) {
                return try !PostgreSQLStore.open(conninfo: store).isReadOnly
            } catch where error.code == .unsupportedModel {
                // Tables that cannot be read as a model: no Sift store.
                return false
            }
        }
    }

    /// The data files imported into one store, in order, each all or nothing (and, into a new
    /// store, all of them or none).
    struct Imports {
        let command: ImportCommand
        let options: ImportOptions
        let format: ImportFormat?
        let budget: MemoryBudget
        let standardInput: StandardInput?
        /// Whether the model fits only the start of standard input (read once, as it streams).
        var sampled = false
        /// Whether the store is new: a failure leaves no file.
        var creating = false
        /// Entities the first file's import adds to the store's model.
        var newEntities: [EntityDescription] = []

        /// Imports every file into `store`, telling `done` what each imported.
        func run(into store: any PersistentStore, done: (String) -> Void) throws {
            for (index, path) in command.data.enumerated() {
                let name = path == "-" ? "<stdin>" : path
                var options = self.options
                if index == 0 { options.newEntities = newEntities }
                let progress = ProgressLine(label: name)
                defer { progress.finish() }
                let summary: ImportSummary = try StoreFile.report { () throws(StoreError) in
                    do throws(StoreError) {
                        return try ImportCommand.importFile(path, entity: command.entity, into: store, budget: budget, options: options, format: format,
                                                           standardInput: standardInput, progress: progress.update(rows:))
                    } catch {
                        var error = error.prefixed("\(name): ")
                        if error.code == .memoryLimit {
                            error = error.suffixed("; or allow more with --memory SIZE (or SIFT_MEMORY) where the machine has it")
                        }
                        if sampled && path == "-" && error.code == .invalidValue {
                            error = error.suffixed(" (the model was inferred from the first \(MemoryBudget.text(ImportCommand.standardInputSample)) of standard input; "
                                                   + "give --model MODEL, or import from a file, which is read through to infer the model)")
                        }
                        if creating {
                            // A PostgreSQL database gets its store before the data goes in.
                            error = error.suffixed(StoreFile.Kind(path: command.store) == .postgres
                                ? "; the store made in the database holds none of the data" : "; \(command.store) was not created")
                        }
                        throw error
                    }
                }
                progress.finish()
                let parts = summary.counts.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")
                done("\(name): imported \(summary.total) object\(summary.total == 1 ? "" : "s")\(parts.isEmpty ? "" : " (\(parts))")")
            }
            if !creating { BatchChange.printChangeCaveats(of: store) }
        }
    }

    /// Shows an inferred model: in --save-model's file, and with --verbose on standard error.
    private func show(_ model: DataModel) throws {
        let text = JSONModelFormat.write(model)
        if let saveModel {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: saveModel))
            } catch {
                Output.error("error: cannot write the model to \(saveModel): \(ErrorText.message(of: error))")
                throw ExitCode(1)
            }
        }
        if verbose {
            Output.error("sift: the model inferred from the data (--save-model FILE writes it to a file to edit and give as --model):")
            Output.error(text)
        }
    }

    /// How much of standard input a model is inferred from: the input streams, read once, so
    /// the model fits its start (the whole of a file is read to infer one).
    static let standardInputSample = 16 << 20

    /// How many times its size a JSON or CSV file takes in memory once read (its text and the
    /// values made of it), roughly.
    static let wholeFileFactor = 8

    /// The one-entity model of CSV or JSON Lines data (``ModelInference``), read through (a
    /// file, a record at a time) or, for CSV on standard input, from its first
    /// ``standardInputSample`` bytes (`sampled`), which the import then reads again.
    static func inferModel(entity: String, from paths: [String], options: ImportOptions, format: ImportFormat?,
                           standardInput: StandardInput?, budget: inout MemoryBudget) throws(StoreError) -> (model: DataModel, sampled: Bool) {
        guard !paths.isEmpty else {
            throw StoreError(.invalidRequest, "no data to infer a model from: give CSV or JSON Lines files (or - for standard input), or --model MODEL")
        }
        var inference = ModelInference(entity: entity, dateFormat: options.dateFormat)
        var sampled = false
        for path in paths {
            let name = path == "-" ? "<stdin>" : path
            do throws(StoreError) {
                switch try Self.format(of: path, given: format, standardInput: standardInput) {
                case .json:
                    throw StoreError(.invalidRequest, "a model is inferred from CSV or JSON Lines data, not from JSON of entities' rows; give --model MODEL")
                case .csv:
                    if path == "-" {
                        let input = standardInput ?? StandardInput()
                        let reader = input.csvReader()
                        reader.startRecording()
                        sampled = try !inference.addCSV(reader, byteLimit: standardInputSample)
                        input.replaceHead(with: reader.recorded)
                    } else {
                        let handle = try open(path)
                        defer { try? handle.close() }
                        try inference.addCSV(CSVReader(fileHandle: handle))
                    }
                case .jsonLines:
                    if path == "-" {
                        try inference.addJSONLines(JSONRecordReader(bytes: try wholeFile(path, standardInput: standardInput, budget: &budget), keepingText: false))
                    } else {
                        let handle = try open(path)
                        defer { try? handle.close() }
                        try inference.addJSONLines(JSONRecordReader(fileHandle: handle, keepingText: false))
                    }
                }
            } catch {
                throw error.prefixed("\(name): ")
            }
        }
        do throws(StoreError) {
            return (try inference.model(), sampled)
        } catch {
            // Its lines are of the one file there is.
            throw paths.count == 1 ? error.prefixed("\(paths[0] == "-" ? "<stdin>" : paths[0]): ") : error
        }
    }

    /// Imports one file by its kind (`format`, else its extension, else its content): JSON
    /// Lines and CSV (rows of `entity`) stream; JSON is read whole, if `budget` has room for it.
    /// `-` is standard input. Also the REPL's `.import`.
    static func importFile(_ path: String, entity: String?, into store: any PersistentStore, budget: MemoryBudget? = nil,
                           options: ImportOptions = ImportOptions(), format: ImportFormat? = nil, standardInput: StandardInput? = nil,
                           progress: @escaping (Int) -> Void = { _ in }) throws(StoreError) -> ImportSummary {
        // A JSON or binary store is read again under its write lock if another process saved it.
        let locking = store as? any WriteLockingStore
        try locking?.lockForWriting()
        defer { locking?.unlockForWriting() }
        var options = options
        if options.entity == nil { options.entity = entity }
        let input = path == "-" ? (standardInput ?? StandardInput()) : nil
        let kind = try Self.format(of: path, given: format, standardInput: input)
        if kind == .jsonLines {
            let handle: FileHandle
            if let input { handle = input.stream() } else { handle = try open(path) }
            defer { if path != "-" { try? handle.close() } }
            if input == nil && options.jobs > 1 {
                // Cut into chunks that --jobs threads read and check (standard input, perhaps
                // partly read already to tell its format, is read on one).
                return try StoreImporter.importJSONLines(fileDescriptor: handle.fileDescriptor, into: store, options: options, progress: progress)
            }
            return try StoreImporter.importJSONLines(JSONRecordReader(fileHandle: handle, keepingText: false), into: store, options: options, progress: progress)
        }
        if kind == .csv {
            guard let entity else {
                throw StoreError(.invalidRequest, "CSV rows are of one entity: give --entity")
            }
            if let input {
                return try StoreImporter.importCSV(input.csvReader(), entity: entity, into: store, options: options, progress: progress)
            }
            let handle = try open(path)
            defer { try? handle.close() }
            return try StoreImporter.importCSV(CSVReader(fileHandle: handle), entity: entity, into: store, options: options, progress: progress)
        }
        var budget = budget ?? (try? MemoryBudget.resolve(option: nil)) ?? MemoryBudget(limit: MemoryBudget.systemDefault())
        let contents = try wholeFile(path, standardInput: input, budget: &budget)
        return try StoreImporter.importJSON(contents, into: store, options: options, progress: progress)
    }

    /// The format of a data file: `given` (--format), else its extension's, else (standard
    /// input, another extension) its content's.
    static func format(of path: String, given: ImportFormat?, standardInput: StandardInput?) throws(StoreError) -> ImportFormat {
        if let given { return given }
        if path == "-" {
            let input = standardInput ?? StandardInput()
            try input.readFirstLine()
            return ImportFormat(content: input.head)
        }
        if let format = ImportFormat(fileExtension: URL(fileURLWithPath: path).pathExtension) { return format }
        let handle = try open(path)
        defer { try? handle.close() }
        let head: Data
        do {
            head = try handle.read(upToCount: 1 << 20) ?? Data()
        } catch {
            throw StoreError(.fileSystem, "cannot read \(path): \(FoundationErrorText.describe(error))")
        }
        return ImportFormat(content: head)
    }

    /// A JSON file (or JSON Lines on standard input, to infer a model) read whole, when `budget`
    /// has room for it.
    private static func wholeFile(_ path: String, standardInput: StandardInput?, budget: inout MemoryBudget) throws(StoreError) -> Data {
        func refusal(_ size: Int?) -> StoreError {
            StoreError(.invalidRequest, "a .json file is read whole, and this one\(size.map { " (\(MemoryBudget.text($0)))" } ?? "") would take more than the "
                       + "\(budget.limitText) sift may use; write its rows as JSON Lines (.jsonl, one object a line), which is read a line "
                       + "at a time, or allow more with --memory SIZE (or SIFT_MEMORY) where the machine has it")
        }
        if path == "-" {
            let input = standardInput ?? StandardInput()
            guard let data = try input.readAll(limit: max(0, budget.limit - budget.used) / wholeFileFactor) else { throw refusal(nil) }
            return data
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if let size, !budget.hold(size.multipliedReportingOverflow(by: wholeFileFactor).overflow ? Int.max : size * wholeFileFactor) {
            throw refusal(size)
        }
        let handle = try open(path)
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw StoreError(.fileSystem, "cannot read \(path): \(FoundationErrorText.describe(error))")
        }
    }

    /// A data file opened to read, or an error saying why it cannot be (`No such file or
    /// directory`, `Permission denied`, `Is a directory`).
    private static func open(_ path: String) throws(StoreError) -> FileHandle {
        let descriptor = openForReading(path)
        guard descriptor >= 0 else { throw unreadable(path, errno) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw unreadable(path, EISDIR)
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    private static func unreadable(_ path: String, _ code: Int32) -> StoreError {
        StoreError(.fileSystem, "cannot read \(path): \(String(cString: strerror(code)))")
    }
}

/// The system's `open` for reading (outside ``ImportCommand``, whose `open` is its own).
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}
