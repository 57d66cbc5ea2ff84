import Foundation
import SiftEvaluation

/// Reads Xcode's old binary model, a `.xcdatamodel` folder's `elements` file (Xcode 3 and
/// earlier, before the `contents` XML), into a ``CoreDataModel``.
///
/// `elements` is a keyed archive (``KeyedArchive``) of Xcode's design classes, not of Core
/// Data's: the root `XDPMModel` holds a package (`_xd_rootPackage`, an `XDModelPackage`) whose
/// `XDBucketForClassesstorage` maps each entity's name to an `XDPMEntity`. An entity has its
/// `_name`, `_isAbstract`, its parent in `XDBucketForGeneralizationsstorage`, and its properties
/// in `XDBucketForOwnedAttributesstorage` (name → `XDPMAttribute` or `XDPMRelationship`; other
/// kinds, such as fetched properties, are skipped). What Core Data needs of each sits in
/// "stereotypes" (`XDBucketForStereotypesstorage`, name → an `XDUMLStereotypeImp` whose owned
/// attributes each hold a value in `_default`):
///
/// | stereotype | keys read |
/// |---|---|
/// | `XD_PStereotype` (entity) | `XD_PSK_isAbstract`, `XD_PSK_entityClassName`, `XD_PSK_versionHashModifier`, `XD_PSK_renamingIdentifier` |
/// | `XD_PPropStereotype` (property) | `XD_PPSK_isTransient`, `XD_PPSK_isOptional`, `XD_PPSK_isIndexed` (attributes) |
/// | `XD_PAtt_Stereotype` | `XD_PAttK_attributeType` (Core Data's `NSAttributeType` code), `XD_PAttK_defaultValueAsString` |
/// | `XD_PR_Stereotype` | `XD_PRK_destination` (an `XDPMEntity`), `XD_PRK_inverseRelationship` (an `XDPMRelationship`), `XD_PRK_isToMany`, `XD_PRK_minCount`, `XD_PRK_maxCount`, `XD_PRK_deleteRule`, `XD_PRK_isOrdered` |
///
/// A relationship is to-many when `XD_PRK_isToMany` says so (Xcode writes no counts then), else
/// when it has a `XD_PRK_maxCount` other than 1. The parent is the one `XDPMEntity`, other than
/// the entity itself, that its generalization refers to (the Recipes fixture has no
/// inheritance, so this reading is not checked against a real file). Transient properties are
/// left out of the model, as from a model cache. A part of the wrong class or a missing
/// stereotype is an error naming the entity and property.
enum XcodeElementsDecoder {
    static func decode(_ archive: KeyedArchive, name: String = "Model") throws(CoreDataModelError) -> CoreDataModel {
        let root = archive.root
        let rootClass = try archive.className(of: root)
        guard rootClass == "XDPMModel" || rootClass == "XDModel" else {
            throw CoreDataModelError("the archive holds a \(rootClass ?? "plain value"), not Xcode's model (XDPMModel)")
        }
        guard let package = try archive.reference(try archive.fields(of: root)["_xd_rootPackage"]) else {
            throw CoreDataModelError("the model has no package (_xd_rootPackage)")
        }
        guard let classes = try archive.reference(try archive.fields(of: package)["XDBucketForClassesstorage"]) else {
            throw CoreDataModelError("the model's package has no entities (XDBucketForClassesstorage)")
        }
        var names: [Int: String] = [:]
        var order: [Int] = []
        for (_, entity) in try archive.entries(of: classes) {
            guard try archive.className(of: entity) == "XDPMEntity" else {
                throw CoreDataModelError("the model's entity list holds a \(try archive.className(of: entity) ?? "plain value"), not an XDPMEntity")
            }
            guard names[entity] == nil else { throw CoreDataModelError("the model lists one entity twice") }
            guard order.count < CoreDataModelDecoder.maximumEntities else {
                throw CoreDataModelError("the model has more than \(CoreDataModelDecoder.maximumEntities) entities")
            }
            guard let nameUID = try archive.reference(try archive.fields(of: entity)["_name"]) else {
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
        try CoreDataModelDecoder.checkPropertySlots(entities, ancestors: try CoreDataModelDecoder.ancestors(of: entities))
        let model: DataModel
        do throws(ModelError) {
            model = try DataModel(name: name, entities: entities.sorted { $0.name < $1.name })
        } catch {
            throw CoreDataModelError("the model does not hold together: \(error.message)")
        }
        return CoreDataModel(model: model, entities: details, versionIdentifiers: [])
    }

    /// Each stereotype of object `uid`, by name, to its keys' value UIDs (nil for `$null`).
    private static func stereotypes(of uid: Int, _ archive: KeyedArchive, _ label: String) throws(CoreDataModelError) -> [String: [String: Int?]] {
        guard let storage = try archive.reference(try archive.fields(of: uid)["XDBucketForStereotypesstorage"]) else { return [:] }
        var result: [String: [String: Int?]] = [:]
        for (key, stereotype) in try archive.entries(of: storage) {
            let stereotypeName = try archive.string(key)
            guard try archive.className(of: stereotype) == "XDUMLStereotypeImp" else {
                throw CoreDataModelError("\(label): its stereotype \(stereotypeName) is a \(try archive.className(of: stereotype) ?? "plain value"), not an XDUMLStereotypeImp")
            }
            var values: [String: Int?] = [:]
            if let owned = try archive.reference(try archive.fields(of: stereotype)["XDBucketForOwnedAttributesstorage"]) {
                for (valueKey, property) in try archive.entries(of: owned) {
                    guard try archive.className(of: property) == "XDUMLPropertyImp" else {
                        throw CoreDataModelError("\(label): stereotype \(stereotypeName) holds a \(try archive.className(of: property) ?? "plain value"), not an XDUMLPropertyImp")
                    }
                    values[try archive.string(valueKey)] = .some(try archive.reference(try archive.fields(of: property)["_default"]))
                }
            }
            result[stereotypeName] = values
        }
        return result
    }

    private static func flag(_ uid: Int??, _ archive: KeyedArchive, _ label: String) throws(CoreDataModelError) -> Bool? {
        guard let uid, let uid else { return nil }
        switch try archive.object(uid) {
        case .bool(let b): return b
        case .integer(let i): return i != 0
        default: throw CoreDataModelError("\(label) is not YES or NO")
        }
    }

    private static func integer(_ uid: Int??, _ archive: KeyedArchive, _ label: String) throws(CoreDataModelError) -> Int? {
        guard let uid, let uid else { return nil }
        guard case .integer(let i) = try archive.object(uid), i >= 0, i <= Int64(Int32.max) else {
            throw CoreDataModelError("\(label) is not a small non-negative integer")
        }
        return Int(i)
    }

    private static func text(_ uid: Int??, _ archive: KeyedArchive) throws(CoreDataModelError) -> String? {
        guard let uid, let uid else { return nil }
        return try archive.string(uid)
    }

    private static func decodeEntity(_ uid: Int, archive: KeyedArchive, names: [Int: String]) throws(CoreDataModelError) -> (EntityDescription, CoreDataEntityDetails) {
        let fields = try archive.fields(of: uid)
        let name = names[uid]!
        let label = "entity \(name)"
        var parent: String?
        if let generalizations = try archive.reference(fields["XDBucketForGeneralizationsstorage"]) {
            for generalization in try archive.elements(of: generalizations) {
                var candidates: Set<Int> = []
                if names[generalization] != nil {
                    candidates.insert(generalization)
                } else {
                    for field in try archive.fields(of: generalization).values {
                        if case .uid(let other) = field, names[other] != nil, other != uid { candidates.insert(other) }
                    }
                }
                guard candidates.count == 1, let found = candidates.first, parent == nil else {
                    throw CoreDataModelError("\(label): its parent (generalization) is not one entity of the model")
                }
                parent = names[found]
            }
        }
        let entityStereotype = try stereotypes(of: uid, archive, label)["XD_PStereotype"] ?? [:]
        let abstractFlag = try flag(entityStereotype["XD_PSK_isAbstract"], archive, "\(label): isAbstract") ?? false
        let isAbstract = bool(fields["_isAbstract"]) || abstractFlag
        var entity = EntityDescription(name: name, parent: parent, isAbstract: isAbstract)
        var detail = CoreDataEntityDetails(
            className: try text(entityStereotype["XD_PSK_entityClassName"], archive),
            renamingIdentifier: try text(entityStereotype["XD_PSK_renamingIdentifier"], archive),
            versionHashModifier: try text(entityStereotype["XD_PSK_versionHashModifier"], archive),
            transientProperties: [], attributeTypeCodes: [:], propertyVersionHashes: [:])
        if let properties = try archive.reference(fields["XDBucketForOwnedAttributesstorage"]) {
            for (_, property) in try archive.entries(of: properties) {
                let kind = try archive.className(of: property) ?? "plain value"
                guard kind == "XDPMAttribute" || kind == "XDPMRelationship" else { continue }  // fetched properties store nothing
                guard let nameUID = try archive.reference(try archive.fields(of: property)["_name"]) else {
                    throw CoreDataModelError("\(label): a property has no name")
                }
                let propertyName = try archive.string(nameUID)
                let place = "\(label), property \(propertyName)"
                let stereotypes = try stereotypes(of: property, archive, place)
                let common = stereotypes["XD_PPropStereotype"] ?? [:]
                if try flag(common["XD_PPSK_isTransient"], archive, "\(place): isTransient") ?? false {
                    detail.transientProperties.append(propertyName)
                    continue
                }
                let isOptional = try flag(common["XD_PPSK_isOptional"], archive, "\(place): isOptional") ?? true
                let propertyHash = CoreDataVersionHash.property(
                    name: propertyName, isOptional: isOptional, isReadOnly: false, modifier: try text(common["XD_PPSK_versionHashModifier"], archive))
                if kind == "XDPMAttribute" {
                    guard let attribute = stereotypes["XD_PAtt_Stereotype"] else { throw CoreDataModelError("\(place): the attribute has no XD_PAtt_Stereotype") }
                    let code = try integer(attribute["XD_PAttK_attributeType"], archive, "\(place): its type") ?? 0
                    guard let type = CoreDataModelDecoder.attributeTypes[code] else { throw CoreDataModelError("\(place): unknown attribute type \(code)") }
                    detail.attributeTypeCodes[propertyName] = code
                    var defaultValue: Value?
                    if let text = try text(attribute["XD_PAttK_defaultValueAsString"], archive) {
                        guard let raw = ContentsReader.defaultValue(text, type) else {
                            throw CoreDataModelError("\(place): its default value '\(text)' is not a valid \(type.name)\(ContentsReader.defaultHint(type))")
                        }
                        do throws(AttributeValueError) {
                            defaultValue = try AttributeCoercion.storedValue(raw, for: type)
                        } catch {
                            throw CoreDataModelError("\(place): its default value '\(text)': \(error.message)")
                        }
                    }
                    entity.ownAttributes.append(AttributeDescription(name: propertyName, type: type, isOptional: isOptional, defaultValue: defaultValue))
                    let external = try flag(attribute["XD_PAttK_allowsExternalBinaryDataStorage"], archive, "\(place): allowsExternalBinaryDataStorage") ?? false
                    if external { detail.attributeFlags[propertyName] = 4 }
                    detail.propertyVersionHashes?[propertyName] = CoreDataVersionHash.attribute(
                        property: propertyHash, typeCode: code, externalStorage: external, preservesValueInHistory: false)
                    if try flag(common["XD_PPSK_isIndexed"], archive, "\(place): isIndexed") ?? false { entity.indexes.append([propertyName]) }
                } else {
                    guard let relationship = stereotypes["XD_PR_Stereotype"] else { throw CoreDataModelError("\(place): the relationship has no XD_PR_Stereotype") }
                    guard let destinationUID = relationship["XD_PRK_destination"] ?? nil, let destination = names[destinationUID] else {
                        throw CoreDataModelError("\(place): its destination is not an entity of the model")
                    }
                    var inverse: String?
                    if let inverseUID = relationship["XD_PRK_inverseRelationship"] ?? nil {
                        guard try archive.className(of: inverseUID) == "XDPMRelationship",
                              let inverseName = try archive.reference(try archive.fields(of: inverseUID)["_name"]) else {
                            throw CoreDataModelError("\(place): its inverse is not a relationship")
                        }
                        inverse = try archive.string(inverseName)
                    }
                    let maxCount = try integer(relationship["XD_PRK_maxCount"], archive, "\(place): its maximum count")
                    let isToMany = try flag(relationship["XD_PRK_isToMany"], archive, "\(place): isToMany") ?? (maxCount.map { $0 != 1 } ?? false)
                    let rule = try integer(relationship["XD_PRK_deleteRule"], archive, "\(place): its delete rule") ?? 1
                    let deleteRules: [Int: DeleteRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]
                    guard let deleteRule = deleteRules[rule] else { throw CoreDataModelError("\(place): unknown delete rule \(rule)") }
                    // On a to-one the counts (Xcode writes 1 and 1) say nothing the to-one does not;
                    // the version hash takes them as written.
                    let writtenMinCount = try integer(relationship["XD_PRK_minCount"], archive, "\(place): its minimum count") ?? 0
                    let minCount = isToMany ? writtenMinCount : 0
                    let isOrdered = try flag(relationship["XD_PRK_isOrdered"], archive, "\(place): isOrdered") ?? false
                    let ownInverse = relationship["XD_PRK_inverseRelationship"] == .some(.some(property))
                    detail.propertyVersionHashes?[propertyName] = CoreDataVersionHash.relationship(
                        property: propertyHash, destination: destination, inverse: ownInverse ? nil : inverse,
                        maxCount: maxCount ?? 0, minCount: writtenMinCount, isOrdered: isOrdered)
                    entity.ownRelationships.append(RelationshipDescription(
                        name: propertyName, destination: destination, isToMany: isToMany, inverse: inverse, deleteRule: deleteRule,
                        isOrdered: isOrdered,
                        isOptional: isOptional, minCount: minCount, maxCount: isToMany ? maxCount ?? 0 : 0))
                }
            }
        }
        entity.ownAttributes.sort { $0.name < $1.name }
        entity.ownRelationships.sort { $0.name < $1.name }
        entity.indexes.sort { $0.lexicographicallyPrecedes($1) }
        detail.transientProperties.sort()
        return (entity, detail)
    }

    private static func bool(_ field: PropertyListObjectTable.Object?) -> Bool {
        switch field {
        case .bool(let b)?: b
        case .integer(let i)?: i != 0
        default: false
        }
    }
}
