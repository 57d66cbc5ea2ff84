import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

extension SQLFetchExecutor {
    func sections(_ request: FetchRequest) throws -> SectionedFetchResults {
        guard let keyPath = request.sectionNameKeyPath else {
            throw StoreError(.invalidRequest, "the request has no section key path", entity: request.entityName)
        }
        let entity = try schema.model.requireEntity(request.entityName)
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let (ending, crossesToMany) = try ModelKeyPaths.resolve(keys, from: entity, model: schema.model)
        if case .relationship = ending {
            throw StoreError(.invalidRequest, "cannot section by relationship '\(keyPath)'; use one of its attributes", entity: entity.name, key: keyPath)
        }
        if crossesToMany {
            throw StoreError(.invalidRequest, "cannot section by to-many key path '\(keyPath)'", entity: entity.name, key: keyPath)
        }
        // The objects in order (their keys only), then the sections over them.
        let objects = try self.objects(request)
        let views = objects.map { Value.object($0) }
        let grouped = try SectionedResults(views, order: Array(views.indices), sectionKeyPath: keyPath)
        store.lock.lock(); defer { store.lock.unlock() }
        // The sections' objects are read by key, with the layout the fetch used.
        let keyList: [(key: Int64, id: ObjectID)]
        let layout: RowLayout
        if let source = objects.source as? SQLQuerySource {
            (keyList, layout) = (source.keys(), source.layout)
        } else if let source = objects.source as? SQLKeyListSource {
            (keyList, layout) = (source.keys, source.layout)
        } else {
            return SectionedFetchResults(sections: [], warning: grouped.warning)
        }
        let sections = grouped.sections.map { section in
            FetchedSection(name: section.name, indexTitle: section.indexTitle,
                           objects: FetchedObjects(source: SQLKeyListSource(store: store, keys: section.objectIndices.map { keyList[$0] }, layout: layout),
                                                   batchSize: request.fetchBatchSize))
        }
        return SectionedFetchResults(sections: sections, warning: grouped.warning)
    }
}
