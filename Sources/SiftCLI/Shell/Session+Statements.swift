import Foundation
import Sift

/// Running statements: what kind a statement is, the fetch or change it stands for, and its
/// results printed in the session's mode.
extension Session {
    /// The kinds of statement a session runs.
    enum Statement {
        /// FETCH, COUNT, SELECT, or an entity name with clauses.
        case fetch(FetchRequest)
        case update(UpdateStatement)
        case delete(DeleteStatement)
    }

    /// Parses a statement: a fetch, update or delete statement, or, after `.use ENTITY`, a bare
    /// predicate on that entity (paged by `.limit`).
    func parse(statement text: String) throws -> (statement: Statement, bare: Bool) {
        let words = text.split(whereSeparator: { $0.isWhitespace }).prefix(2).map { StatementWord(rawValue: $0.uppercased()) }
        let arguments = self.arguments.map(\.value)
        switch words.first ?? nil {
        case .update?:
            return (.update(try bindVariables(UpdateStatement(parsing: text, arguments: arguments))), false)
        case .delete?:
            return (.delete(try bindVariables(DeleteStatement(parsing: text, arguments: arguments))), false)
        case .fetch?, .count?, .select?:
            return (.fetch(try fetchRequest(text)), false)
        case .from?, .where?, .set?, .sort?, .order?, .by?, .using?, .asc?, .ascending?, .desc?, .descending?, .section?, .group?,
             .having?, .limit?, .offset?, .as?, .distinct?, .nulls?, nil:
            // (Not a statement's first word: an entity name, or a predicate after `.use`.)
            break
        }
        let model = store.map(StoreModels.outline(of:))
        let firstWord = text.split(whereSeparator: { $0.isWhitespace || $0 == "(" }).first.map(String.init) ?? ""
        let namesEntity = model?.entity(named: firstWord) != nil || model == nil
        if let entity, !namesEntity {
            // A bare predicate on the entity `.use` chose.
            var predicate = try PredicateNode(format: text, arguments: arguments)
            predicate = try predicate.substituting(variables: variableValues)
            var request = FetchRequest(entityName: entity, predicate: predicate)
            // One more than the page, to know whether there are more (0, no limit, past Int.max).
            if let limit = settings.limit { request.fetchLimit = limit < Int.max ? limit + 1 : 0 }
            return (.fetch(request), true)
        }
        if words.count > 1, words[1] == .set {
            return (.update(try bindVariables(UpdateStatement(parsing: text, arguments: arguments))), false)
        }
        return (.fetch(try fetchRequest(text)), false)
    }

    var variableValues: [String: Any?] { variables.mapValues(\.value) }

    func fetchRequest(_ text: String) throws -> FetchRequest {
        try FetchRequest(statement: text, arguments: arguments.map(\.value), variables: variableValues)
    }

    private func bindVariables(_ statement: UpdateStatement) throws -> UpdateStatement {
        guard !variables.isEmpty else { return statement }
        var bound = statement
        bound.predicate = try statement.predicate?.substituting(variables: variableValues)
        bound.assignments = try statement.assignments.map { ($0.key, try $0.value.substituting(variables: variableValues)) }
        return bound
    }

    private func bindVariables(_ statement: DeleteStatement) throws -> DeleteStatement {
        guard !variables.isEmpty else { return statement }
        var bound = statement
        bound.predicate = try statement.predicate?.substituting(variables: variableValues)
        return bound
    }

    /// Parses and runs a statement, printing its results: its SQL and query plan first when
    /// `.sql` and `.eqp` ask, on the engine `.engine` chooses (under `.engine both`, compared with
    /// the other), and its times after them with `.timer on`. A `.once FILE` before it sends its
    /// results to FILE.
    func execute(statement text: String) throws {
        try startOnceRedirection()
        try withSessionHints { try executeParsing(text) }
    }

    /// Runs a fetch request (a statement's, or `.request FILE.json`'s) and prints its results.
    func run(request: FetchRequest) throws {
        try startOnceRedirection()
        var timings = StatementTimings()
        try withSessionHints { try runFetch(request, paged: nil, timings: &timings) }
        if settings.timer { output.message(timings.line) }
    }

    /// Errors that tell how to bind a variable say how a session does it (`.set`).
    private func withSessionHints(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as EvaluationError where error.code == .unboundVariable {
            let name = (error.keyPath ?? "$").dropFirst()
            throw SessionError("the variable $\(name) has no value; set one with .set \(name) JSON (.vars lists them)")
        }
    }

    private func executeParsing(_ text: String) throws {
        var timings = StatementTimings()
        let (statement, bare) = try timings.measure(.parse) { try parse(statement: text) }
        let store = try requireStore()
        switch statement {
        case .fetch(let request):
            try runFetch(request, paged: bare ? settings.limit : nil, timings: &timings)
        case .update(let update):
            _ = try requireWritableStore()
            lastPredicate = update.predicate
            warn(about: update.predicate, entity: update.entityName, on: store)
            try timings.measure(.compile) { try prepareChange(entity: update.entityName, predicate: update.predicate, on: store) }
            let count = try timings.measure(.execute) {
                try changeAndSave(store) { try store.batchUpdate(entity: update.entityName, predicate: update.predicate, set: update.values) }
            }
            savedChange = BatchChange.summary("updated", count)
            output.write("updated \(count) object\(count == 1 ? "" : "s")\n")
        case .delete(let delete):
            _ = try requireWritableStore()
            lastPredicate = delete.predicate
            warn(about: delete.predicate, entity: delete.entityName, on: store)
            try timings.measure(.compile) { try prepareChange(entity: delete.entityName, predicate: delete.predicate, on: store) }
            let count = try timings.measure(.execute) {
                try changeAndSave(store) { try store.batchDelete(entity: delete.entityName, predicate: delete.predicate) }
            }
            savedChange = BatchChange.summary("deleted", count)
            output.write("deleted \(count) object\(count == 1 ? "" : "s")\n")
        }
        if settings.timer { output.message(timings.line) }
    }

    /// Sends results to the file `.once` named, for this statement only (the end of its result
    /// ends the redirection).
    private func startOnceRedirection() throws {
        guard let path = commandState.onceFile else { return }
        commandState.onceFile = nil
        try output.redirect(to: path, once: true)
    }

    /// Runs a fetch on the engine `.engine` chooses and prints its results; under `.engine both`,
    /// runs it on the other engine too and fails when the two differ. The engines compare the
    /// whole result: a bare predicate's request reads one row more than the page it prints
    /// (`paged`), and is compared without that limit.
    private func runFetch(_ request: FetchRequest, paged limit: Int?, timings: inout StatementTimings) throws {
        let store = try requireStore()
        lastPredicate = request.predicate
        warn(about: request, on: store)
        // Selected to-one relationships read their destinations' keys, in the modes that show them.
        let request = settings.mode.showsToOneKeys ? ToOneKeys(store: store).showingKeys(request, model: store.model) : request
        let (main, other) = try engines(for: store)
        var whole = request
        if limit != nil { whole.fetchLimit = 0 }
        try timings.measure(.compile) { try prepare(request, on: main) }
        try showPlan(request, on: main)
        do {
            try timings.measure(.execute) { try FetchPrinter(session: self, store: main.store).run(request, paged: limit) }
        } catch {
            guard let other else { throw error }
            let verdict = EngineComparison.compare((main.name, .failed(Self.message(of: error))),
                                                   (other.name, EngineComparison.outcome(of: whole, on: other.store)))
            if verdict.agree { throw error }
            throw SessionError(verdict.message)
        }
        guard let other else { return }
        let verdict = EngineComparison.compare((main.name, EngineComparison.outcome(of: whole, on: main.store)),
                                               (other.name, EngineComparison.outcome(of: whole, on: other.store)))
        guard verdict.agree else { throw SessionError(verdict.message) }
        output.message(verdict.message)
    }

    /// The engine that runs a fetch and prints its results, and under `.engine both` the one it
    /// is compared with. A SQLite store's own engine is SQL, and its objects are copied into an
    /// in-memory store for the evaluator; a JSON or binary store runs fetches in memory (it has
    /// no SQL: `.engine sql` is the store's own engine there), and `.engine both` compares it
    /// with a copy of its objects in an in-memory SQLite store.
    func engines(for store: any PersistentStore) throws -> (main: Engine, other: Engine?) {
        // (A PostgreSQL store's own engine is SQL too.)
        let isSQLite = store is any SQLShowingStore
        let own = Engine(name: isSQLite ? "sql" : "memory", store: store)
        switch settings.engine {
        case .sql:
            return (own, nil)
        case .memory:
            return isSQLite ? (Engine(name: "memory", store: try commandState.engineCopy.copy(of: store)), nil) : (own, nil)
        case .both:
            return (own, Engine(name: isSQLite ? "memory" : "sql", store: try commandState.engineCopy.copy(of: store)))
        }
    }

    /// Compiles a fetch as its engine will (SQL on SQLite, the predicate for the evaluator), to
    /// time it and, with `.sql on`, to print the SQL (SQLite's with its values written in, to
    /// paste into sqlite3).
    private func prepare(_ request: FetchRequest, on engine: Engine) throws {
        guard settings.showSQL || settings.showPlan || settings.timer else { return }
        if engine.name == "sql", let sqlite = engine.store as? any SQLShowingStore {
            let generated: GeneratedSQL
            do {
                generated = try sqlite.generatedSQL(for: request)
            } catch where !settings.showSQL {
                return  // only timing: the fetch reports the error
            }
            if settings.showSQL { output.write(GeneratedSQLOutput.shown(generated) + "\n") }
            return
        }
        if settings.showSQL || settings.showPlan { output.write("-- no SQL: \(noSQLReason(engine))\n") }
        if settings.timer, let predicate = request.predicate { _ = try? CompiledPredicate(predicate) }
    }

    /// The database's query plan for a fetch (`.eqp on`), as `sift explain` prints it.
    private func showPlan(_ request: FetchRequest, on engine: Engine) throws {
        guard settings.showPlan, engine.name == "sql", let store = engine.store as? any SQLShowingStore else { return }
        let plan = try store.queryPlan(for: request)
        output.write("QUERY PLAN\n" + (store.plansAsSQLiteSteps ? GeneratedSQLOutput.tree(plan) : plan.map { $0 + "\n" }.joined()))
    }

    /// Why a fetch runs without SQL, for `.sql on` and `.eqp on`.
    private func noSQLReason(_ engine: Engine) -> String {
        guard let inMemory = engine.store as? any InMemoryFetchingStore, inMemory === store else {
            return ".engine memory runs the fetch in memory, on a copy of the store's objects"
        }
        return "\(storeLabel) is \(inMemory.kindDescription); its fetches run in memory"
    }

    /// For a change statement on a SQLite store, the fetch that finds the objects it changes:
    /// its SQL with `.sql on`, its plan with `.eqp on`.
    private func prepareChange(entity: String, predicate: PredicateNode?, on store: any PersistentStore) throws {
        guard settings.showSQL || settings.showPlan || settings.timer else { return }
        let finder = FetchRequest(entityName: entity, predicate: predicate)
        let engine = Engine(name: store is any SQLShowingStore ? "sql" : "memory", store: store)
        if settings.showSQL || settings.showPlan { output.write("-- the objects to change:\n") }
        try prepare(finder, on: engine)
        try showPlan(finder, on: engine)
    }

    /// A batch change, saved; any error rolls it back. The store's copy for `.engine` is stale
    /// after it.
    private func changeAndSave(_ store: any PersistentStore, _ change: () throws -> Int) throws -> Int {
        defer { commandState.engineCopy.invalidate() }
        let count = try BatchChange.saved(store, change)
        if count > 0 { BatchChange.printChangeCaveats(of: store) }
        return count
    }
}
