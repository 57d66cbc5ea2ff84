import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// What a fetch asks PostgreSQL and what it leaves to the evaluator.
///
/// The request is compiled by the SQLite store's compiler in PostgreSQL's dialect
/// (`DialectFetchQuery`): the predicate's conjuncts become the WHERE clause until one cannot be
/// said in SQL without Sift's Swift functions (MATCHES, `[c]`/`[d]` string tests, decimals, …),
/// which with the later ones is the ``residual`` the evaluator checks on each row the server
/// returns; sort keys become ORDER BY (or the sort runs in memory, ``sortsInMemory``); LIMIT and
/// OFFSET go to the server when nothing runs in memory before them.
///
/// A plan made with `compiled: false` asks the server only for the entity's rows in insertion
/// order and does everything else in memory: what a fetch falls back to when the server refuses
/// its compiled query (an integer overflow or a division by zero, which the evaluator answers
/// and PostgreSQL reports as errors), and when a bound text holds a NUL character (which
/// PostgreSQL's text cannot).
struct PostgreSQLFetchPlan: SQLPlannedFetch {
    /// The request, checked, its predicate typed by the model.
    let request: FetchRequest
    /// The fetched entity's place.
    let table: EntityTable
    /// The fetched entity.
    var entity: EntityDescription { table.entity }
    /// The columns the query selects and how its rows decode.
    let layout: PostgreSQLRowLayout
    /// The query of the candidate rows, in order, and its parameters.
    let sql: String
    let parameters: [PostgreSQLValue]
    /// `SELECT count(*)`: of the rows the request returns when nothing runs in memory, else of
    /// the candidate rows.
    let countSQL: String
    let countParameters: [PostgreSQLValue]
    /// The predicate the evaluator applies to each candidate row (nil: every row matches).
    let residual: CompiledPredicate?
    /// The residual as written (for `sift sql`).
    let residualPredicate: PredicateNode?
    /// Why part of the fetch runs in memory.
    let inMemoryReason: String?
    /// Whether the evaluator sorts the matching rows.
    let sortsInMemory: Bool
    /// Whether offset and limit are applied in memory.
    let pagesInMemory: Bool
    /// Whether the server may refuse the query half way through its rows (an overflow, a
    /// division by zero), where the evaluator has an answer: its rows are then read whole
    /// before any is returned, so that the fetch can run again in memory.
    let mayBeRefused: Bool
    /// Whether ``countSQL`` counts what the request returns, paging included.
    var countIsPaged: Bool { isCompiled && !pagesInMemory }
    /// Whether the query is the compiler's (false: the entity's rows, everything in memory).
    let isCompiled: Bool
    /// The relationships (key paths) read for each batch of scanned rows before the evaluator sees
    /// them (one query per step instead of one per row and step): those the residual predicate
    /// reads (``relationshipsRead(by:sortKeys:entity:model:)``), and the first key of each sort
    /// key path sorted in memory. A path loaded and not read costs a query per batch, one
    /// missed a query per row; neither changes an answer.
    let scanPrefetch: SQLBatchPrefetch

    /// Checks a request exactly as the in-memory executor does (``CheckedFetchRequest``, so
    /// every store rejects the same requests with the same errors) and plans it.
    ///
    /// With `orderingRows` false the rows come in insertion order whatever the sort descriptors
    /// (dictionaries, which the evaluator sorts once they are made, from the rows in that order).
    init(_ request: FetchRequest, store: PostgreSQLStore, compiled: Bool = true, orderingRows: Bool = true) throws {
        let model = store.model
        let checked = try CheckedFetchRequest(request, model: model)
        let (request, entity, whole) = (checked.request, checked.entity, checked.predicate)
        guard let table = store.schema.table(for: entity.name),
              let rootTable = model.entity(named: entity.rootEntity).flatMap({ store.schema.table(for: $0.name) }) else {
            throw StoreError(.unsupportedModel, "\(entity.name) has no table in this store", entity: entity.name)
        }
        self.request = request
        self.table = table
        let layout = PostgreSQLRowLayout(table: rootTable, schema: store.schema, alias: "t0", store: store)
        self.layout = layout
        let members = request.includesSubentities ? entity.entityAndSubentities : [entity.name]

        var compiledRequest = request
        if !orderingRows { compiledRequest.sortDescriptors = [] }
        let query = compiled && store.compilesFetches ? try? DialectFetchQuery(compiledRequest, schema: store.schema, dialect: store.dialect, columns: layout.columns) : nil
        if let query, let parameters = Self.sent(query.bindings), let countParameters = Self.sent(query.countBindings),
           max(parameters.count, countParameters.count) <= PostgreSQLConnection.parameterLimit {
            sql = query.sql
            self.parameters = parameters
            countSQL = query.countSQL
            self.countParameters = countParameters
            residualPredicate = query.residual
            residual = try query.residual.map { p throws(EvaluationError) in try CompiledPredicate(p) }
            inMemoryReason = query.reason
            sortsInMemory = !query.sortsInSQL
            pagesInMemory = !query.pagesInSQL
            isCompiled = true
            mayBeRefused = query.mayBeRefused
            scanPrefetch = SQLBatchPrefetch(keyPaths: Self.relationshipsRead(by: query.residual, sortKeys: sortsInMemory ? request.sortDescriptors.map(\.keyPath) : [],
                                                                             entity: entity, model: model))
            return
        }

        // Everything in memory: the entity's rows in insertion order.
        var from = " FROM \(q(table.table)) AS \"t0\""
        var parameters: [PostgreSQLValue] = []
        if let entityColumn = table.entityColumn, Set(members) != Set(table.hierarchyEntityNames) {
            from += " WHERE \"t0\".\(q(entityColumn)) = ANY($1)"
            parameters.append(.typed(PostgreSQLStore.textArrayLiteral(members), PostgreSQLStore.textArray))
        }
        var sql = "SELECT \(layout.columns.joined(separator: ", "))" + from + " ORDER BY \"t0\".\(q(table.primaryKey))"
        countSQL = "SELECT count(*)" + from
        countParameters = parameters
        residual = whole
        residualPredicate = request.predicate
        inMemoryReason = !store.compilesFetches ? "a store of layout 1 runs fetches in memory"
            : !compiled ? "the server refused the compiled query"
            : query.map { Self.sent($0.bindings) == nil || Self.sent($0.countBindings) == nil ? Self.boundNULReason : Self.parameterLimitReason }
            ?? "the compiler failed"
        sortsInMemory = orderingRows && !request.sortDescriptors.isEmpty
        isCompiled = false
        mayBeRefused = false
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
        scanPrefetch = SQLBatchPrefetch(keyPaths: Self.relationshipsRead(by: request.predicate, sortKeys: request.sortDescriptors.map(\.keyPath),
                                                                         entity: entity, model: model))
    }

    /// Why a fetch whose statement would bind more values than the protocol carries runs in
    /// memory (a long `IN` list is one array, but each `%@` of `a == %@ OR a == %@ …` is a value).
    static let parameterLimitReason = "the statement would bind more than PostgreSQL's \(PostgreSQLConnection.parameterLimit) values"

    /// Why a fetch whose bound text holds a NUL character runs in memory.
    static let boundNULReason = "a bound text holds a NUL character, which PostgreSQL's text cannot"

    /// The compiler's bound values as sent: numbers, text and bytes as SQLite holds them (the
    /// dialect reads columns in that form); a NaN, which SQLite binds as NULL, as NULL. Nil when
    /// a text holds a NUL character, which PostgreSQL's text cannot.
    static func sent(_ bindings: [SQLValue]) -> [PostgreSQLValue]? {
        var result: [PostgreSQLValue] = []
        result.reserveCapacity(bindings.count)
        for binding in bindings {
            switch binding {
            case .null: result.append(.null)
            case .integer(let i): result.append(.int64(i))
            case .real(let d): result.append(d.isNaN ? .null : .double(d))
            case .text(let s):
                guard !s.utf8.contains(0) else { return nil }
                result.append(.text(s))
            case .blob(let b): result.append(.bytes(b))
            }
        }
        return result
    }

    /// The relationship key paths a request's predicate reads from objects of `entity`
    /// (``PredicateRelationshipPaths``: `playlists.tracks.album`, every step loaded for a
    /// batch), and the first key of each sort key path that is a relationship.
    static func relationshipsRead(by predicate: PredicateNode?, sortKeys keyPaths: [String], entity: EntityDescription, model: DataModel) -> [String] {
        var paths = predicate.map { PredicateRelationshipPaths.paths(of: $0, entity: entity, model: model) } ?? []
        for keyPath in keyPaths {
            guard let first = keyPath.split(separator: ".").first.map(String.init), entity.relationship(named: first) != nil,
                  !paths.contains(where: { $0 == first || $0.hasPrefix(first + ".") }) else { continue }
            paths.append(first)
        }
        return paths
    }
}

extension PostgreSQLStore {
    /// A `text[]` literal of names (each quoted, so any name is itself), sent as a parameter.
    static func textArrayLiteral(_ names: [String]) -> String {
        "{" + names.map { "\"" + $0.replacingScalar("\\", with: "\\\\").replacingScalar("\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}"
    }
}
