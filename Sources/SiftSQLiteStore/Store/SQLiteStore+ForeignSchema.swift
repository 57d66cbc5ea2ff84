import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLiteStore {
    /// The schema `request` runs against: in a database Sift did not create, with the column
    /// types of every table the request can read chosen first (``FetchReach``), and the text
    /// date columns its predicates name checked against their form (``ForeignSchema``); the
    /// model's schema in a store Sift created. Call with `lock` held. Throws only when
    /// interrupted.
    func schema(for request: FetchRequest) throws(SQLiteError) -> SQLSchema {
        guard let foreign else { return schema }
        let reach = FetchReach(request)
        let before = foreign.schema
        let entities = reach.entities(from: request.entityName, in: before.model)
        var schema = try foreign.read(entities.compactMap { before.table(for: $0)?.table }, in: database)
        var textDates: [String: Set<String>] = [:]
        for entity in entities {
            guard let table = schema.table(for: entity) else { continue }
            for (attribute, column) in table.columns where reach.predicateKeys.contains(attribute) {
                if let dates = table.foreignColumns[column]?.textDates, !dates.isVerified { textDates[table.table, default: []].insert(column) }
            }
        }
        if !textDates.isEmpty { schema = try foreign.verifyTextDates(of: textDates, in: database) }
        return schema
    }

    /// The comparisons of `request` that the model decides (``FetchWarning``): in a database
    /// Sift did not create, typed by the tables the request can reach, which
    /// its fetch reads too, and no other — the first command on a 50-table database reads one.
    public func warnings(for request: FetchRequest) throws -> [FetchWarning] {
        guard foreign != nil else { return try schema.model.warnings(for: request) }
        let entities = FetchReach(request).entities(from: request.entityName, in: catalogModel)
        return try model(reading: Array(entities)).warnings(for: request)
    }

    /// The model with the types of the tables `request` can reach (its key paths) chosen: in a
    /// database Sift did not create, those tables and no other; the model in a store Sift
    /// created. An entity that is a table Sift does not read says what it is.
    public func model(for request: FetchRequest) throws(StoreError) -> DataModel {
        let catalog = catalogModel
        guard catalog.entity(named: request.entityName) != nil else {
            if let skipped = foreign?.catalog.skippedTableError(request.entityName) { throw skipped }
            _ = try BatchChanges.requireEntity(request.entityName, in: catalog)
            return catalog
        }
        guard foreign != nil else { return schema.model }
        return model(reading: FetchReach(request).entities(from: request.entityName, in: catalog))
    }
}
