import Foundation
import SiftEvaluation
import SiftSQL
import SiftStore

/// A query as a store would send it: its text and the values bound to it, in the engine's own
/// form (shown by ``SQLExplainDriver/shown(_:)``).
package struct SQLShownQuery<Binding> {
    package var sql: String
    package var bindings: [Binding]

    package init(sql: String, bindings: [Binding]) {
        self.sql = sql
        self.bindings = bindings
    }
}

/// Why a store's engine does not make a dictionary fetch's dictionaries (nil: the plan's own
/// reason says).
package struct SQLDictionariesInMemory: Error {
    package let reason: String?

    package init(reason: String?) {
        self.reason = reason
    }
}

/// What a SQL store shows of a fetch without running it, under the core's explanation (the
/// extension below: `sift sql`'s ``GeneratedSQL`` and `sift explain`'s plan, written once for
/// every engine).
///
/// The core's part: which query is shown (the objects', the count's, the IDs', the
/// dictionaries' — or, when the dictionaries are made in memory, the query of the objects they
/// are made from, with the reason), whether sorting runs in memory (groups are sorted by their
/// properties once made; one row of aggregates is not sorted), the sections' GROUP BY query or
/// why there is none (``PageSections``, "sections in memory"), and the reasons joined with
/// "; ".
///
/// The driver's part: its plan (made as its fetch makes it, never retried), the text and
/// bindings of each query, how a binding is shown, the placeholders' prefix, the engine's plan
/// of a query, and the few settings where the two stores show a fetch differently.
///
/// (A protocol of its own beside ``SQLFetchDriver``: the plan a store explains is not always
/// the one it fetches with — SQLite's compiles the sections' query before the objects' query
/// is written, as it may join a table that query then shows — and explaining needs none of the
/// fetch's scans and streams.)
package protocol SQLExplainDriver {
    /// The plan of a request as the store shows it.
    associatedtype ExplainPlan
    /// A value bound to a query, in the engine's own form.
    associatedtype Binding

    /// The store's lock, held while a request is planned and shown.
    var lock: NSRecursiveLock { get }

    /// The request's plan (checked as a fetch checks it). For dictionaries, as the dictionary
    /// fetch plans them.
    func explainPlan(_ request: FetchRequest) throws -> ExplainPlan
    /// The query of the plan's objects (their rows, in order).
    func objectsQuery(_ plan: ExplainPlan) -> SQLShownQuery<Binding>
    /// The count's query when the engine counts (nil: the objects' query is shown).
    func countQuery(_ plan: ExplainPlan) -> SQLShownQuery<Binding>?
    /// The objects' IDs' query (nil: the objects' query is shown).
    func objectIDsQuery(_ plan: ExplainPlan) -> SQLShownQuery<Binding>?
    /// The dictionaries' query when the engine makes them, else why it does not.
    func dictionaryQuery(_ plan: ExplainPlan, _ request: FetchRequest) throws -> Result<SQLShownQuery<Binding>, SQLDictionariesInMemory>
    /// The query of the objects the dictionaries of `request` are made from in memory.
    func dictionaryObjectsQuery(_ plan: ExplainPlan, _ request: FetchRequest) throws -> SQLShownQuery<Binding>
    /// The sections' query when the engine groups them (its bindings as shown), else nil.
    func sectionsQuery(_ plan: ExplainPlan, keyPath: String) throws -> (sql: String, bindings: [SQLValue])?

    /// The part of the predicate the evaluator checks, as written.
    func residualPredicate(_ plan: ExplainPlan) -> String?
    /// Why part of the plan runs in memory (SQLite: the residual predicate's reason;
    /// PostgreSQL: the plan's whole reason).
    func planReason(_ plan: ExplainPlan) -> String?
    /// Why the plan's sort runs in memory, if the driver says it apart from ``planReason(_:)``.
    func sortReason(_ plan: ExplainPlan) -> String?
    /// Whether the plan's rows are sorted in memory (for dictionaries neither grouped nor
    /// aggregated whole: their rows).
    func sortsInMemory(_ plan: ExplainPlan) -> Bool

    /// A binding as `sift sql` shows it.
    func shown(_ binding: Binding) -> SQLValue
    /// What a placeholder's number follows (``GeneratedSQL/placeholderPrefix``).
    var placeholderPrefix: String { get }
    /// The engine's plan of a query, one line per step.
    func queryPlan(of query: SQLShownQuery<Binding>) throws -> [String]

    // Settings: where the stores show a fetch differently.

    /// Whether ``planReason(_:)`` hides ``sortReason(_:)`` (SQLite shows one of them).
    var planReasonHidesSortReason: Bool { get }
    /// Whether grouped dictionaries made in memory show their groups sorted (SQLite: yes;
    /// PostgreSQL shows the groups' sort only when the server makes the dictionaries).
    var showsGroupSortOfDictionariesInMemory: Bool { get }
    /// Whether a sectioned fetch whose sections have no query says why ("sections in memory",
    /// ``PageSections/reason``): PostgreSQL does; SQLite says nothing unless it has a sections
    /// query.
    var explainsSectionsWithoutQuery: Bool { get }
}

extension SQLExplainDriver {
    /// The query a request runs (checked as a fetch would be), without running it: see
    /// ``SQLShowingStore/generatedSQL(for:)``.
    package func generatedSQL(for request: FetchRequest) throws -> GeneratedSQL {
        lock.lock(); defer { lock.unlock() }
        let plan = try explainPlan(request)
        var (query, reasons, sortsInMemory) = try shownQuery(plan, request)
        var sectionsQuery: (sql: String, bindings: [SQLValue])?
        if let keyPath = request.sectionNameKeyPath {
            // A page's sections are grouped from its rows (`PageSections`).
            if PageSections.areGroupedFromRows(request) {
                if try explainsSectionsWithoutQuery || self.sectionsQuery(plan, keyPath: keyPath) != nil {
                    reasons.append(PageSections.reason)
                }
            } else if request.resultType == .objects {
                sectionsQuery = try self.sectionsQuery(plan, keyPath: keyPath)
                if sectionsQuery == nil && explainsSectionsWithoutQuery { reasons.append("sections in memory") }
            }
        }
        var generated = GeneratedSQL(sql: query.sql, bindings: query.bindings.map(shown), inMemoryPredicate: residualPredicate(plan),
                                     inMemoryReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "), sortsInMemory: sortsInMemory)
        generated.placeholderPrefix = placeholderPrefix
        if let sectionsQuery { (generated.sectionsSQL, generated.sectionsBindings) = sectionsQuery }
        return generated
    }

    /// The engine's plan of a request's query (the one ``generatedSQL(for:)`` shows), one line
    /// per step.
    package func queryPlan(for request: FetchRequest) throws -> [String] {
        lock.lock(); defer { lock.unlock() }
        let plan = try explainPlan(request)
        return try queryPlan(of: shownQuery(plan, request).query)
    }

    /// The query shown for the plan's request, the reasons for what runs in memory (the
    /// sections' aside), and whether sorting does.
    private func shownQuery(_ plan: ExplainPlan, _ request: FetchRequest) throws
        -> (query: SQLShownQuery<Binding>, reasons: [String], sortsInMemory: Bool) {
        var sortsInMemory = self.sortsInMemory(plan)
        var sortReason = self.sortReason(plan)
        var dictionaryReason: String?
        let query: SQLShownQuery<Binding>
        switch request.resultType {
        case .dictionaries:
            let madeInMemory: Bool
            switch try dictionaryQuery(plan, request) {
            case .success(let dictionaries):
                query = dictionaries
                madeInMemory = false
            case .failure(let inMemory):
                // The objects are fetched, and the evaluator makes the dictionaries.
                dictionaryReason = "dictionaries in memory" + (inMemory.reason.map { ": " + $0 } ?? "")
                query = try dictionaryObjectsQuery(plan, request)
                madeInMemory = true
            }
            if !request.propertiesToGroupBy.isEmpty {
                // Groups are sorted by their properties once they are made.
                sortsInMemory = !request.sortDescriptors.isEmpty && (!madeInMemory || showsGroupSortOfDictionariesInMemory)
                sortReason = sortsInMemory ? "groups sort by their properties" : nil
            } else if DictionaryResults.aggregatesWholeResult(request) {
                // One row of aggregates: nothing to sort.
                sortsInMemory = false
                sortReason = nil
            }
        case .count:
            query = countQuery(plan) ?? objectsQuery(plan)
        case .objectIDs:
            query = objectIDsQuery(plan) ?? objectsQuery(plan)
        default:
            query = objectsQuery(plan)
        }
        // Both reasons where the dictionaries are made in memory and the groups sorted there:
        // the sort's alone would hide why the objects' query is shown.
        let planReasons = planReasonHidesSortReason ? [planReason(plan) ?? sortReason] : [planReason(plan), sortReason]
        return (query, (planReasons + [dictionaryReason]).compactMap { $0 }, sortsInMemory)
    }
}
