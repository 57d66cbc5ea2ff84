import SiftEvaluation
import SiftLanguage

/// Copies every object of one store — any store Sift opens: its own SQLite layout, a SQLite
/// database it did not create, a Core Data store, JSON, binary, PostgreSQL — into another
/// store Sift writes, with every attribute and every relationship (to-one, to-many, ordered,
/// many-to-many), in one unit of changes and one save on the target: `sift import --from`.
///
/// It streams: each inheritance hierarchy of the source is fetched `batchSize` objects at a
/// time, twice — once to insert its objects with their attributes, once (every object being
/// in) to set their relationships —, so the source's objects are never all in memory at once.
/// (A target that holds its objects in memory, JSON or binary, holds them all, as it always
/// does; a SQL target writes them into its open transaction as they come.)
///
/// Object IDs (``ObjectIDs``): a target in Sift's own layout (SQLite, PostgreSQL, JSON, binary)
/// keeps the source's IDs, whatever their form (`N1`, `Album/3`, `x-coredata://…/ICNote/p8`);
/// a database Sift did not create gives each new row the ID of its own key, and the copy maps
/// the source's IDs to them (that map, one ID pair per object, is the only thing it keeps of
/// every object).
///
/// A relationship with an inverse is set from one side only (the target sets the other): the
/// ordered side, else the to-one side, else the side whose name comes first; one without an
/// inverse from its own side.
public struct StoreCopy {
    /// What the copied objects' IDs are in the target.
    public enum ObjectIDs: Sendable, Hashable {
        /// ``keep`` where the target is in Sift's own layout (its ``PersistentStore/databaseCatalog()``
        /// is nil), ``generate`` otherwise.
        case automatic
        /// Each object keeps its ID (the target must accept any ID).
        case keep
        /// The target gives each object its ID; relationships follow the map.
        case generate
    }

    /// How far a copy has gone: each object is inserted, then its relationships are set.
    public struct Progress: Sendable, Hashable {
        /// The objects inserted so far.
        public var inserted: Int
        /// The objects whose relationships were set so far.
        public var linked: Int
        /// The objects there are to copy (counted when the copy starts).
        public var total: Int
    }

    /// What a copy did.
    public struct Summary: Sendable {
        /// The objects copied of each entity (sub-entities apart), in the model's order,
        /// entities without objects left out.
        public var counts: [(entity: String, count: Int)]
        /// Every object copied.
        public var total: Int { counts.reduce(0) { $0 + $1.count } }
        /// The relationships set (each side set once; the target set the inverses).
        public var relationships: Int
        /// Whether the objects kept the source's IDs (else the target gave them IDs).
        public var keptObjectIDs: Bool
    }

    public let source: any PersistentStore
    public let target: any PersistentStore
    /// How many objects each fetch of the source reads at a time.
    public var batchSize = 500
    public var objectIDs = ObjectIDs.automatic

    public init(from source: any PersistentStore, into target: any PersistentStore) {
        self.source = source
        self.target = target
    }

    /// The source's model with every attribute typed (a database Sift did not create reads its
    /// tables to type their columns): the model a new target is made with.
    public static func model(of source: any PersistentStore) -> DataModel {
        guard let introspected = source as? any IntrospectedModelStore else { return source.model }
        return introspected.model(reading: introspected.catalogModel.entities.map(\.name))
    }

    /// What keeps objects of `source` from going into a store of `target`'s model, one line
    /// naming the first difference; nil when every entity of `source` is in `target` with the
    /// same attributes (of the same types) and relationships (of the same destination,
    /// cardinality and order). `target` may have more.
    public static func modelDifference(source: DataModel, target: DataModel) -> String? {
        for entity in source.entities {
            guard let other = target.entity(named: entity.name) else {
                return "the target's model has no entity \(entity.name)"
            }
            if !entity.isAbstract && other.isAbstract {
                return "\(entity.name) is abstract in the target's model, and not in the source's"
            }
            for attribute in entity.attributes {
                guard let counterpart = other.attribute(named: attribute.name) else {
                    return "the target's \(entity.name) has no attribute \(attribute.name)"
                }
                if counterpart.type != attribute.type {
                    return "\(entity.name).\(attribute.name) is \(attribute.type.name) in the source and \(counterpart.type.name) in the target"
                }
            }
            for relationship in entity.relationships {
                guard let counterpart = other.relationship(named: relationship.name) else {
                    return "the target's \(entity.name) has no relationship \(relationship.name)"
                }
                if counterpart.destination != relationship.destination {
                    return "\(entity.name).\(relationship.name) leads to \(relationship.destination) in the source and to \(counterpart.destination) in the target"
                }
                if counterpart.isToMany != relationship.isToMany || counterpart.isOrdered != relationship.isOrdered {
                    return "\(entity.name).\(relationship.name) is \(kind(relationship)) in the source and \(kind(counterpart)) in the target"
                }
            }
        }
        return nil
    }

    private static func kind(_ relationship: RelationshipDescription) -> String {
        relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
    }

    /// Copies every object of ``source`` into ``target`` and saves: all of them or, on any
    /// error, none (the target's pending changes are undone). `progress` is told after each
    /// object inserted or linked. The target's model must hold the source's
    /// (``modelDifference(source:target:)``: an ``StoreError/Code/unsupportedModel`` error).
    @discardableResult
    public func run(progress: (Progress) -> Void = { _ in }) throws -> Summary {
        if let access = target as? any AccessReportingStore, access.isReadOnly {
            throw Self.refusal(of: target)
        }
        let model = Self.model(of: source)
        if let difference = Self.modelDifference(source: model, target: target.model) {
            throw StoreError(.unsupportedModel, "the target's model does not hold the source's: \(difference)")
        }
        let keep: Bool
        switch objectIDs {
        case .keep: keep = true
        case .generate: keep = false
        case .automatic: keep = try target.databaseCatalog() == nil
        }
        let interruption = (source as? any InterruptibleStore)?.interruption
        return try interruption.whileRunning {
            try copy(model: model, keep: keep, interruption: interruption, progress: progress)
        }
    }

    /// The error a read-only target gives a change, which says why it refuses (a Core Data
    /// store, a file opened read-only, no write permission): asked by a change of nothing, to
    /// no object, which such a store refuses before looking the object up.
    private static func refusal(of target: any PersistentStore) -> StoreError {
        do {
            try target.performChanges { try target.update(ObjectID(""), attributes: [:], relationships: [:]) }
        } catch let error as StoreError where error.code == .readOnly {
            return error
        } catch {}
        return StoreError(.readOnly, "the target store refuses every change (it is read-only): the objects cannot be copied into it")
    }

    private func copy(model: DataModel, keep: Bool, interruption: FetchInterruption?, progress report: (Progress) -> Void) throws -> Summary {
        let roots = Self.rootsInOrder(model)
        var progress = Progress(inserted: 0, linked: 0, total: 0)
        for root in roots { progress.total += try source.count(FetchRequest(entityName: root.name)) }
        report(progress)
        var counts: [String: Int] = [:]
        var relationshipsSet = 0
        // The target's IDs of the source's objects, when they are not the same.
        var mapped: [ObjectID: ObjectID] = [:]
        func targetID(_ id: ObjectID) -> ObjectID? { keep ? id : mapped[id] }
        try target.performChanges {
            for root in roots {
                var request = FetchRequest(entityName: root.name)
                request.fetchBatchSize = batchSize
                // A database Sift did not create may want a row's to-ones with the row (a NOT
                // NULL foreign key): those whose destinations are in already go with it.
                let toOnes = keep ? [] : root.relationships.filter { !$0.isToMany }.map(\.name)
                request.relationshipKeyPathsForPrefetching = toOnes
                try source.fetch(request).forEachObject { object in
                    try interruption?.check()
                    var attributes: [String: Value] = [:]
                    for (name, value) in object.attributeValues.pairs { attributes[name] = value }
                    var relationships: [String: [ObjectID]] = [:]
                    if !keep, let entity = model.entity(named: object.entityName) {
                        for relationship in entity.relationships where !relationship.isToMany {
                            if let destination = object.destinationIDs(of: relationship.name).first, let id = mapped[destination] {
                                relationships[relationship.name] = [id]
                            }
                        }
                    }
                    let id = try target.insert(entity: object.entityName, id: keep ? object.objectID : nil, attributes: attributes, relationships: relationships)
                    if !keep { mapped[object.objectID] = id }
                    counts[object.entityName, default: 0] += 1
                    progress.inserted += 1
                    report(progress)
                }
            }
            // Relationships once every object is in.
            let owned = Self.relationshipsToSet(model)
            for root in roots {
                var request = FetchRequest(entityName: root.name)
                request.fetchBatchSize = batchSize
                request.relationshipKeyPathsForPrefetching = root.relationships.map(\.name).filter { owned[root.name]?.contains($0) == true }
                try source.fetch(request).forEachObject { object in
                    try interruption?.check()
                    var relationships: [String: [ObjectID]] = [:]
                    for name in owned[object.entityName] ?? [] {
                        let ids = object.destinationIDs(of: name)
                        guard !ids.isEmpty else { continue }
                        relationships[name] = try ids.map { (id) throws(StoreError) in
                            guard let mapped = targetID(id) else {
                                throw StoreError(.unknownObject, "\(object.entityName) '\(object.objectID)': \(name) leads to '\(id)', which the source's fetches did not return",
                                                 entity: object.entityName, objectID: object.objectID, key: name)
                            }
                            return mapped
                        }
                    }
                    if !relationships.isEmpty {
                        guard let id = targetID(object.objectID) else { return }
                        try target.update(id, attributes: [:], relationships: relationships)
                        relationshipsSet += relationships.count
                    }
                    progress.linked += 1
                    report(progress)
                }
            }
        }
        try target.save()
        let ordered = model.entities.compactMap { entity in counts[entity.name].map { (entity: entity.name, count: $0) } }
        return Summary(counts: ordered, relationships: relationshipsSet, keptObjectIDs: keep)
    }

    /// The roots of the model's inheritance hierarchies, those the to-ones of others lead to
    /// first where the to-ones allow (a cycle keeps the model's order).
    static func rootsInOrder(_ model: DataModel) -> [EntityDescription] {
        let roots = model.entities.filter { $0.parent == nil }
        func root(of name: String) -> String { model.entity(named: name)?.rootEntity ?? name }
        var placed: Set<String> = []
        var visiting: Set<String> = []
        var order: [EntityDescription] = []
        func place(_ entity: EntityDescription) {
            guard !placed.contains(entity.name), !visiting.contains(entity.name) else { return }
            visiting.insert(entity.name)
            for member in entity.entityAndSubentities {
                for relationship in model.entity(named: member)?.relationships ?? [] where !relationship.isToMany {
                    if let destination = model.entity(named: root(of: relationship.destination)) { place(destination) }
                }
            }
            visiting.remove(entity.name)
            placed.insert(entity.name)
            order.append(entity)
        }
        roots.forEach(place)
        return order
    }

    /// For each entity, the relationships the copy sets on its objects: each relationship with
    /// an inverse from one side (the ordered one, else the to-one, else the one whose name and
    /// destination come first), a relationship without one (or its own inverse) from its side.
    static func relationshipsToSet(_ model: DataModel) -> [String: [String]] {
        var owned: [String: [String]] = [:]
        for entity in model.entities {
            owned[entity.name] = entity.relationships.filter { relationship in
                guard let inverseName = relationship.inverse,
                      let inverse = model.entity(named: relationship.destination)?.relationship(named: inverseName),
                      inverse.inverse == relationship.name, model.isKind(entity.name, of: inverse.destination) else { return true }
                if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
                if relationship.isToMany != inverse.isToMany { return !relationship.isToMany }
                if relationship.name != inverse.name { return relationship.name < inverse.name }
                return relationship.destination <= inverse.destination
            }.map(\.name)
        }
        return owned
    }
}

extension PersistentStore {
    /// Inserts every object of this store — of `entities` only, when given (their
    /// relationships to other entities left out) — into `target` (empty, of the same model)
    /// with its ID, attributes and relationships, and saves: what `.engine both` and the
    /// differential tests compare two engines on.
    ///
    /// Each inheritance hierarchy is copied in this store's order, so every fetch (always of
    /// one hierarchy) sees the objects in the same insertion order, and unordered to-many
    /// relationships list their destinations alike. Destinations are read a batch of objects
    /// at a time (prefetched), not one query per object.
    ///
    /// This store's `interrupt()` stops the copy between objects (``StoreError/interrupted``),
    /// and `target` keeps nothing of it.
    public func copyObjects(into target: any PersistentStore, entities: Set<String>? = nil) throws {
        let model = model
        let interruption = (self as? any InterruptibleStore)?.interruption
        try interruption.whileRunning {
            try copyObjects(into: target, entities: entities, model: model, interruption: interruption)
        }
    }

    private func copyObjects(into target: any PersistentStore, entities: Set<String>?, model: DataModel,
                             interruption: FetchInterruption?) throws {
        try target.performChanges {
            var copied: [ManagedObject] = []
            for root in model.entities where root.parent == nil && entities?.contains(root.name) != false {
                var request = FetchRequest(entityName: root.name)
                request.relationshipKeyPathsForPrefetching = root.relationships.map(\.name)
                request.fetchBatchSize = 500
                for object in try fetch(request) {
                    try interruption?.check()
                    var attributes: [String: Value] = [:]
                    for (name, value) in object.attributeValues.pairs { attributes[name] = value }
                    try target.insert(entity: object.entityName, id: object.objectID, attributes: attributes, relationships: [:])
                    copied.append(object)
                }
            }
            // Relationships once every object is in: each object sets its own, in its order
            // (setting one side sets the inverse, which its own turn then finds unchanged).
            for object in copied {
                try interruption?.check()
                var relationships: [String: [ObjectID]] = [:]
                for relationship in object.relationshipIDs where !relationship.ids.isEmpty {
                    if let entities, let destination = model.entity(named: object.entityName)?.relationship(named: relationship.name)?.destination,
                       !entities.contains(destination) { continue }
                    relationships[relationship.name] = relationship.ids
                }
                if !relationships.isEmpty { try target.update(object.objectID, attributes: [:], relationships: relationships) }
            }
        }
        try target.save()
    }
}
