import Foundation

/// Counts of how a PostgreSQL store's fetches ran (for tests and benchmarks): how many had a
/// predicate, how many of those the server evaluated whole, how many sectioned and dictionary
/// fetches it computed (GROUP BY), and how many compiled queries the server refused (to be run
/// in memory instead).
package struct PostgreSQLFetchStatistics: Sendable {
    /// Fetches planned (objects, counts, sections, dictionaries).
    package var fetches = 0
    /// Of those, the ones with a predicate.
    package var withPredicate = 0
    /// Of the ones with a predicate, those whose whole predicate ran in the server.
    package var predicateInServer = 0
    /// Fetches with sort descriptors, and those sorted by the server.
    package var sorted = 0
    package var sortedInServer = 0
    /// Compiled queries the server refused (an overflow, a division by zero).
    package var refused = 0
    /// Sectioned fetches planned, and those whose sections the server computed (a GROUP BY).
    package var sectioned = 0
    package var sectionsInServer = 0
    /// Dictionary fetches planned, and those the server computed (properties, groups, aggregates).
    package var dictionaryFetches = 0
    package var dictionariesInServer = 0
    /// Why sections or dictionaries were made in memory (compiled fetches only), and how often.
    package var groupReasons: [String: Int] = [:]
    /// Why predicates or sorts ran in memory, and how often.
    package var reasons: [String: Int] = [:]
    /// The first predicate left to memory for each reason.
    package var examples: [String: String] = [:]

    package init() {}

    /// Counts a planned fetch.
    mutating func count(_ plan: PostgreSQLFetchPlan) {
        fetches += 1
        if let reason = plan.inMemoryReason {
            reasons[reason, default: 0] += 1
            if examples[reason] == nil { examples[reason] = plan.residualPredicate.map { String(describing: $0) } ?? plan.request.sortDescriptors.map(\.description).joined(separator: ", ") }
        }
        if plan.request.predicate != nil {
            withPredicate += 1
            if plan.isCompiled && plan.residual == nil { predicateInServer += 1 }
        }
        // (Dictionaries are sorted once they are made, in memory.)
        if !plan.request.sortDescriptors.isEmpty, plan.request.resultType != .dictionaries {
            sorted += 1
            if !plan.sortsInMemory { sortedInServer += 1 }
        }
    }

    /// Adds another store's counts.
    package static func + (a: Self, b: Self) -> Self {
        var sum = a
        sum.fetches += b.fetches
        sum.withPredicate += b.withPredicate
        sum.predicateInServer += b.predicateInServer
        sum.sorted += b.sorted
        sum.sortedInServer += b.sortedInServer
        sum.refused += b.refused
        sum.sectioned += b.sectioned
        sum.sectionsInServer += b.sectionsInServer
        sum.dictionaryFetches += b.dictionaryFetches
        sum.dictionariesInServer += b.dictionariesInServer
        sum.groupReasons.merge(b.groupReasons, uniquingKeysWith: +)
        sum.reasons.merge(b.reasons, uniquingKeysWith: +)
        sum.examples.merge(b.examples, uniquingKeysWith: { first, _ in first })
        return sum
    }

    /// `412 of 430 predicates (95.8 %) and 120 of 130 sorts in the server; 2 refused` (and the
    /// sectioned and dictionary fetches the server computed, when there were any).
    package var summary: String {
        func share(_ part: Int, _ whole: Int) -> String {
            whole == 0 ? "0" : String(format: "%.1f", 100 * Double(part) / Double(whole))
        }
        return "\(predicateInServer) of \(withPredicate) predicates (\(share(predicateInServer, withPredicate)) %) and "
            + "\(sortedInServer) of \(sorted) sorts (\(share(sortedInServer, sorted)) %) ran in the server; \(refused) compiled queries refused"
            + (sectioned + dictionaryFetches == 0 ? ""
                : "; sections of \(sectionsInServer) of \(sectioned) and dictionaries of \(dictionariesInServer) of \(dictionaryFetches) fetches by the server")
    }
}
