import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftStore

extension PostgreSQLFetchExecutor {
    /// Dictionary results computed by the server (`DialectDictionaryQuery`: the properties'
    /// columns, grouped and aggregated there), finished by `DictionaryResults`' last stages
    /// (HAVING, sorting groups, distinct, paging the server did not do) on the few rows it
    /// returns; nil when some part must run in memory.
    ///
    /// `request` is the plan's request with its own offset and limit (the plan's has none).
    func dictionariesInServer(_ plan: PostgreSQLFetchPlan, _ request: FetchRequest, properties: [FetchedProperty]) throws -> [ValueDictionary]? {
        guard plan.isCompiled else { return nil }
        let query: DialectDictionaryQuery
        do {
            query = try DialectDictionaryQuery(request, properties: properties, schema: store.schema, dialect: store.dialect)
        } catch {
            store.fetchStatistics.groupReasons["dictionaries: \(error)", default: 0] += 1
            return nil
        }
        guard let parameters = PostgreSQLFetchPlan.sent(query.bindings) else { return nil }
        let result = try inReadTransaction(plan) { try store.connection.query(query.sql, parameters) }
        let rows = result.map { row in query.row((0..<min(properties.count, row.count)).map { PostgreSQLColumnCodec.stored(row[$0]) }) }
        store.fetchStatistics.dictionariesInServer += 1
        if request.propertiesToGroupBy.isEmpty {
            return try DictionaryResults.finishUngrouped(rows, request, paging: !query.pagesInSQL)
        }
        return try DictionaryResults.finishGrouped(rows, request, properties: properties, entity: plan.table.entity, paging: !query.pagesInSQL)
    }
}
