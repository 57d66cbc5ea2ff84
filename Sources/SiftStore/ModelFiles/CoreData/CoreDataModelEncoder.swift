import Foundation
import SiftEvaluation

/// Writes a ``CoreDataModel`` as Core Data keeps it in a store's `Z_MODELCACHE`: an
/// `NSKeyedArchiver` archive (a binary property list: `$archiver`, `$version`, `$top.root`,
/// `$objects` with `$class` references) of an `NSManagedObjectModel`, with the classes and keys
/// ``CoreDataModelDecoder`` reads — `NSEntityDescription` (`NSEntityName`, `NSSuperentity`,
/// `NSIsAbstract`, `NSClassNameForEntity`, `NSRenamingIdentifier`, `NSVersionHashModifier`,
/// `NSProperties`, `NSFetchIndexDescriptions`, `NSUniqueTuples`), `NSAttributeDescription`
/// (`NSAttributeType`, `NSIsOptional`, `NSDefaultValue`, `NSFlagsKey`) and
/// `NSRelationshipDescription` (`NSDestinationEntity`, `NSInverseRelationship`, `NSMinCount`,
/// `NSMaxCount`, `NSDeleteRule`, `NSIsOrdered`). ``cache(_:)`` raw-deflates it.
enum CoreDataModelEncoder {
    /// The model as Core Data's model cache holds it: the archive, raw-deflated.
    static func cache(_ model: CoreDataModel) throws(CoreDataModelError) -> Data {
        try RawDeflate.deflate(archive(model))
    }

    /// The keyed archive of `model`'s `NSManagedObjectModel`.
    static func archive(_ model: CoreDataModel) -> Data {
        var writer = KeyedArchiveWriter()
        let entities = model.model.entities
        // Every entity and property gets its UID first: parents, destinations and inverses refer by UID.
        var entityUIDs: [String: Int] = [:]
        var propertyUIDs: [String: [String: Int]] = [:]
        for entity in entities {
            entityUIDs[entity.name] = writer.reserve()
            for name in entity.ownAttributes.map(\.name) + entity.ownRelationships.map(\.name) {
                propertyUIDs[entity.name, default: [:]][name] = writer.reserve()
            }
        }
        func declaring(_ property: String, from entity: String) -> String {
            var current: String? = entity
            var steps = 0
            while let name = current, steps <= entities.count {
                if propertyUIDs[name]?[property] != nil { return name }
                current = model.model.entity(named: name)?.parent
                steps += 1
            }
            return entity
        }
        for entity in entities {
            let own = entityUIDs[entity.name]!
            let details = model.entities[entity.name]
            var properties: [(String, Int)] = []
            for attribute in entity.ownAttributes {
                let uid = propertyUIDs[entity.name]![attribute.name]!
                var fields: [String: KeyedArchiveWriter.Value] = [
                    "NSPropertyName": writer.string(attribute.name),
                    "NSEntity": .uid(own),
                    "NSIsOptional": .bool(attribute.isOptional),
                    "NSIsTransient": .bool(false),
                    "NSAttributeType": .integer(Int64(details?.attributeTypeCodes[attribute.name] ?? CoreDataModel.typeCode(of: attribute.type))),
                    "NSFlagsKey": .integer(Int64(details?.attributeFlags[attribute.name] ?? 0)),
                ]
                if let value = attribute.defaultValue, let archived = writer.plain(value) { fields["NSDefaultValue"] = archived }
                writer.define(uid, className: "NSAttributeDescription", superclasses: ["NSPropertyDescription"], fields: fields)
                properties.append((attribute.name, uid))
            }
            for relationship in entity.ownRelationships {
                let uid = propertyUIDs[entity.name]![relationship.name]!
                var fields: [String: KeyedArchiveWriter.Value] = [
                    "NSPropertyName": writer.string(relationship.name),
                    "NSEntity": .uid(own),
                    "NSIsOptional": .bool(relationship.isOptional),
                    "NSIsTransient": .bool(false),
                    "NSMinCount": .integer(Int64(relationship.minCount)),
                    // (A to-one's maximum is 1; a to-many's 0, no maximum, unless it has one other than 1.)
                    "NSMaxCount": .integer(Int64(relationship.isToMany ? (relationship.maxCount == 1 ? 0 : relationship.maxCount) : 1)),
                    "NSDeleteRule": .integer(deleteRuleCode(relationship.deleteRule)),
                    "NSIsOrdered": .bool(relationship.isOrdered),
                ]
                if let destination = entityUIDs[relationship.destination] { fields["NSDestinationEntity"] = .uid(destination) }
                if let inverse = relationship.inverse {
                    let owner = declaring(inverse, from: relationship.destination)
                    if let inverseUID = propertyUIDs[owner]?[inverse] { fields["NSInverseRelationship"] = .uid(inverseUID) }
                }
                writer.define(uid, className: "NSRelationshipDescription", superclasses: ["NSPropertyDescription"], fields: fields)
                properties.append((relationship.name, uid))
            }
            var fields: [String: KeyedArchiveWriter.Value] = [
                "NSEntityName": writer.string(entity.name),
                "NSIsAbstract": .bool(entity.isAbstract),
                "NSProperties": writer.dictionary(properties.sorted { $0.0 < $1.0 }.map { (writer.string($0.0), Value.uid($0.1)) }),
            ]
            if let parent = entity.parent, let parentUID = entityUIDs[parent] { fields["NSSuperentity"] = .uid(parentUID) }
            if let className = details?.className { fields["NSClassNameForEntity"] = writer.string(className) }
            if let renaming = details?.renamingIdentifier { fields["NSRenamingIdentifier"] = writer.string(renaming) }
            if let modifier = details?.versionHashModifier { fields["NSVersionHashModifier"] = writer.string(modifier) }
            if !entity.indexes.isEmpty {
                let indexes = entity.indexes.map { columns -> Value in
                    let elements = columns.map { column in
                        writer.object("NSFetchIndexElementDescription", fields: ["NSPropertyName": writer.string(column)])
                    }
                    return writer.object("NSFetchIndexDescription", fields: ["NSIndexElements": writer.array(elements)])
                }
                fields["NSFetchIndexDescriptions"] = writer.array(indexes)
            }
            if !entity.uniquenessConstraints.isEmpty {
                fields["NSUniqueTuples"] = writer.array(entity.uniquenessConstraints.map { names in writer.array(names.map { writer.string($0) }) })
            }
            writer.define(own, className: "NSEntityDescription", superclasses: [], fields: fields)
        }
        let entityList = entities.map { (writer.string($0.name), Value.uid(entityUIDs[$0.name]!)) }
        var modelFields: [String: Value] = ["NSEntities": writer.dictionary(entityList)]
        if !model.versionIdentifiers.isEmpty {
            modelFields["NSVersionIdentifiers"] = writer.object("NSSet", superclasses: [], fields: ["NS.objects": .array(model.versionIdentifiers.map { writer.string($0) })])
        }
        let root = writer.object("NSManagedObjectModel", fields: modelFields)
        return writer.data(root: root)
    }

    private typealias Value = KeyedArchiveWriter.Value

    static func deleteRuleCode(_ rule: DeleteRule) -> Int64 {
        switch rule {
        case .noAction: 0
        case .nullify: 1
        case .cascade: 2
        case .deny: 3
        }
    }
}

/// Builds an `NSKeyedArchiver` archive: objects numbered as `$objects` holds them (0 is
/// `$null`), each archived object a dictionary with its `$class` reference, written as a
/// binary property list with real UIDs.
struct KeyedArchiveWriter {
    /// A value of the property list.
    indirect enum Value {
        case string(String)
        case integer(Int64)
        case real(Double)
        case bool(Bool)
        case data(Data)
        case uid(Int)
        case array([Value])
        case dictionary([(String, Value)])
    }

    private var objects: [Value?] = [.string("$null")]
    private var classes: [String: Int] = [:]

    /// A UID for an object defined later (``define(_:className:superclasses:fields:)``).
    mutating func reserve() -> Int {
        objects.append(nil)
        return objects.count - 1
    }

    /// Defines the object `uid` as an instance of `className`.
    mutating func define(_ uid: Int, className: String, superclasses: [String], fields: [String: Value]) {
        let classUID = classReference(className, superclasses: superclasses)
        var members: [(String, Value)] = [("$class", .uid(classUID))]
        members += fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        objects[uid] = .dictionary(members)
    }

    /// A new object of `className`, as a reference.
    mutating func object(_ className: String, superclasses: [String] = [], fields: [String: Value]) -> Value {
        let uid = reserve()
        define(uid, className: className, superclasses: superclasses, fields: fields)
        return .uid(uid)
    }

    /// A string object, as a reference.
    mutating func string(_ text: String) -> Value {
        objects.append(.string(text))
        return .uid(objects.count - 1)
    }

    /// An `NSArray` of `members` (references or plain values), as a reference.
    mutating func array(_ members: [Value]) -> Value {
        object("NSArray", fields: ["NS.objects": .array(members)])
    }

    /// An `NSDictionary` of `entries`, as a reference.
    mutating func dictionary(_ entries: [(Value, Value)]) -> Value {
        object("NSDictionary", fields: ["NS.keys": .array(entries.map(\.0)), "NS.objects": .array(entries.map(\.1))])
    }

    /// A plain value (an attribute's default) as an archived object; nil for one Core Data's
    /// defaults do not hold.
    mutating func plain(_ value: SiftEvaluation.Value) -> Value? {
        switch value {
        case .bool(let b): objects.append(.bool(b))
        case .int(let i): objects.append(.integer(i))
        case .double(let d): objects.append(.real(d))
        case .decimal(let d): objects.append(.real(NSDecimalNumber(decimal: d).doubleValue))
        case .string(let s): objects.append(.string(s))
        case .data(let d): objects.append(.data(d))
        case .date(let date): return object("NSDate", fields: ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
        default: return nil
        }
        return .uid(objects.count - 1)
    }

    private mutating func classReference(_ name: String, superclasses: [String]) -> Int {
        if let known = classes[name] { return known }
        objects.append(.dictionary([("$classname", .string(name)), ("$classes", .array(([name] + superclasses + ["NSObject"]).map(Value.string)))]))
        classes[name] = objects.count - 1
        return objects.count - 1
    }

    /// The archive: `$archiver`, `$version`, `$top` naming `root`, `$objects`.
    func data(root: Value) -> Data {
        let top: Value = .dictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$objects", .array(objects.map { $0 ?? .string("$null") })),
            ("$top", .dictionary([("root", root)])),
            ("$version", .integer(100_000)),
        ])
        var table: [[UInt8]] = []
        let topIndex = Self.add(top, &table)
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in table {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        for offset in offsets { bytes += Self.bigEndian(UInt64(offset), 8) }
        bytes += [0, 0, 0, 0, 0, 0, 8, 4] + Self.bigEndian(UInt64(table.count), 8) + Self.bigEndian(UInt64(topIndex), 8)
            + Self.bigEndian(UInt64(tableOffset), 8)
        return Data(bytes)
    }

    private static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(value >> UInt64(8 * (size - 1 - $0)) & 0xFF) }
    }

    private static func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F, 0x13] + bigEndian(UInt64(count), 8)
    }

    /// Appends `value` (and what it holds) to the object table; its index.
    private static func add(_ value: Value, _ table: inout [[UInt8]]) -> Int {
        let bytes: [UInt8]
        switch value {
        case .string(let string):
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                bytes = header(0x5, string.utf8.count) + Array(string.utf8)
            } else {
                let units = Array(string.utf16)
                bytes = header(0x6, units.count) + units.flatMap { bigEndian(UInt64($0), 2) }
            }
        case .bool(let b):
            bytes = [b ? 0x09 : 0x08]
        case .integer(let i):
            bytes = [0x13] + bigEndian(UInt64(bitPattern: i), 8)
        case .real(let r):
            bytes = [0x23] + bigEndian(r.bitPattern, 8)
        case .data(let data):
            bytes = header(0x4, data.count) + Array(data)
        case .uid(let uid):
            bytes = [0x83] + bigEndian(UInt64(uid), 4)
        case .array(let members):
            let indexes = members.map { add($0, &table) }
            bytes = header(0xA, indexes.count) + indexes.flatMap { bigEndian(UInt64($0), 4) }
        case .dictionary(let entries):
            let keys = entries.map { add(.string($0.0), &table) }
            let values = entries.map { add($0.1, &table) }
            bytes = header(0xD, entries.count) + (keys + values).flatMap { bigEndian(UInt64($0), 4) }
        }
        table.append(bytes)
        return table.count - 1
    }
}

extension CoreDataModel {
    /// The model as Core Data keeps it in a store's `Z_MODELCACHE`: a raw-deflated
    /// `NSKeyedArchiver` archive of its `NSManagedObjectModel` (what ``init(modelCache:name:limit:)`` reads).
    /// Throws when zlib fails to compress the archive.
    public func modelCache() throws(CoreDataModelError) -> Data {
        try CoreDataModelEncoder.cache(self)
    }
}
