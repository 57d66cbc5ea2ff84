import SiftEvaluation
import SiftLanguage
import SiftStore

/// A fetch request checked exactly as the in-memory executor checks it, so that every SQL store
/// rejects the same requests with the same errors, in the same order, whatever its engine:
/// offset, limit and batch size not negative; the entity in the model; sort aliases resolved
/// and the predicate typed (`TypedRequest`); the evaluator's own compile errors (an invalid
/// constant regex, …); then the sort keys and the key paths and counts to prefetch.
///
/// What a store does next (compile for its dialect, choose a plan) is its own.
package struct CheckedFetchRequest {
    /// The request with its sort aliases resolved and its predicate typed by the model.
    package let request: FetchRequest
    /// The fetched entity.
    package let entity: EntityDescription
    /// The whole predicate as the evaluator compiled it (nil without one).
    package let predicate: CompiledPredicate?

    /// Checks `request` against `model` (the store's, whose entities the request names).
    package init(_ request: FetchRequest, model: DataModel) throws {
        guard request.fetchLimit >= 0 else { throw StoreError(.invalidRequest, "fetchLimit is negative (\(request.fetchLimit))") }
        guard request.fetchOffset >= 0 else { throw StoreError(.invalidRequest, "fetchOffset is negative (\(request.fetchOffset))") }
        guard request.fetchBatchSize >= 0 else { throw StoreError(.invalidRequest, "fetchBatchSize is negative (\(request.fetchBatchSize))") }
        let entity = try Self.entity(of: request, in: model)
        // A sort key naming a property that holds a key path sorts by that key path.
        let request = try TypedRequest(DictionaryResults.resolvingSortAliases(request), entity: entity, model: model).request
        // Errors that do not depend on the data (an invalid constant regex, …) come first,
        // from the evaluator itself, whatever the store runs.
        predicate = try request.predicate.map { p throws(EvaluationError) in try CompiledPredicate(p) }
        try ModelKeyPaths.checkSortKeys(of: request, entity: entity, model: model)
        for path in request.relationshipKeyPathsForPrefetching { try ModelKeyPaths.checkPrefetchKeyPath(path, entity: entity, model: model) }
        for name in request.relationshipCountsForPrefetching { try ModelKeyPaths.checkPrefetchCount(name, entity: entity) }
        self.request = request
        self.entity = entity
    }

    /// The entity `request` fetches; an ``StoreError/Code/unknownEntity`` error naming it when
    /// `model` has none of that name.
    package static func entity(of request: FetchRequest, in model: DataModel) throws(StoreError) -> EntityDescription {
        do throws(ModelError) {
            return try model.requireEntity(request.entityName)
        } catch {
            throw StoreError(.unknownEntity, error.message, entity: request.entityName)
        }
    }
}
