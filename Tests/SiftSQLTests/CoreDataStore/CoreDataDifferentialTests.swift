import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// The differential suite on Core Data's layout (issue 32): random data sets of the
/// differential model (inheritance, to-one, to-many through the inverse, many-to-many, a
/// reflexive pair) are written into a database laid out as Core Data lays the model out, and
/// random fetch requests must give there exactly what the in-memory store holding the same data
/// gives: the same object IDs in the same order, values, counts, sections and dictionaries.
///
/// The first test writes the rows itself (``CoreDataRows``), independently of Sift's writer;
/// the second has Sift write them (``CoreDataRowObjects``) into an empty store of that layout.
/// The objects' IDs are Core Data's URIs in both stores (the data set is renamed first), so the
/// answers compare as they are.
@Suite struct CoreDataDifferentialTests {
    static let storeUUID = "D1FFE2E5-7A1A-4C0E-8F00-000000000032"

    @Test func coreDataLayoutAgreesWithTheEvaluator() throws {
        let model = try DifferentialModel.make()
        var dataGenerator = DataSetGenerator(model: model)
        let requests = RequestGenerator(model: model)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dataSets = max(1, DifferentialHarness.Configuration.standard.cases / 80)
        var mismatches: [String] = []
        var compared = 0
        for dataSet in 0..<dataSets {
            let dataSeed = DifferentialRandom.derive(DifferentialHarness.Configuration.standard.seed ^ 0xC0DE_DA7A, dataSet)
            let data = Self.renamed(dataGenerator.make(seed: dataSeed), model: model)
            let reference = AtomicStore.inMemory(model: model)
            try data.fill(reference)
            let url = directory.appendingPathComponent("\(dataSet).sqlite")
            try CoreDataRows.write(reference, model: model, to: url, storeUUID: Self.storeUUID)
            let candidate = try SQLiteStore.open(at: url, coreDataModel: model)
            #expect(candidate.coreData != nil && candidate.openingWarnings.isEmpty, "\(candidate.openingWarnings)")
            for index in 0..<40 {
                let request = requests.make(dataSet: data, seed: DifferentialRandom.derive(dataSeed, index)).request
                compared += 1
                let expected = DifferentialObservation.observe(request, on: reference)
                let found = DifferentialObservation.observe(request, on: candidate)
                if let difference = expected.difference(from: found) {
                    mismatches.append("data \(dataSet), request \(index): \(request): \(difference)")
                }
            }
        }
        print("differential (in-memory vs Core Data's layout): \(compared) requests, \(mismatches.count) disagree")
        #expect(compared >= 40)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(compared) disagree:\n\(mismatches.prefix(5).map { String($0.prefix(1500)) }.joined(separator: "\n"))")
    }

    /// The same data written by Sift into an empty store in Core Data's layout (inserts with
    /// their URIs, relationships through the store rules: inverses, join tables, entity
    /// columns) reads back as the in-memory store holding it answers.
    @Test func siftsWritesReadBackAsTheEvaluatorAnswers() throws {
        let model = try DifferentialModel.make()
        var dataGenerator = DataSetGenerator(model: model)
        let requests = RequestGenerator(model: model)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-coredata-differential-write-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dataSets = max(1, DifferentialHarness.Configuration.standard.cases / 160)
        var mismatches: [String] = []
        var compared = 0
        for dataSet in 0..<dataSets {
            let dataSeed = DifferentialRandom.derive(DifferentialHarness.Configuration.standard.seed ^ 0xC0DE_2217, dataSet)
            let data = Self.renamed(dataGenerator.make(seed: dataSeed), model: model)
            let reference = AtomicStore.inMemory(model: model)
            try data.fill(reference)
            let url = directory.appendingPathComponent("\(dataSet).sqlite")
            try CoreDataRows.write(AtomicStore.inMemory(model: model), model: model, to: url, storeUUID: Self.storeUUID)
            let candidate = try SQLiteStore.open(at: url, coreDataModel: model)
            try data.fill(candidate)
            try candidate.save()
            let written = try SQLiteDatabase(path: url.path, options: [.readOnly])
            #expect(try written.rows("PRAGMA integrity_check") == [[.text("ok")]])
            // Row for row what the independent writer writes: keys, Z_ENT, Z_OPT 1, columns,
            // join tables; Z_PRIMARYKEY's Z_MAX the largest key of each root.
            let expectedURL = directory.appendingPathComponent("\(dataSet)-expected.sqlite")
            try CoreDataRows.write(reference, model: model, to: expectedURL, storeUUID: Self.storeUUID)
            let expectedRows = try SQLiteDatabase(path: expectedURL.path, options: [.readOnly])
            let tables = try expectedRows.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE', 'Z_PRIMARYKEY')")
            #expect(try tables.count >= 3 && Self.maxima(written).count >= 2)
            for row in tables {
                guard case .text(let table) = row[0] else { continue }
                let sql = "SELECT * FROM \"\(table)\" ORDER BY 1, 2"
                #expect(try written.rows(sql) == (try expectedRows.rows(sql)), "\(table)")
            }
            for maximum in try Self.maxima(written) {
                guard case .text(let name) = maximum[0], let placed = CoreDataLayout(model).entity(named: name) else { continue }
                #expect(maximum[1] == (try expectedRows.rows("SELECT coalesce(max(Z_PK), 0) FROM \(placed.table)").first?.first), "\(name)")
            }
            for index in 0..<40 {
                let request = requests.make(dataSet: data, seed: DifferentialRandom.derive(dataSeed, index)).request
                compared += 1
                let expected = DifferentialObservation.observe(request, on: reference)
                let found = DifferentialObservation.observe(request, on: candidate)
                if let difference = expected.difference(from: found) {
                    mismatches.append("data \(dataSet), request \(index): \(request): \(difference)")
                }
            }
        }
        print("differential (in-memory vs Sift's writes in Core Data's layout): \(compared) requests, \(mismatches.count) disagree")
        #expect(compared >= 40)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(compared) disagree:\n\(mismatches.prefix(5).map { String($0.prefix(1500)) }.joined(separator: "\n"))")
    }

    /// The roots' rows of `Z_PRIMARYKEY`: name and `Z_MAX`.
    static func maxima(_ database: SQLiteDatabase) throws -> [[SQLiteValue]] {
        try database.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0 ORDER BY Z_ENT")
    }

    /// The data set with every object's ID the Core Data URI it will have: its entity and its
    /// key, counted per table (an inheritance root's) in insertion order, as Core Data numbers
    /// rows.
    static func renamed(_ data: DifferentialDataSet, model: DataModel) -> DifferentialDataSet {
        func key(_ id: ObjectID) -> Int { Int(id.rawValue.split(separator: "/").last?.dropFirst() ?? "") ?? 0 }
        var next: [String: Int] = [:]
        var names: [ObjectID: ObjectID] = [:]
        for object in data.objects {
            let root = model.entity(named: object.entity)?.rootEntity ?? object.entity
            let key = next[root, default: 0] + 1
            next[root] = key
            names[object.id] = ObjectID("x-coredata://\(storeUUID)/\(object.entity)/p\(key)")
        }
        var renamed = data
        for position in renamed.objects.indices {
            renamed.objects[position].id = names[renamed.objects[position].id]!
            // Core Data keeps a decimal in a DECIMAL column, which SQLite holds as the nearest
            // double: both stores hold the decimal that double reads back as.
            renamed.objects[position].attributes = renamed.objects[position].attributes.map { attribute in
                guard case .decimal(let decimal) = attribute.value, !decimal.isNaN else { return attribute }
                let double = NSDecimalNumber(decimal: decimal).doubleValue
                guard double.isFinite, let held = Decimal(string: "\(double)") else { return attribute }
                return (attribute.name, .decimal(held))
            }
            // Core Data keeps an unordered to-many in no order (a join table, a key column): Sift
            // reads it in key order, so the data set lists it so.
            renamed.objects[position].relationships = renamed.objects[position].relationships.map { relationship in
                (relationship.name, relationship.targets.map { names[$0] ?? $0 }.sorted { key($0) < key($1) })
            }
        }
        return renamed
    }
}

/// Writes a store's objects into a new database laid out as Core Data lays out their model
/// (``CoreDataLayout``): the entity tables and join tables with Core Data's columns and declared
/// types, `Z_PRIMARYKEY` and `Z_METADATA`; each object's row keyed by the `p<n>` of its Core
/// Data URI. For the tests only: no model cache, no version hashes, no indexes.
enum CoreDataRows {
    static func write(_ source: any PersistentStore, model: DataModel, to url: URL, storeUUID: String) throws {
        let layout = CoreDataLayout(model)
        let database = try SQLiteDatabase(path: url.path, options: [.create])
        try database.execute(ddl(layout, storeUUID: storeUUID))
        let ids = EntityTable.ObjectIDSource.entityAndKey(prefix: SQLSchema.coreDataURIScheme + storeUUID + "/")
        func key(_ id: ObjectID) throws -> Int64 {
            try #require(ids.key(of: id.rawValue)?.key, "\(id) is not a Core Data URI")
        }
        var pairs: Set<String> = []
        try database.execute("BEGIN")
        for entity in model.entities {
            guard let placed = layout.entity(named: entity.name) else { continue }
            var request = FetchRequest(entityName: entity.name)
            request.includesSubentities = false
            for object in try source.fetch(request) {
                var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
                var values: [SQLiteValue] = [.integer(try key(object.objectID)), .integer(Int64(placed.number)), .integer(1)]
                for attribute in entity.attributes {
                    guard case .attribute(_, let column)? = layout.mapping(entity: entity.name, property: attribute.name) else { continue }
                    columns.append(column)
                    values.append(sqliteValue(ColumnCodec.encode(try object.value(forKey: attribute.name))))
                }
                for relationship in entity.relationships {
                    let destinations = object.destinationIDs(of: relationship.name)
                    switch layout.mapping(entity: entity.name, property: relationship.name) {
                    case .toOne(_, let column, let entityColumn, _)?:
                        guard let id = destinations.first else { continue }
                        columns.append(column)
                        values.append(.integer(try key(id)))
                        if let entityColumn, let name = ids.key(of: id.rawValue)?.entity, let number = layout.entity(named: name)?.number {
                            columns.append(entityColumn)
                            values.append(.integer(Int64(number)))
                        }
                    case .joinTable(let table, let owner, let target, _)?:
                        for id in destinations {
                            let (a, b) = (try key(object.objectID), try key(id))
                            // (Both sides of a many-to-many name the same pairs.)
                            guard pairs.insert(table + " " + ["\(owner)=\(a)", "\(target)=\(b)"].sorted().joined(separator: " ")).inserted else { continue }
                            try database.run("INSERT INTO \(table) (\(owner), \(target)) VALUES (?1, ?2)", [.integer(a), .integer(b)])
                        }
                    case .toManyThroughInverse?, .attribute?, nil:
                        continue
                    }
                }
                let placeholders = (1...values.count).map { "?\($0)" }.joined(separator: ", ")
                try database.run("INSERT INTO \(placed.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))", values)
            }
        }
        try database.execute("COMMIT")
    }

    /// The tables of `layout` and Core Data's bookkeeping tables, as SQL.
    static func ddl(_ layout: CoreDataLayout, storeUUID: String) -> String {
        var sql = """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_METADATA VALUES (1, '\(storeUUID)', NULL);

            """
        for table in layout.tables {
            let columns = table.columns.map { "\($0.name) \($0.declaredType)" + ($0.role == .primaryKey ? " PRIMARY KEY" : "") }
            sql += "CREATE TABLE \(table.name) (\(columns.joined(separator: ", ")));\n"
        }
        for entity in layout.entities {
            sql += "INSERT INTO Z_PRIMARYKEY VALUES (\(entity.number), '\(entity.name)', \(entity.superNumber), 0);\n"
        }
        return sql
    }

    static func sqliteValue(_ value: SQLValue) -> SQLiteValue {
        switch value {
        case .null: .null
        case .integer(let i): .integer(i)
        case .real(let d): .real(d)
        case .text(let s): .text(s)
        case .blob(let b): .blob(b)
        }
    }
}
