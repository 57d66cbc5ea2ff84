import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// A deliberately wrong store, for testing the harness: an atomic store with one fault.
/// Everything the fault does not touch is the atomic store's.
final class FaultyStore: PersistentStore {
    enum Fault {
        /// Object and object-ID fetches drop their last result when there are more than two.
        case dropsLastResult
        /// `x != constant` is false where x is nil, as in Apple's SQLite store (LANGUAGE.md §3
        /// says it is true: `!=` is `NOT ==`).
        case nilFailsNotEqual
    }

    let base: AtomicStore
    let fault: Fault

    init(model: DataModel, fault: Fault) {
        base = AtomicStore.inMemory(model: model)
        self.fault = fault
    }

    var model: DataModel { base.model }
    var hasChanges: Bool { base.hasChanges }

    @discardableResult
    func insert(entity: String, id: ObjectID?, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) -> ObjectID {
        try base.insert(entity: entity, id: id, attributes: attributes, relationships: relationships)
    }

    func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) {
        try base.update(id, attributes: attributes, relationships: relationships)
    }

    func delete(_ id: ObjectID) throws(StoreError) { try base.delete(id) }
    func save() throws(StoreError) { try base.save() }
    func rollback() { base.rollback() }
    func performChanges<T>(_ body: () throws -> T) throws -> T { try base.performChanges(body) }

    /// The request the fault turns `request` into.
    private func faulty(_ request: FetchRequest) throws -> FetchRequest {
        var changed = request
        switch fault {
        case .dropsLastResult:
            guard request.resultType == .objects || request.resultType == .objectIDs else { return request }
            let count = try base.count(request)
            if count > 2 { changed.fetchLimit = count - 1 }
        case .nilFailsNotEqual:
            changed.predicate = request.predicate.map(Self.droppingNils)
        }
        return changed
    }

    /// Every unqualified `left != constant` becomes `left != constant AND left != nil`.
    private static func droppingNils(_ predicate: PredicateNode) -> PredicateNode {
        switch predicate.kind {
        case .constant: return predicate
        case .comparison(let c):
            guard c.operator == .notEqualTo, c.modifier == .direct, let constant = c.right.constantValue, constant != .null else { return predicate }
            let notNil = PredicateNode(.comparison(Comparison(c.left, .notEqualTo, ExpressionNode(.constant(.null)))))
            return PredicateNode(.and([predicate, notNil]))
        case .and(let parts): return PredicateNode(.and(parts.map(droppingNils)))
        case .or(let parts): return PredicateNode(.or(parts.map(droppingNils)))
        case .not(let part): return PredicateNode(.not(droppingNils(part)))
        }
    }

    func execute(_ request: FetchRequest) throws -> FetchResult { try base.execute(faulty(request)) }
    func fetch(_ request: FetchRequest) throws -> FetchedObjects { try base.fetch(faulty(request)) }

    func fetchSections(_ request: FetchRequest) throws -> SectionedFetchResults {
        fault == .dropsLastResult ? try base.fetchSections(request) : try base.fetchSections(faulty(request))
    }

    func object(with id: ObjectID) -> ManagedObject? { base.object(with: id) }
}
