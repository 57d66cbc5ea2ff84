import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftStore

/// What a fetch asks PostgreSQL and what it leaves to the evaluator: the seam where compiled SQL
/// plugs in.
///
/// Today the server is asked only what needs no predicate compiler: the rows of the entity's
/// table (restricted by `"_entity"` to the entity and its sub-entities when the table holds
/// others), in insertion order (`"_pk"`) — paged with `OFFSET` and `LIMIT` when nothing runs in
/// memory before paging (no predicate, no sort), and counted with `count(*)` when there is no
/// predicate. The whole predicate is ``residual``, and the sort, offset and limit run in memory
/// (``sortsInMemory``, ``pagesInMemory``) with the evaluator's own code, so the answers are the
/// in-memory stores' answers by construction. When the
/// PostgreSQL dialect of the SQL compiler lands, it fills ``sql`` with a WHERE, ORDER BY and
/// LIMIT and empties the parts of the residual work it took over.
struct PostgreSQLFetchPlan {
    /// The request, checked, its predicate typed by the model.
    let request: FetchRequest
    /// The fetched entity's place.
    let table: EntityTable
    /// The columns the query selects and how its rows decode.
    let layout: PostgreSQLRowLayout
    /// The query of the candidate rows, in insertion order, and its parameters.
    let sql: String
    let parameters: [PostgreSQLValue]
    /// `SELECT count(*)` of the candidate rows (before paging), with ``parameters``.
    let countSQL: String
    /// The predicate the evaluator applies to each candidate row (nil: every row matches).
    let residual: CompiledPredicate?
    /// Whether the evaluator sorts the matching rows.
    let sortsInMemory: Bool
    /// Whether offset and limit are applied in memory.
    let pagesInMemory: Bool
    /// The relationships read for each batch of scanned rows before the evaluator sees them
    /// (one query per relationship instead of one per row): those of the fetched entities whose
    /// names the predicate mentions, and the first key of each sort key path. A guess from the
    /// predicate's text — a wrong one costs a query per batch, a missed one a query per row,
    /// neither changes an answer.
    let scanPrefetch: [String]

    /// Checks a request exactly as the in-memory executor does (so every store rejects the same
    /// requests with the same errors) and plans it.
    init(_ request: FetchRequest, store: PostgreSQLStore) throws {
        guard request.fetchLimit >= 0 else { throw StoreError(.invalidRequest, "fetchLimit is negative (\(request.fetchLimit))") }
        guard request.fetchOffset >= 0 else { throw StoreError(.invalidRequest, "fetchOffset is negative (\(request.fetchOffset))") }
        guard request.fetchBatchSize >= 0 else { throw StoreError(.invalidRequest, "fetchBatchSize is negative (\(request.fetchBatchSize))") }
        let model = store.model
        let entity: EntityDescription
        do throws(ModelError) {
            entity = try model.requireEntity(request.entityName)
        } catch {
            throw StoreError(.unknownEntity, error.message, entity: request.entityName)
        }
        var request = request
        if let predicate = request.predicate {
            request.predicate = try ModelKeyPaths.typedPredicate(predicate, entity: entity, model: model)
        }
        residual = try request.predicate.map { p throws(EvaluationError) in try CompiledPredicate(p) }
        if request.resultType != .dictionaries || request.propertiesToGroupBy.isEmpty {
            for key in request.sortDescriptors { try ModelKeyPaths.checkSortKey(key.keyPath, entity: entity, model: model) }
        }
        for path in request.relationshipKeyPathsForPrefetching { try ModelKeyPaths.checkPrefetchKeyPath(path, entity: entity, model: model) }
        for name in request.relationshipCountsForPrefetching { try ModelKeyPaths.checkPrefetchCount(name, entity: entity) }
        guard let table = store.schema.table(for: entity.name),
              let rootTable = model.entity(named: entity.rootEntity).flatMap({ store.schema.table(for: $0.name) }) else {
            throw StoreError(.unsupportedModel, "\(entity.name) has no table in this store", entity: entity.name)
        }
        self.request = request
        self.table = table
        layout = PostgreSQLRowLayout(table: rootTable, schema: store.schema, alias: "t0", store: store)
        let members = request.includesSubentities ? entity.entityAndSubentities : [entity.name]
        var from = " FROM \(q(table.table)) AS \"t0\""
        var parameters: [PostgreSQLValue] = []
        if Set(members) != Set(table.hierarchyEntityNames) {
            from += " WHERE \"t0\".\(q(SQLSchema.entityColumn)) = ANY($1)"
            parameters.append(.typed(PostgreSQLStore.textArrayLiteral(members), PostgreSQLStore.textArray))
        }
        var sql = "SELECT \(layout.columns.joined(separator: ", "))" + from + " ORDER BY \"t0\".\(q(SQLSchema.primaryKeyColumn))"
        countSQL = "SELECT count(*)" + from
        sortsInMemory = !request.sortDescriptors.isEmpty
        // With nothing to do in memory before paging, the server pages (any offset and limit up
        // to Int.max: OFFSET and LIMIT take bigint).
        pagesInMemory = residual != nil || sortsInMemory
        if !pagesInMemory {
            if request.fetchOffset > 0 {
                parameters.append(.int64(Int64(request.fetchOffset)))
                sql += " OFFSET $\(parameters.count)"
            }
            if request.fetchLimit > 0 {
                parameters.append(.int64(Int64(request.fetchLimit)))
                sql += " LIMIT $\(parameters.count)"
            }
        }
        self.sql = sql
        self.parameters = parameters
        scanPrefetch = Self.relationshipsRead(by: request, entities: members.compactMap(model.entity(named:)))
    }

    /// The relationships of `entities` a request's predicate or sort keys seem to read.
    static func relationshipsRead(by request: FetchRequest, entities: [EntityDescription]) -> [String] {
        let text = request.predicate.map { String(describing: $0) } ?? ""
        let sortKeys = Set(request.sortDescriptors.compactMap { $0.keyPath.split(separator: ".").first.map(String.init) })
        var names: [String] = []
        for entity in entities {
            for relationship in entity.relationships where !names.contains(relationship.name) {
                if sortKeys.contains(relationship.name) || mentions(text, relationship.name) { names.append(relationship.name) }
            }
        }
        return names
    }

    /// Whether `name` appears in `text` as a whole word.
    static func mentions(_ text: String, _ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        func isWordCharacter(_ c: Character?) -> Bool { c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
        var searchStart = text.startIndex
        while let range = text.range(of: name, range: searchStart..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !isWordCharacter(before) && !isWordCharacter(after) { return true }
            searchStart = range.upperBound
        }
        return false
    }
}

extension PostgreSQLStore {
    /// A `text[]` literal of names (each quoted, so any name is itself), sent as a parameter.
    static func textArrayLiteral(_ names: [String]) -> String {
        "{" + names.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}"
    }
}
