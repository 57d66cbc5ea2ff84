import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// A disagreement between the two stores, as found and as shrunk, and its readable report.
///
/// The report holds everything needed to reproduce it without the harness: the data as import
/// JSON (docs/IMPORT.md) for ``DifferentialModel/json``, the request as fetch-request JSON
/// (docs/FETCH-REQUESTS.md: `sift query --request`), both answers, and the seeds that
/// regenerate the original case (`DifferentialHarness.check(dataSeed:requestSeed:...)`).
struct DifferentialMismatch: Sendable {
    var referenceName: String
    var candidateName: String
    /// The case's number in the run, and the seeds that regenerate it.
    var caseNumber: Int
    var dataSeed: UInt64
    var requestSeed: UInt64

    var original: (data: DifferentialDataSet, request: FetchRequest)
    var originalDifference: String
    /// The shrunk case and how the stores answer it.
    var minimal: (data: DifferentialDataSet, request: FetchRequest)
    var reference: DifferentialObservation
    var candidate: DifferentialObservation
    var difference: String
    var shrinkAttempts: Int

    var report: String {
        """
        Differential mismatch: \(candidateName) disagrees with \(referenceName)
        Case \(caseNumber) (dataSeed: 0x\(String(dataSeed, radix: 16)), requestSeed: 0x\(String(requestSeed, radix: 16))): \(originalDifference)
          original: \(original.data.objects.count) objects (\(original.data.summary)); \(Self.requestSummary(original.request))

        Minimal case (shrunk in \(shrinkAttempts) runs): \(difference)

        Data (import JSON for DifferentialModel.json):
        \(minimal.data.importJSON)

        Request (fetch request JSON):
        \(Self.requestJSON(minimal.request))

        \(referenceName) (reference):
            \(reference.description)
        \(candidateName) (candidate):
            \(candidate.description)

        Reproduce the original case: DifferentialHarness.check(dataSeed: 0x\(String(dataSeed, radix: 16)), requestSeed: 0x\(String(requestSeed, radix: 16)), reference: ..., candidate: ...)
        """
    }

    /// A request as fetch-request JSON, one field per line, fields at their defaults left out.
    static func requestJSON(_ request: FetchRequest) -> String {
        var fields = ["\"entityName\": \(DifferentialDataSet.json(request.entityName))"]
        if let predicate = request.predicate {
            fields.append("\"predicate\": \(DifferentialDataSet.json(CanonicalPrinter.format(predicate)))")
        }
        if !request.sortDescriptors.isEmpty {
            let sorts = request.sortDescriptors.map { key in
                "{\"key\": \(DifferentialDataSet.json(key.keyPath)), \"ascending\": \(key.ascending), \"comparator\": \"\(key.comparator.rawValue)\"}"
            }
            fields.append("\"sortDescriptors\": [" + sorts.joined(separator: ", ") + "]")
        }
        if request.fetchLimit != 0 { fields.append("\"fetchLimit\": \(request.fetchLimit)") }
        if request.fetchOffset != 0 { fields.append("\"fetchOffset\": \(request.fetchOffset)") }
        if request.fetchBatchSize != 0 { fields.append("\"fetchBatchSize\": \(request.fetchBatchSize)") }
        fields.append("\"resultType\": \"\(request.resultType.rawValue)\"")
        if !request.includesSubentities { fields.append("\"includesSubentities\": false") }
        if let keyPath = request.sectionNameKeyPath { fields.append("\"sectionNameKeyPath\": \(DifferentialDataSet.json(keyPath))") }
        if !request.propertiesToFetch.isEmpty {
            fields.append("\"propertiesToFetch\": [" + request.propertiesToFetch.map { DifferentialDataSet.json(propertyText($0)) }.joined(separator: ", ") + "]")
        }
        if request.returnsDistinctResults { fields.append("\"returnsDistinctResults\": true") }
        if !request.propertiesToGroupBy.isEmpty {
            fields.append("\"propertiesToGroupBy\": [" + request.propertiesToGroupBy.map { DifferentialDataSet.json(propertyText($0)) }.joined(separator: ", ") + "]")
        }
        if let having = request.havingPredicate {
            fields.append("\"havingPredicate\": \(DifferentialDataSet.json(CanonicalPrinter.format(having)))")
        }
        return "{\n  " + fields.joined(separator: ",\n  ") + "\n}"
    }

    /// A fetched property as `expression AS name` (just the expression when that is its name).
    static func propertyText(_ property: FetchedProperty) -> String {
        let expression = CanonicalPrinter.format(property.expression)
        return expression == property.name ? expression : "\(expression) AS \(property.name)"
    }

    /// A request on one line, for summaries.
    static func requestSummary(_ request: FetchRequest) -> String {
        var parts: [String] = []
        if request.resultType == .dictionaries {
            parts.append("SELECT " + (request.returnsDistinctResults ? "DISTINCT " : "")
                         + (request.propertiesToFetch.isEmpty ? "*" : request.propertiesToFetch.map(propertyText).joined(separator: ", ")) + " FROM")
        }
        parts.append("\(request.entityName)\(request.includesSubentities ? "" : " (no sub-entities)")")
        if let predicate = request.predicate { parts.append("WHERE \(CanonicalPrinter.format(predicate))") }
        if !request.propertiesToGroupBy.isEmpty { parts.append("GROUP BY " + request.propertiesToGroupBy.map(propertyText).joined(separator: ", ")) }
        if let having = request.havingPredicate { parts.append("HAVING \(CanonicalPrinter.format(having))") }
        if !request.sortDescriptors.isEmpty { parts.append("SORT BY " + request.sortDescriptors.map(\.description).joined(separator: ", ")) }
        if request.fetchLimit != 0 { parts.append("LIMIT \(request.fetchLimit)") }
        if request.fetchOffset != 0 { parts.append("OFFSET \(request.fetchOffset)") }
        if let keyPath = request.sectionNameKeyPath { parts.append("SECTION BY \(keyPath)") }
        parts.append("→ \(request.resultType.rawValue)")
        return parts.joined(separator: " ")
    }
}
