import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

extension SQLFetchExecutor {
    func dictionaries(_ request: FetchRequest) throws -> [ValueDictionary] {
        // The matching objects in order come from SQL; the properties, grouping and HAVING are
        // the in-memory executor's own.
        var objectRequest = request
        objectRequest.resultType = .objects
        objectRequest.fetchLimit = 0
        objectRequest.fetchOffset = 0
        objectRequest.propertiesToFetch = []
        objectRequest.propertiesToGroupBy = []
        objectRequest.havingPredicate = nil
        objectRequest.sectionNameKeyPath = nil
        if !request.propertiesToGroupBy.isEmpty { objectRequest.sortDescriptors = [] }
        let objects = try self.objects(objectRequest)
        return try DictionaryResults.make(request, objects: objects.map { Value.object($0) }, entity: try schema.model.requireEntity(request.entityName))
    }
}
