import Foundation
import SiftEvaluation
import SiftLanguage

/// What an import inserted.
public struct ImportSummary: Sendable, Hashable {
    /// Objects inserted per entity, in the order entities were first met.
    public var counts: [(entity: String, count: Int)] = []
    public var total: Int { counts.reduce(0) { $0 + $1.count } }

    mutating func add(_ entity: String) {
        if let i = counts.firstIndex(where: { $0.entity == entity }) { counts[i].count += 1 } else { counts.append((entity, 1)) }
    }

    public static func == (a: ImportSummary, b: ImportSummary) -> Bool {
        a.counts.map(\.entity) == b.counts.map(\.entity) && a.counts.map(\.count) == b.counts.map(\.count)
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(counts.map(\.entity)); hasher.combine(counts.map(\.count)) }
}

/// Imports data into any store, all or nothing (docs/IMPORT.md): JSON of the shape
///
///     {"Entity": [{"@id": "n1", "attr": value, "toOne": "c1", "toMany": ["t1", "t2"]}, ...], ...}
///
/// JSON Lines with one object a line, naming its entity (`{"@entity": "Note", "@id": "n1", ...}`),
/// or CSV for one entity. Objects are inserted in file order (the insertion order that breaks
/// sort ties) and keep their `@id` as their object ID; relationships name objects of the file
/// or of the store, before or after the row. Any wrong type, unknown key, dangling reference or
/// broken constraint stops the import with an error naming the entity, the `@id` and the key,
/// and nothing is written.
///
/// Rows stream into the store as they are read (JSON Lines is read a record at a time, so an
/// import of any size holds one record, not the file); their relationships are linked once every
/// row is in, in file order. The whole import is one unit of changes
/// (`PersistentStore.performChanges`): on the SQLite store, one transaction of prepared INSERTs.
public enum StoreImporter {
    /// Told how many rows are in so far, every ``progressInterval`` rows and when all are.
    public typealias Progress = (_ rows: Int) -> Void

    /// How many rows pass between two calls of a ``Progress``.
    public static let progressInterval = 4096

    /// Imports JSON data and saves.
    @discardableResult
    public static func importJSON(_ data: Data, into store: any PersistentStore, options: ImportOptions = ImportOptions(),
                                  progress: Progress? = nil) throws(StoreError) -> ImportSummary {
        let root: Value
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(data)
        } catch {
            throw StoreError(.invalidValue, "import data is not valid JSON: \(error)")
        }
        guard case .dictionary(let top) = root else {
            throw StoreError(.invalidValue, "import data must be an object mapping entity names to arrays of rows, not \(root.kindName)")
        }
        let dates = options.dateFormat.map(ImportDateFormat.Parser.init)
        return try run(into: store, options: options, progress: progress) { (rows: inout ImportRun) throws(StoreError) in
            for (entityName, value) in top.pairs {
                var keys = RowKeys()
                let position = try requireEntityPosition(entityName, in: store)
                guard case .array(let items) = value else {
                    throw StoreError(.invalidValue, "\(entityName): expected an array of rows, not \(value.kindName)", entity: entityName)
                }
                for (index, item) in items.enumerated() {
                    guard case .dictionary(let fields) = item else {
                        throw StoreError(.invalidValue, "\(entityName) row \(index + 1): expected an object, not \(item.kindName)", entity: entityName)
                    }
                    try rows.add(try row(fields, entity: position, index: index, model: store.model, dates: dates, keys: &keys))
                }
            }
        }
    }

    /// Imports JSON Lines, a record at a time from `reader`, and saves. Each line is one object
    /// naming its entity: `{"@entity": "Note", "@id": "N1", "title": "Hello", "category": "C1"}`
    /// (or of ``ImportOptions/entity`` when it names none). Errors name the line.
    @discardableResult
    public static func importJSONLines(_ reader: JSONRecordReader, into store: any PersistentStore, options: ImportOptions = ImportOptions(),
                                       progress: Progress? = nil) throws(StoreError) -> ImportSummary {
        let source = UncheckedSendable(reader)
        return try run(into: store, options: options, progress: progress) { (rows: inout ImportRun) throws(StoreError) in
            // Lines are read and checked on a thread of their own while the rows before them go
            // into the store.
            let model = store.model
            let pipeline = ImportPipeline<LineRow>()
            try pipeline.run(read: { send in
                readLines(source.value, model: model, options: options, send: send)
            }, consume: { (pipeline: ImportPipeline<LineRow>) throws(StoreError) in
                while true {
                    switch pipeline.take() {
                    case .rows(let batch):
                        for item in batch {
                            do throws(StoreError) {
                                try rows.add(item.row, line: item.line)
                            } catch {
                                throw error.prefixed("line \(item.line): ")
                            }
                        }
                    case .failed(let error):
                        throw explained(error, in: store, model: model)
                    case .end:
                        return
                    }
                }
            })
        }
    }

    /// A checked row of JSON Lines and the line it is on.
    struct LineRow: Sendable {
        let row: ImportRow
        let line: Int
    }

    /// Reads and checks JSON Lines, a batch of rows at a time, until the input ends, a line is
    /// wrong (its error, naming the line, ends the stream), or `send` says to stop.
    private static func readLines(_ reader: JSONRecordReader, model: DataModel, options: ImportOptions, send: (ImportPipeline<LineRow>.Item) -> Bool) {
        let dates = options.dateFormat.map(ImportDateFormat.Parser.init)
        var batch: [LineRow] = []
        batch.reserveCapacity(ImportPipeline<LineRow>.batchSize)
        // The line of the record being checked; 0 while one is read (a syntax error names
        // its own line and column).
        var line = 0
        // Lines of one entity usually come together, with the same keys: looked up once a run.
        var keys = RowKeys()
        do throws(StoreError) {
            while true {
                line = 0
                guard let record = try nextRecord(reader) else { break }
                line = record.line
                batch.append(LineRow(row: try lineRow(record.value, model: model, options: options, dates: dates, keys: &keys), line: line))
                if batch.count == ImportPipeline<LineRow>.batchSize {
                    guard send(.rows(batch)) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            if !batch.isEmpty { guard send(.rows(batch)) else { return } }
            _ = send(.failed(error.prefixed(line > 0 ? "line \(line): " : "")))
            return
        }
        if !batch.isEmpty { guard send(.rows(batch)) else { return } }
        _ = send(.end)
    }

    /// The row of one JSON Lines record, checked. `keys` remembers, from the records before,
    /// the position of their entity and what their keys are (lines of one entity usually come
    /// together, with the same keys: they are looked up once a run).
    static func lineRow(_ value: Value, model: DataModel, options: ImportOptions, dates: ImportDateFormat.Parser?,
                        keys: inout RowKeys) throws(StoreError) -> ImportRow {
        guard case .dictionary(let fields) = value else {
            throw StoreError(.invalidValue, "expected an object with \"@entity\", not \(value.kindName)")
        }
        let entityName: String
        if case .string(let named)? = fields["@entity"] {
            entityName = named
        } else if let given = options.entity, fields["@entity"] == nil {
            entityName = given
        } else {
            throw StoreError(.invalidValue, "each line needs \"@entity\": the name of the object's entity", key: "@entity")
        }
        if keys.entity < 0 || model.entities[keys.entity].name != entityName {
            keys.entity = try requireEntityPosition(entityName, in: model)
        }
        return try row(fields, entity: keys.entity, index: nil, model: model, dates: dates, keys: &keys)
    }

    /// Imports JSON Lines held in memory.
    @discardableResult
    public static func importJSONLines(_ data: Data, into store: any PersistentStore, options: ImportOptions = ImportOptions(),
                                       progress: Progress? = nil) throws(StoreError) -> ImportSummary {
        try importJSONLines(JSONRecordReader(bytes: data, keepingText: false), into: store, options: options, progress: progress)
    }

    /// Imports CSV rows of one entity (a header row of property names; `@id` optional) and saves.
    /// An unquoted empty cell leaves its attribute out (nil, or the model's default); a quoted
    /// empty cell (`""`) is the empty string. Errors name the line of the file.
    @discardableResult
    public static func importCSV(_ data: Data, entity entityName: String, into store: any PersistentStore, options: ImportOptions = ImportOptions(),
                                 progress: Progress? = nil) throws(StoreError) -> ImportSummary {
        try importCSV(CSVReader(bytes: data), entity: entityName, into: store, options: options, progress: progress)
    }

    /// Imports CSV rows of one entity, a record at a time from `reader`, and saves: memory stays
    /// flat however long the input is. Records are read and checked on a thread of their own
    /// while the rows before them go into the store. Each cell is read as its column's type
    /// straight from its bytes: integers, numbers and booleans (`true`/`false`, `yes`/`no`,
    /// `1`/`0`) around whitespace; other types take the text, which the store converts (dates as
    /// ISO 8601, or in ``ImportOptions/dateFormat``); a to-many relationship is `@id`s separated
    /// by spaces, a to-one one `@id`; `@entity` may name a sub-entity.
    @discardableResult
    public static func importCSV(_ reader: CSVReader, entity entityName: String, into store: any PersistentStore, options: ImportOptions = ImportOptions(),
                                 progress: Progress? = nil) throws(StoreError) -> ImportSummary {
        let source = UncheckedSendable(reader)
        return try run(into: store, options: options, progress: progress) { (rows: inout ImportRun) throws(StoreError) in
            let position = try requireEntityPosition(entityName, in: store)
            let model = store.model
            let header: CSVHeader
            do throws(CSVReader.Failure) {
                guard try reader.next() else { return }
                header = try CSVHeader(reader, entity: entityName)
            } catch {
                throw StoreError(.invalidValue, "\(entityName) CSV line \(error.line): \(error.message)", entity: entityName)
            }
            let pipeline = ImportPipeline<LineRow>()
            try pipeline.run(read: { send in
                var table = CSVRows(model: model, entity: position, header: header, dates: options.dateFormat.map(ImportDateFormat.Parser.init))
                readRecords(source.value, into: &table, send: send)
            }, consume: { (pipeline: ImportPipeline<LineRow>) throws(StoreError) in
                while true {
                    switch pipeline.take() {
                    case .rows(let batch):
                        for item in batch {
                            do throws(StoreError) {
                                try rows.add(item.row, line: item.line)
                            } catch {
                                throw error.prefixed("CSV line \(item.line): ")
                            }
                        }
                    case .failed(let error):
                        throw error
                    case .end:
                        return
                    }
                }
            })
        }
    }

    /// Reads CSV records as rows, a batch at a time, until the input ends, a record is wrong
    /// (its error, naming the line, ends the stream), or `send` says to stop.
    private static func readRecords(_ reader: CSVReader, into table: inout CSVRows, send: (ImportPipeline<LineRow>.Item) -> Bool) {
        var batch: [LineRow] = []
        batch.reserveCapacity(ImportPipeline<LineRow>.batchSize)
        let entityName = table.model.entities[table.entity].name
        do throws(StoreError) {
            while true {
                do throws(CSVReader.Failure) {
                    guard try reader.next() else { break }
                } catch {
                    throw StoreError(.invalidValue, "\(entityName) CSV line \(error.line): \(error.message)", entity: entityName)
                }
                batch.append(LineRow(row: try table.row(reader), line: reader.recordLine))
                if batch.count == ImportPipeline<LineRow>.batchSize {
                    guard send(.rows(batch)) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            if !batch.isEmpty { guard send(.rows(batch)) else { return } }
            _ = send(.failed(error))
            return
        }
        if !batch.isEmpty { guard send(.rows(batch)) else { return } }
        _ = send(.end)
    }

    // MARK: The run

    /// One import in progress: rows go into the store as they come; their relationships wait
    /// for every row (a reference may point forward).
    struct ImportRun {
        let store: any PersistentStore
        /// The store, when it inserts by attribute slot.
        let slotStore: (any SlotInsertingStore)?
        let progress: Progress?
        var summary = ImportSummary()
        var rows = 0
        /// Rows with relationships, in file order: the object, its relationships, and the line it
        /// came from (JSON Lines), for errors.
        var links: [(id: ObjectID, relationships: [String: [ObjectID]], line: Int?)] = []
        /// The memory the rows take in a store held whole in memory (nil for one that is not).
        var held: MemoryTally?
        /// In a store that makes its own object IDs (``SlotInsertingStore/keepsGivenObjectIDs``):
        /// the ID each object was given in the data → the one the store gave it, which the
        /// relationships naming it are set to.
        var assignedIDs: [ObjectID: ObjectID]?

        init(store: any PersistentStore, slotStore: (any SlotInsertingStore)?, progress: Progress?) {
            self.store = store
            self.slotStore = slotStore
            self.progress = progress
            held = store is AtomicStore ? MemoryTally() : nil
            assignedIDs = slotStore?.keepsGivenObjectIDs == false ? [:] : nil
        }

        /// What one object costs a store held in memory beyond its values' heap, roughly: its
        /// slot, ID and attribute array in the graph, and its text when the file is written
        /// (about 850 bytes each measured, importing 200,000 small rows into a JSON store).
        static let objectCost = 768

        mutating func add(_ row: ImportRow, line: Int? = nil) throws(StoreError) {
            if held != nil {
                var bytes = Self.objectCost + (row.id.map { 2 * $0.rawValue.utf8.count } ?? 0)
                for value in row.values { bytes += 2 * MemoryTally.size(of: value.value) }
                if !held!.hold(bytes) {
                    let error = held!.error("the objects of the import", progress: "object \((rows + 1).formatted()); nothing was imported",
                                            advice: "a JSON or binary store is held whole in memory; import into a SQLite store (.sqlite), "
                                                + "which keeps its rows on disk, or import fewer rows")
                    throw StoreError(.memoryLimit, error.message)
                }
            }
            let id: ObjectID
            // (A store that makes its own IDs is given none.)
            let given = assignedIDs == nil ? row.id : nil
            if let fileID = row.id, assignedIDs?[fileID] != nil {
                throw StoreError(.invalidRequest, "\(line.map { "line \($0): " } ?? "")\(row.entity) '\(fileID)': another object of the data has this ID")
            }
            if slotStore?.keepsToOnesInRows == true, let toOnes = existingToOnes(of: row) {
                // A foreign key column, perhaps NOT NULL: given with the row where it can be.
                id = try store.insert(entity: row.entity, id: given, attributes: attributes(of: row), relationships: toOnes)
            } else if let fast = slotStore {
                id = try fast.insert(entityPosition: row.entityPosition, id: given, values: row.values)
            } else {
                id = try store.insert(entity: row.entity, id: given, attributes: attributes(of: row), relationships: [:])
            }
            if let fileID = row.id, assignedIDs != nil { assignedIDs?[fileID] = id }
            if !row.relationships.isEmpty { links.append((id, row.relationships, line)) }
            summary.add(row.entity)
            rows += 1
            if rows % StoreImporter.progressInterval == 0 { progress?(rows) }
        }

        /// The attribute values of `row` by name, for a store that inserts by name.
        private func attributes(of row: ImportRow) -> [String: Value] {
            let entity = store.model.entities[row.entityPosition]
            var attributes: [String: Value] = [:]
            for value in row.values { attributes[entity.attributes[value.slot].name] = value.value }
            return attributes
        }

        /// The to-one relationships of `row` whose destinations are in the store already; nil
        /// when there are none.
        private func existingToOnes(of row: ImportRow) -> [String: [ObjectID]]? {
            let entity = store.model.entities[row.entityPosition]
            var toOnes: [String: [ObjectID]] = [:]
            for (name, ids) in row.relationships where ids.count == 1 {
                guard let relationship = entity.relationship(named: name), !relationship.isToMany,
                      store.object(with: ids[0]) != nil else { continue }
                toOnes[name] = ids
            }
            return toOnes.isEmpty ? nil : toOnes
        }

        mutating func linkAll() throws(StoreError) {
            for link in links {
                var relationships = link.relationships
                if let assignedIDs {
                    relationships = relationships.mapValues { ids in ids.map { assignedIDs[$0] ?? $0 } }
                }
                do throws(StoreError) {
                    try store.update(link.id, attributes: [:], relationships: relationships)
                } catch {
                    throw error.prefixed(link.line.map { "line \($0): " } ?? "")
                }
            }
            links = []
        }
    }

    /// Runs an import as one unit of changes, then saves; any error undoes all of it. The
    /// options' new entities are added to the model first.
    static func run(into store: any PersistentStore, options: ImportOptions, progress: Progress?,
                            _ body: (inout ImportRun) throws(StoreError) -> Void) throws(StoreError) -> ImportSummary {
        guard !store.hasChanges else {
            throw StoreError(.invalidRequest, "the store has unsaved changes; save or roll them back before importing")
        }
        var run = ImportRun(store: store, slotStore: store as? any SlotInsertingStore, progress: progress)
        do {
            try store.performChanges { () throws -> Void in
                if !options.newEntities.isEmpty {
                    guard let growing = store as? any ModelGrowingStore else {
                        throw StoreError(.unsupportedModel, "entities cannot be added to this store's model")
                    }
                    try growing.addEntities(options.newEntities)
                }
                try body(&run)
                try run.linkAll()
                progress?(run.rows)
                try store.save()
            }
        } catch {
            store.rollback()
            throw error as? StoreError ?? StoreError(.database, "\(error)")
        }
        return run.summary
    }

    private static func nextRecord(_ reader: JSONRecordReader) throws(StoreError) -> JSONRecordReader.Record? {
        do {
            return try reader.next()
        } catch let error as JSONSyntaxError {
            throw StoreError(.invalidValue, "import data is not valid JSON Lines: \(error)")
        } catch {
            throw StoreError(.fileSystem, "reading the import data failed: \(error)")
        }
    }

    // MARK: Rows

    struct ImportRow: Sendable {
        let entity: String
        let entityPosition: Int
        let id: ObjectID?
        /// Attribute values by slot, in file order.
        let values: [SlotValue]
        let relationships: [String: [ObjectID]]
    }

    /// What the keys of the rows read last are: where `@id` and `@entity` are among them, and
    /// the slot each other key has in the entity the rows went to. Rows of one entity usually
    /// have the same keys in the same order (JSON records of one shape share one key list), so
    /// a row whose keys are those of the row before looks none of them up again (hashing each
    /// key of each row had been a fifth of checking it).
    struct RowKeys {
        /// The position of the entity of the rows before (JSON Lines: -1 until a line names one).
        var entity = -1
        /// The keys of the rows before. (Held, so their storage is not reused while compared.)
        private var keys: [String] = []
        private(set) var idAt = -1, entityAt = -1
        /// The entity ``slots`` are of (-1: none yet).
        private var slotsEntity = -1
        /// Each key's property in ``slotsEntity`` (nil: `@id`, `@entity`, or not one of its).
        private(set) var slots: [EntityDescription.PropertySlot?] = []

        /// Takes the keys of the next row.
        mutating func read(_ next: [String]) {
            let same = next.count == keys.count && (next.withUnsafeBufferPointer { a in keys.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
                || next == keys)
            guard !same else { return }
            keys = next
            idAt = -1
            entityAt = -1
            for (i, key) in next.enumerated() where key.utf8.first == UInt8(ascii: "@") {
                if key == "@id" { idAt = i } else if key == "@entity" { entityAt = i }
            }
            slotsEntity = -1
        }

        /// Makes ``slots`` those of the entity at `position`.
        mutating func resolve(in entities: [EntityDescription], at position: Int) {
            guard slotsEntity != position else { return }
            slots = keys.indices.map { i in i == idAt || i == entityAt ? nil : entities[position].slot(of: keys[i]) }
            slotsEntity = position
        }
    }

    /// A row's fields checked against its entity (by position in the model). Errors name the row
    /// by its `@id`, or else by its position in its entity's array (`index`; JSON Lines errors
    /// name the line instead). With `dates`, a Date attribute's text is read in its format.
    private static func row(_ fields: ValueDictionary, entity position: Int, index: Int?, model: DataModel,
                            dates: ImportDateFormat.Parser? = nil, keys: inout RowKeys) throws(StoreError) -> ImportRow {
        // The entities' parts are read in place (copying an entity per row cost more than
        // checking its values).
        let entities = model.entities
        var entityName: String { entities[position].name }
        var rowLabel: String { index.map { "\(entityName) row \($0 + 1)" } ?? entityName }
        let values = fields.values
        keys.read(fields.keys)
        // "@id" and "@entity" first (they may come after the keys they decide on).
        // (`.none`, not `nil`: a `Value` is a nil literal too, and `nil` here would be `.null`.)
        let idValue: Value? = keys.idAt >= 0 ? .some(values[keys.idAt]) : .none
        let subentityValue: Value? = keys.entityAt >= 0 ? .some(values[keys.entityAt]) : .none
        var id: ObjectID?
        if case .string(let s)? = idValue { id = ObjectID(s) } else if let other = idValue, !other.isNull {
            throw StoreError(.invalidValue, "\(rowLabel): @id must be a string, not \(other.kindName)", entity: entityName)
        }
        var label: String { id.map { "\(entityName) '\($0)'" } ?? rowLabel }
        var targetPosition = position
        if let sub = subentityValue, !sub.isString(entities[position].name) {
            guard case .string(let name) = sub, let subentity = model.entityPosition(named: name), model.isKind(name, of: entityName) else {
                throw StoreError(.invalidValue, "\(label): @entity must name \(entityName) or one of its sub-entities (\(entities[position].entityAndSubentities.joined(separator: ", ")))",
                                 entity: entityName, objectID: id, key: "@entity")
            }
            targetPosition = subentity
        }
        keys.resolve(in: entities, at: targetPosition)
        var attributes: [SlotValue] = []
        attributes.reserveCapacity(values.count)
        var relationships: [String: [ObjectID]] = [:]
        for (i, value) in values.enumerated() where i != keys.idAt && i != keys.entityAt {
            switch keys.slots[i] {
            case .attribute(let slot):
                if let dates, case .string(let text) = value, entities[targetPosition].attributes[slot].type == .date {
                    guard let date = dates.date(from: text) else {
                        let key = fields.keys[i]
                        throw StoreError(.invalidValue, "\(label), \(key): '\(text)' is not a date in the format \(dates.formatter.dateFormat ?? "")",
                                         entity: entities[targetPosition].name, objectID: id, key: key)
                    }
                    attributes.append(SlotValue(slot: slot, value: .date(date)))
                } else {
                    attributes.append(SlotValue(slot: slot, value: value))
                }
            case .relationship(let slot):
                let key = fields.keys[i]
                let target = entities[targetPosition]
                let relationship = target.relationships[slot]
                switch value {
                case .null: relationships[key] = []
                case .string(let s) where !relationship.isToMany: relationships[key] = [ObjectID(s)]
                case .array(let items) where relationship.isToMany:
                    var ids: [ObjectID] = []
                    for item in items {
                        guard case .string(let s) = item else {
                            throw StoreError(.invalidValue, "\(label), \(key): expected @id strings, found \(item.kindName)", entity: target.name, objectID: id, key: key)
                        }
                        ids.append(ObjectID(s))
                    }
                    relationships[key] = ids
                default:
                    let expected = relationship.isToMany ? "an array of @id strings" : "an @id string or null"
                    throw StoreError(.invalidValue, "\(label), \(key): expected \(expected), found \(value.kindName)", entity: target.name, objectID: id, key: key)
                }
            case nil:
                let key = fields.keys[i]
                let target = entities[targetPosition]
                var message = "\(label): unknown key '\(key)' on \(target.name)"
                if let suggestion = Suggestions.closest(to: key, in: target.propertyNames) { message += "; did you mean '\(suggestion)'?" }
                throw StoreError(.unknownKey, message, entity: target.name, objectID: id, key: key)
            }
        }
        return ImportRow(entity: entities[targetPosition].name, entityPosition: targetPosition, id: id, values: attributes, relationships: relationships)
    }

    /// The position of the entity named `name` in the store's model; unknown, the store's own
    /// explanation where it has one (a table it does not read), else the model's suggestion.
    private static func requireEntityPosition(_ name: String, in store: any PersistentStore) throws(StoreError) -> Int {
        let model = store.model
        if let position = model.entityPosition(named: name) { return position }
        _ = try store.model(for: FetchRequest(entityName: name))
        return try requireEntityPosition(name, in: model)
    }

    /// `error` — an unknown entity the model of a line reader named, after `line N: ` — with
    /// the store's own explanation of that entity, where it has one, in place of the model's.
    static func explained(_ error: StoreError, in store: any PersistentStore, model: DataModel) -> StoreError {
        guard error.code == .unknownEntity, let name = error.entity, model.entity(named: name) == nil else { return error }
        let explanation: StoreError
        do throws(StoreError) {
            _ = try store.model(for: FetchRequest(entityName: name))
            return error
        } catch {
            explanation = error
        }
        let plain: String
        do throws(StoreError) {
            _ = try requireEntityPosition(name, in: model)
            return error
        } catch {
            plain = error.message
        }
        guard explanation.message != plain, error.message.hasSuffix(plain) else { return error }
        return explanation.prefixed(String(error.message.dropLast(plain.count)))
    }

    private static func requireEntityPosition(_ name: String, in model: DataModel) throws(StoreError) -> Int {
        if let position = model.entityPosition(named: name) { return position }
        do throws(ModelError) {
            _ = try model.requireEntity(name)
        } catch {
            throw StoreError(.unknownEntity, error.message, entity: name)
        }
        return 0
    }
}

extension Value {
    /// Whether this is the string `text`.
    fileprivate func isString(_ text: String) -> Bool {
        if case .string(let s) = self { return s == text }
        return false
    }
}

/// A value handed to another thread that only that thread uses from then on.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
