import Foundation
import SiftEvaluation

/// Reads Core Data's `NSManagedObjectModel` from its keyed archive (``KeyedArchive``) into a
/// ``CoreDataModel``.
///
/// Entities, their parents and abstractness; attributes (type from `NSAttributeType`,
/// optionality, a plain default value); relationships (destination, inverse, to-many when the
/// maximum count is not 1, ordered, counts, delete rule); fetch indexes and uniqueness
/// constraints. Inherited properties (`_NSPropertyDescriptionProxy`) belong to the parent;
/// transient properties are left out of the model. A part of the wrong class, a dangling
/// reference or an unknown type code is an error naming the entity and property.
enum CoreDataModelDecoder {
    /// Core Data's `NSAttributeType` codes, each to Sift's type.
    static let attributeTypes: [Int: AttributeType] = [
        0: .undefined, 100: .integer16, 200: .integer32, 300: .integer64, 400: .decimal, 500: .double, 600: .float,
        700: .string, 800: .boolean, 900: .date, 1000: .binary, 1100: .uuid, 1200: .uri, 1800: .transformable,
        2000: .undefined, 2100: .undefined,
    ]

    static func decode(_ archive: KeyedArchive, name: String = "Model") throws(CoreDataModelError) -> CoreDataModel {
        let root = archive.root
        guard try archive.className(of: root) == "NSManagedObjectModel" else {
            throw CoreDataModelError("the archive holds a \(try archive.className(of: root) ?? "plain value"), not an NSManagedObjectModel")
        }
        let fields = try archive.fields(of: root)
        guard let entitiesUID = try archive.reference(fields["NSEntities"]) else {
            throw CoreDataModelError("the model has no entities")
        }
        // Every entity's UID to its name first: parents, destinations and inverses refer by UID.
        var names: [Int: String] = [:]
        var order: [Int] = []
        for (_, entity) in try archive.entries(of: entitiesUID) {
            guard names[entity] == nil else { throw CoreDataModelError("the model lists one entity twice") }
            guard order.count < maximumEntities else { throw CoreDataModelError("the model has more than \(maximumEntities) entities") }
            guard try archive.className(of: entity) == "NSEntityDescription" else {
                throw CoreDataModelError("the model's entity list holds a \(try archive.className(of: entity) ?? "plain value"), not an NSEntityDescription")
            }
            guard let nameUID = try archive.reference(try archive.fields(of: entity)["NSEntityName"]) else {
                throw CoreDataModelError("an entity of the model has no name")
            }
            names[entity] = try archive.string(nameUID)
            order.append(entity)
        }
        var entities: [EntityDescription] = []
        var details: [String: CoreDataEntityDetails] = [:]
        for entity in order {
            let (description, detail) = try decodeEntity(entity, archive: archive, names: names)
            entities.append(description)
            details[description.name] = detail
        }
        // A sub-entity's archive may repeat its parent's properties: the parent declares them.
        let ancestors = try ancestors(of: entities)
        var declared: [String: Set<String>] = [:]
        for entity in entities {
            declared[entity.name, default: []].formUnion(entity.ownAttributes.map(\.name) + entity.ownRelationships.map(\.name))
        }
        for i in entities.indices {
            let chain = ancestors[entities[i].name] ?? []
            func inherited(_ name: String) -> Bool { chain.contains { declared[$0]?.contains(name) == true } }
            entities[i].ownAttributes.removeAll { inherited($0.name) }
            entities[i].ownRelationships.removeAll { inherited($0.name) }
        }
        try checkPropertySlots(entities, ancestors: ancestors)
        var versionIdentifiers: [String] = []
        if let identifiers = try archive.reference(fields["NSVersionIdentifiers"]) {
            versionIdentifiers = try archive.elements(of: identifiers).map { (uid: Int) throws(CoreDataModelError) -> String in try archive.string(uid) }.sorted()
        }
        let model: DataModel
        do throws(ModelError) {
            model = try DataModel(name: name, entities: entities.sorted { $0.name < $1.name })
        } catch {
            throw CoreDataModelError("the model does not hold together: \(error.message)")
        }
        return CoreDataModel(model: model, entities: details, versionIdentifiers: versionIdentifiers)
    }

    /// The most entities a decoded model may have (real models have tens).
    static let maximumEntities = 10_000
    /// How deep inheritance may nest (real models: two or three levels).
    static let maximumInheritanceDepth = 64
    /// The most properties the model's entities may hold, inherited ones counted in every entity
    /// that inherits them: what ``DataModel`` builds, bounded before it is built.
    static let maximumPropertySlots = 1_000_000

    /// Each entity's ancestors, parent first: an error for a parent that is itself or a loop, or
    /// inheritance deeper than ``maximumInheritanceDepth``. (A parent missing from the model is
    /// left for ``DataModel`` to name.)
    static func ancestors(of entities: [EntityDescription]) throws(CoreDataModelError) -> [String: [String]] {
        let parents = Dictionary(entities.map { ($0.name, $0.parent) }, uniquingKeysWith: { first, _ in first })
        var result: [String: [String]] = [:]
        for entity in entities {
            var chain: [String] = []
            var current = entity.parent
            while let name = current {
                guard name != entity.name, !chain.contains(name) else {
                    throw CoreDataModelError("entity \(entity.name): its inheritance loops through '\(name)'")
                }
                guard chain.count < maximumInheritanceDepth else {
                    throw CoreDataModelError("entity \(entity.name): inheritance nests more than \(maximumInheritanceDepth) deep")
                }
                chain.append(name)
                current = parents[name] ?? nil
            }
            result[entity.name] = chain
        }
        return result
    }

    /// An error when the entities, with what each inherits, hold more than ``maximumPropertySlots`` properties.
    static func checkPropertySlots(_ entities: [EntityDescription], ancestors: [String: [String]]) throws(CoreDataModelError) {
        var own: [String: Int] = [:]
        for entity in entities { own[entity.name, default: 0] += entity.ownAttributes.count + entity.ownRelationships.count }
        var total = 0
        for entity in entities {
            total += own[entity.name] ?? 0
            for ancestor in ancestors[entity.name] ?? [] { total += own[ancestor] ?? 0 }
            guard total <= maximumPropertySlots else {
                throw CoreDataModelError("the model's entities hold more than \(maximumPropertySlots) properties, inherited ones included")
            }
        }
    }

    private static func optionalString(_ field: PropertyListObjectTable.Object?, _ archive: KeyedArchive) throws(CoreDataModelError) -> String? {
        guard let uid = try archive.reference(field) else { return nil }
        return try archive.string(uid)
    }

    private static func bool(_ field: PropertyListObjectTable.Object?) -> Bool {
        switch field {
        case .bool(let b)?: b
        case .integer(let i)?: i != 0
        default: false
        }
    }

    private static func integer(_ field: PropertyListObjectTable.Object?, _ label: String) throws(CoreDataModelError) -> Int {
        switch field {
        case nil: return 0
        case .integer(let i)? where i >= Int64(Int32.min) && i <= Int64(Int32.max): return Int(i)
        default: throw CoreDataModelError("\(label) is not a small integer")
        }
    }

    private static func decodeEntity(_ uid: Int, archive: KeyedArchive, names: [Int: String]) throws(CoreDataModelError) -> (EntityDescription, CoreDataEntityDetails) {
        let fields = try archive.fields(of: uid)
        let name = names[uid]!
        var parent: String?
        if let parentUID = try archive.reference(fields["NSSuperentity"]) {
            guard let parentName = names[parentUID] else { throw CoreDataModelError("entity \(name): its parent is not an entity of the model") }
            parent = parentName
        }
        var entity = EntityDescription(name: name, parent: parent, isAbstract: bool(fields["NSIsAbstract"]))
        var detail = CoreDataEntityDetails(
            className: try optionalString(fields["NSClassNameForEntity"], archive),
            renamingIdentifier: try optionalString(fields["NSRenamingIdentifier"], archive),
            versionHashModifier: try optionalString(fields["NSVersionHashModifier"], archive),
            transientProperties: [], attributeTypeCodes: [:], propertyVersionHashes: [:])
        if let properties = try archive.reference(fields["NSProperties"]) {
            for (_, property) in try archive.entries(of: properties) {
                let kind = try archive.className(of: property) ?? "plain value"
                if kind == "_NSPropertyDescriptionProxy" { continue }  // inherited: the parent declares it
                let propertyFields = try archive.fields(of: property)
                if let owner = try archive.reference(propertyFields["NSEntity"]), owner != uid { continue }
                guard let nameUID = try archive.reference(propertyFields["NSPropertyName"]) else {
                    throw CoreDataModelError("entity \(name): a property has no name")
                }
                let propertyName = try archive.string(nameUID)
                let label = "entity \(name), property \(propertyName)"
                if bool(propertyFields["NSIsTransient"]) {
                    detail.transientProperties.append(propertyName)
                    continue
                }
                let isOptional = bool(propertyFields["NSIsOptional"])
                // The flags word `_P` (2 optional, 4 read-only), or the older separate keys.
                var isReadOnly = bool(propertyFields["NSIsReadOnly"])
                var hashOptional = isOptional
                if case .integer(let flags)? = propertyFields["_P"], flags != 0 {
                    hashOptional = flags & 2 != 0
                    isReadOnly = flags & 4 != 0
                }
                let propertyHash = CoreDataVersionHash.property(
                    name: propertyName, isOptional: hashOptional, isReadOnly: isReadOnly,
                    modifier: try optionalString(propertyFields["NSVersionHashModifier"], archive))
                switch kind {
                case "NSAttributeDescription":
                    let code = try integer(propertyFields["NSAttributeType"], "\(label): its type")
                    guard let type = attributeTypes[code] else { throw CoreDataModelError("\(label): unknown attribute type \(code)") }
                    detail.attributeTypeCodes[propertyName] = code
                    if code == 2100 { detail.propertyVersionHashes = nil }  // composite: its elements' hashes are not computed
                    var defaultValue: Value?
                    if let defaultUID = try archive.reference(propertyFields["NSDefaultValue"]) {
                        defaultValue = plainValue(try archive.resolve(defaultUID), type: type)
                    }
                    entity.ownAttributes.append(AttributeDescription(name: propertyName, type: type, isOptional: isOptional, defaultValue: defaultValue))
                    // NSFlagsKey: 4 external binary storage, 16 preserved in persistent history on deletion.
                    var attributeFlags: Int64 = 0
                    if case .integer(let flags)? = propertyFields["NSFlagsKey"] { attributeFlags = flags }
                    if attributeFlags != 0, let flags = Int(exactly: attributeFlags) { detail.attributeFlags[propertyName] = flags }
                    detail.propertyVersionHashes?[propertyName] = CoreDataVersionHash.attribute(
                        property: propertyHash, typeCode: code, externalStorage: attributeFlags & 4 != 0, preservesValueInHistory: attributeFlags & 16 != 0)
                case "NSRelationshipDescription":
                    guard let destinationUID = try archive.reference(propertyFields["NSDestinationEntity"]), let destination = names[destinationUID] else {
                        throw CoreDataModelError("\(label): its destination is not an entity of the model")
                    }
                    var inverse: String?
                    var isOwnInverse = false
                    if let inverseUID = try archive.reference(propertyFields["NSInverseRelationship"]) {
                        guard let inverseName = try archive.reference(try archive.fields(of: inverseUID)["NSPropertyName"]) else {
                            throw CoreDataModelError("\(label): its inverse has no name")
                        }
                        inverse = try archive.string(inverseName)
                        isOwnInverse = inverseUID == property
                    }
                    let minCount = try integer(propertyFields["NSMinCount"], "\(label): its minimum count")
                    let maxCount = try integer(propertyFields["NSMaxCount"], "\(label): its maximum count")
                    let rule = try integer(propertyFields["NSDeleteRule"], "\(label): its delete rule")
                    let deleteRules: [Int: DeleteRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]
                    guard let deleteRule = deleteRules[rule] else { throw CoreDataModelError("\(label): unknown delete rule \(rule)") }
                    detail.propertyVersionHashes?[propertyName] = CoreDataVersionHash.relationship(
                        property: propertyHash, destination: destination, inverse: isOwnInverse ? nil : inverse,
                        maxCount: maxCount, minCount: minCount, isOrdered: bool(propertyFields["NSIsOrdered"]))
                    entity.ownRelationships.append(RelationshipDescription(
                        name: propertyName, destination: destination, isToMany: maxCount != 1, inverse: inverse, deleteRule: deleteRule,
                        isOrdered: bool(propertyFields["NSIsOrdered"]), isOptional: isOptional, minCount: minCount, maxCount: maxCount))
                default:
                    // Fetched properties and other kinds hold no stored data. Derived and composite
                    // attributes would add to the entity's version hash what Sift does not compute.
                    if kind.hasSuffix("AttributeDescription") { detail.propertyVersionHashes = nil }
                    continue
                }
            }
        }
        entity.ownAttributes.sort { $0.name < $1.name }
        entity.ownRelationships.sort { $0.name < $1.name }
        detail.transientProperties.sort()
        if let indexes = try archive.reference(fields["NSFetchIndexDescriptions"]) {
            for index in try archive.elements(of: indexes) {
                guard let elements = try archive.reference(try archive.fields(of: index)["NSIndexElements"]) else { continue }
                var columns: [String] = []
                for element in try archive.elements(of: elements) {
                    if let property = try archive.reference(try archive.fields(of: element)["NSPropertyName"]) {
                        columns.append(try archive.string(property))
                    }
                }
                // An index on a to-many relationship lies in its join table, not the entity's.
                let toMany = Set(entity.ownRelationships.filter(\.isToMany).map(\.name))
                if !columns.isEmpty, !columns.contains(where: toMany.contains) { entity.indexes.append(columns) }
            }
        }
        if let tuples = try archive.reference(fields["NSUniqueTuples"]) {
            for tuple in try archive.elements(of: tuples) {
                entity.uniquenessConstraints.append(try archive.elements(of: tuple).map { (uid: Int) throws(CoreDataModelError) -> String in try archive.string(uid) })
            }
        }
        return (entity, detail)
    }

    /// A default value as Sift holds it; nil for one Sift cannot hold (a transformable's object).
    private static func plainValue(_ resolved: KeyedArchive.Resolved, type: AttributeType) -> Value? {
        switch resolved {
        case .bool(let b): return type == .boolean ? .bool(b) : .int(b ? 1 : 0)
        case .integer(let i): return type == .boolean ? .bool(i != 0) : .int(i)
        case .real(let r): return .double(r)
        case .string(let s): return .string(s)
        case .date(let d): return .date(Date(timeIntervalSinceReferenceDate: d))
        case .data(let d): return .data(d)
        case .null, .array, .dictionary, .object: return nil
        }
    }
}
