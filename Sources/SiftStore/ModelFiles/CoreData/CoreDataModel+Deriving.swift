import Foundation

extension CoreDataModel {
    /// A model in Core Data's terms for a model read from a form that does not say everything
    /// Core Data keeps (an Xcode `contents` file, a `model.json`): each attribute's type code
    /// from its type, and each stored property's version hash computed from what Sift's model
    /// holds — its name, optionality, type or destination, inverse, counts and order — as though
    /// it had no version-hash modifier, were not read-only, and stored no binary data
    /// externally (`CoreDataVersionHash`) — unless `externalStorage` names it (`Entity.attribute`,
    /// an Xcode `contents` file's `allowsExternalBinaryDataStorage`): then its `NSFlagsKey` is 4
    /// and its hash says so. Where the model file says otherwise, the hashes differ from Core
    /// Data's: ``hashesAreExact`` is false for such a model.
    public init(deriving model: DataModel) {
        self.init(deriving: model, externalStorage: [])
    }

    /// ``init(deriving:)``, the attributes `externalStorage` names allowing external storage.
    public init(deriving model: DataModel, externalStorage: Set<String>) {
        var entities: [String: CoreDataEntityDetails] = [:]
        for entity in model.entities {
            var detail = CoreDataEntityDetails(className: nil, renamingIdentifier: nil, versionHashModifier: nil,
                                               transientProperties: [], attributeTypeCodes: [:], propertyVersionHashes: [:])
            for attribute in entity.ownAttributes {
                let code = Self.typeCode(of: attribute.type)
                detail.attributeTypeCodes[attribute.name] = code
                let external = externalStorage.contains(entity.name + "." + attribute.name)
                if external { detail.attributeFlags[attribute.name] = 4 }
                let property = CoreDataVersionHash.property(name: attribute.name, isOptional: attribute.isOptional, isReadOnly: false, modifier: nil)
                detail.propertyVersionHashes?[attribute.name] = CoreDataVersionHash.attribute(
                    property: property, typeCode: code, externalStorage: external, preservesValueInHistory: false)
            }
            for relationship in entity.ownRelationships {
                let property = CoreDataVersionHash.property(name: relationship.name, isOptional: relationship.isOptional, isReadOnly: false, modifier: nil)
                let isOwnInverse = relationship.inverse == relationship.name && relationship.destination == entity.name
                detail.propertyVersionHashes?[relationship.name] = CoreDataVersionHash.relationship(
                    property: property, destination: relationship.destination, inverse: isOwnInverse ? nil : relationship.inverse,
                    maxCount: relationship.isToMany ? relationship.maxCount : 1, minCount: relationship.minCount, isOrdered: relationship.isOrdered)
            }
            entities[entity.name] = detail
        }
        self.init(model: model, entities: entities, versionIdentifiers: [])
        hashesAreExact = false
    }

    /// Core Data's `NSAttributeType` code of a Sift attribute type (`undefined` is 0).
    static func typeCode(of type: AttributeType) -> Int {
        switch type {
        case .undefined: 0
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        }
    }
}
