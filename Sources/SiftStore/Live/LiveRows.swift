import Foundation
import SiftEvaluation
import SiftLanguage

/// What a live controller needs to follow a change by the affected rows only: the attributes
/// that decide whether and where an object is in the results (the predicate's, the sort keys',
/// the section key path's), how the sort keys order, and which attributes the fetch shows.
struct LiveOrdering: Sendable {
    let sortKeys: [SortKey]
    /// The attribute each sort key reads, or nil where a sort key is not one attribute of the
    /// entity (a key path through a relationship).
    let sortAttributes: [String]?
    /// The attributes whose change can move an object in, out of or around the results; nil
    /// when the request reads more than the entity's own attributes (a relationship, a
    /// subquery, a variable), so a change to another object may move it: then every change is
    /// followed by a full refetch.
    let positionKeys: Set<String>?
    /// The attributes hashed to tell an update from a refetch (what the fetch shows).
    let shownAttributes: [String]

    init(request: FetchRequest, entity: EntityDescription, readKeys: Set<String>?) {
        sortKeys = request.sortDescriptors
        let attributes = Set(entity.attributes.map(\.name))
        func attribute(_ keyPath: String) -> String? {
            attributes.contains(keyPath) ? keyPath : nil
        }
        let sorted = request.sortDescriptors.map { attribute($0.keyPath) }
        sortAttributes = sorted.contains(nil) ? nil : sorted.compactMap { $0 }
        var keys = Set(sortAttributes ?? [])
        var followable = sortAttributes != nil && request.fetchLimit == 0 && request.fetchOffset == 0
        if let section = request.sectionNameKeyPath {
            if let name = attribute(section) { keys.insert(name) } else { followable = false }
        }
        if let predicate = request.predicate {
            var read: Set<String> = []
            if Self.collect(predicate, into: &read), read.isSubset(of: attributes) {
                keys.formUnion(read)
            } else {
                followable = false
            }
        }
        positionKeys = followable ? keys : nil
        shownAttributes = entity.attributes.map(\.name).filter { readKeys?.contains($0) ?? true }
    }

    /// Collects the single-key key paths a predicate reads; false where it reads anything else
    /// (a key path of several keys, a variable, a subquery, a function expression).
    static func collect(_ predicate: PredicateNode, into keys: inout Set<String>) -> Bool {
        switch predicate.kind {
        case .constant: return true
        case .comparison(let comparison):
            return comparison.modifier == .direct && collect(comparison.left, into: &keys) && collect(comparison.right, into: &keys)
        case .and(let parts), .or(let parts): return parts.allSatisfy { collect($0, into: &keys) }
        case .not(let inner): return collect(inner, into: &keys)
        }
    }

    static func collect(_ expression: ExpressionNode, into keys: inout Set<String>) -> Bool {
        switch expression.kind {
        case .constant, .evaluatedObject: return true
        case .keyPath(let base, let path):
            guard base == nil, path.count == 1 else { return false }
            keys.insert(path[0])
            return true
        case .aggregate(let elements): return elements.allSatisfy { collect($0, into: &keys) }
        case .function(_, let arguments): return arguments.allSatisfy { collect($0, into: &keys) }
        case .ternary(let condition, let then, let otherwise):
            return collect(condition, into: &keys) && collect(then, into: &keys) && collect(otherwise, into: &keys)
        case .cast(let value, _): return collect(value, into: &keys)
        case .unary(_, let operand): return collect(operand, into: &keys)
        case .binary(_, let left, let right): return collect(left, into: &keys) && collect(right, into: &keys)
        case .variable, .dictionary, .index, .functionExpression, .subquery, .assignment: return false
        }
    }

    /// An object's sort key values (nil where the sort keys are not attributes).
    func sortValues(of object: ManagedObject) -> [Value] {
        (sortAttributes ?? []).map { object[attribute: $0] ?? .null }
    }

    /// A hash of the values the fetch shows of an object.
    func shownHash(of object: ManagedObject) -> Int {
        var hasher = Hasher()
        for name in shownAttributes { Self.hash(object[attribute: name] ?? .null, into: &hasher) }
        return hasher.finalize()
    }

    static func hash(_ value: Value, into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0)
        case .bool(let x): hasher.combine(1); hasher.combine(x)
        case .int(let x): hasher.combine(2); hasher.combine(x)
        case .double(let x): hasher.combine(3); hasher.combine(x)
        case .decimal(let x): hasher.combine(4); hasher.combine(x)
        case .string(let x): hasher.combine(5); hasher.combine(x)
        case .date(let x): hasher.combine(6); hasher.combine(x)
        case .data(let x): hasher.combine(7); hasher.combine(x)
        case .uuid(let x): hasher.combine(8); hasher.combine(x)
        case .array(let xs), .set(let xs):
            hasher.combine(9); hasher.combine(xs.count)
            for x in xs { hash(x, into: &hasher) }
        case .dictionary(let x): hasher.combine(10); hasher.combine(String(describing: x))
        case .object(let x): hasher.combine(11); hasher.combine(x.objectIdentity)
        }
    }

    /// The order (-1, 0, 1) by the sort descriptors of sort key values `a` and the object at
    /// `row` of `section`.
    func order(_ a: [Value], _ section: LiveSectionRows, _ row: Int) -> Int {
        for (k, key) in sortKeys.enumerated() where k < a.count && k < section.columns.count {
            let order = Sorting.compare(a[k], section.columns[k][row], comparator: key.comparator)
            if order != 0 { return key.ascending ? order : -order }
        }
        return 0
    }
}

/// One section of a live result as the controller keeps it: its index title, and each
/// object's sort key values (a column per sort key, no allocation per object) and hash of
/// shown values, in the order of the snapshot's IDs. Each column is a ``ChunkedList``: a change
/// copies the chunks it changes, not the section.
struct LiveSectionRows: Sendable {
    var indexTitle: String
    var columns: [ChunkedList<Value>]
    var hashes: ChunkedList<Int>

    init(indexTitle: String, keys: Int) {
        self.indexTitle = indexTitle
        columns = Array(repeating: ChunkedList(), count: keys)
        hashes = ChunkedList()
    }

    var count: Int { hashes.count }

    mutating func append(_ values: [Value], hash: Int) {
        for k in columns.indices { columns[k].append(values[k]) }
        hashes.append(hash)
    }

    mutating func insert(_ values: [Value], hash: Int, at row: Int) {
        for k in columns.indices { columns[k].insert(values[k], at: row) }
        hashes.insert(hash, at: row)
    }

    mutating func set(_ values: [Value], hash: Int, at row: Int) {
        for k in columns.indices { columns[k][row] = values[k] }
        hashes[row] = hash
    }

    mutating func remove(at row: Int) {
        for k in columns.indices { columns[k].remove(at: row) }
        hashes.remove(at: row)
    }
}

/// A live result's objects, read a batch at a time by ID when they are accessed (the
/// controller keeps only the IDs): the batch around the object asked for is fetched with
/// `SELF IN` its IDs and kept until another batch is needed.
final class LiveObjectSource: FetchedObjectSource, @unchecked Sendable {
    let store: any PersistentStore
    let entityName: String
    let includesSubentities: Bool
    let ids: ChunkedList<ObjectID>
    let batchSize: Int
    private let lock = NSLock()
    private var batch: (range: Range<Int>, objects: [ObjectID: ManagedObject]) = (0..<0, [:])

    init(store: any PersistentStore, request: FetchRequest, ids: ChunkedList<ObjectID>) {
        self.store = store
        entityName = request.entityName
        includesSubentities = request.includesSubentities
        self.ids = ids
        batchSize = request.fetchBatchSize > 0 ? request.fetchBatchSize : 100
    }

    var count: Int { ids.count }
    func objectID(at index: Int) -> ObjectID { ids[index] }

    func object(at index: Int) -> ManagedObject {
        lock.lock(); defer { lock.unlock() }
        let id = ids[index]
        if !batch.range.contains(index) {
            let start = index / batchSize * batchSize
            let range = start..<min(ids.count, start + batchSize)
            var objects: [ObjectID: ManagedObject] = [:]
            var batchIDs: [ObjectID] = []
            batchIDs.reserveCapacity(range.count)
            ids.forEach(in: range) { _, id in batchIDs.append(id) }
            if let request = try? Self.request(entityName, ids: batchIDs, includesSubentities: includesSubentities),
               let fetched = try? store.fetch(request) {
                for object in fetched { objects[object.objectID] = object }
            }
            batch = (range, objects)
        }
        if let object = batch.objects[id] ?? store.object(with: id) { return object }
        // Deleted since the result was read: an object without values.
        return ManagedObject(objectID: id, entityName: entityName, names: AttributeNames([]), values: [][...],
                             storage: GoneObjectStorage(), storageKey: 0)
    }

    /// A fetch of the objects with `ids` (of the entity, and its sub-entities when asked).
    static func request(_ entityName: String, ids: [ObjectID], includesSubentities: Bool, predicate: PredicateNode? = nil) throws -> FetchRequest {
        let byID = try PredicateNode(format: "SELF IN %@", arguments: [ids])
        var request = FetchRequest(entityName: entityName, predicate: predicate.map { .and([$0, byID]) } ?? byID)
        request.includesSubentities = includesSubentities
        return request
    }
}

/// The storage of an object deleted after the live result was read.
final class GoneObjectStorage: ManagedObjectStorage, @unchecked Sendable {
    func value(forKey key: String, of object: ManagedObject) throws(EvaluationError) -> Value { .null }
    func relationshipIDs(of object: ManagedObject) -> [(name: String, ids: [ObjectID], isToMany: Bool)] { [] }
    func destinationIDs(_ relationship: String, of object: ManagedObject) -> [ObjectID] { [] }
    func destinationCount(_ relationship: String, of object: ManagedObject) -> Int { 0 }
}
