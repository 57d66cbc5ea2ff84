import SiftEvaluation
import SiftLanguage

/// A fetch request as every store runs it: LANGUAGE.md §3's typed rules (``TypedComparisons``)
/// applied to all of it — the predicate on the fetched entity, the properties' expressions,
/// the group-by expressions, and HAVING on the rows the properties make (their names typed
/// from their expressions: `max:(InvoiceDate) AS lastDate` is a date) — with the warnings
/// they gave, in that order.
package struct TypedRequest {
    /// The request with dates read from strings where they meet dates.
    package let request: FetchRequest
    package let warnings: [FetchWarning]

    package init(_ request: FetchRequest, entity: EntityDescription, model: DataModel) throws(StoreError) {
        var typed = request
        let scope = TypingScope(entity: entity, model: model)
        var rules = TypedComparisons(clause: .predicate)
        if let predicate = request.predicate { typed.predicate = try rules.apply(predicate, in: scope) }
        if request.resultType == .dictionaries {
            rules.clause = .properties
            var properties: [FetchedProperty] = []
            for property in request.propertiesToFetch {
                properties.append(FetchedProperty(name: property.name, expression: try rules.applyChecking(property.expression, in: scope)))
            }
            typed.propertiesToFetch = properties
            var groupBy: [FetchedProperty] = []
            for property in request.propertiesToGroupBy {
                groupBy.append(FetchedProperty(name: property.name, expression: try rules.applyChecking(property.expression, in: scope)))
            }
            typed.propertiesToGroupBy = groupBy
            if let having = request.havingPredicate {
                // HAVING reads the rows: each key is a property, typed as its expression.
                var row: [String: TypedValue] = [:]
                for property in DictionaryResults.properties(typed, entity: entity) {
                    row[property.name] = try ExpressionTyping.type(of: property.expression, in: scope)
                }
                rules.clause = .having
                typed.havingPredicate = try rules.apply(having, in: TypingScope(rowOf: row, model: model))
            }
        }
        self.request = typed
        // A property written twice (as a property and a group-by one) warns once.
        var seen: Set<FetchWarning> = []
        self.warnings = rules.warnings.filter { seen.insert($0).inserted }
    }
}
