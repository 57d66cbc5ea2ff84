import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Makes a random data set of the differential model from a seed: 0 to 40 objects (people,
/// tags, items and special items interleaved), nils, empty to-many relationships, few distinct
/// values per attribute (so sorts tie and sections share names), and the edge values of
/// ``DifferentialValues``.
struct DataSetGenerator {
    let model: DataModel
    var maximumObjects = 40

    /// Each attribute's palette for the data set being made, by `Entity.attribute`.
    private var palettes: [String: [Value]] = [:]

    init(model: DataModel) {
        self.model = model
    }

    mutating func make(seed: UInt64) -> DifferentialDataSet {
        var random = DifferentialRandom(seed: seed)
        palettes = [:]
        // Some data sets are empty or tiny: edge cases of limit, offset and aggregates.
        let total = random.weighted([(1, 0), (1, random.int(in: 1...4)), (10, random.int(in: 5...maximumObjects))], or: 0)
        // Usually a few people and tags (sometimes none, so relationships are empty); the rest
        // items.
        func few(_ limit: Int) -> Int {
            guard limit > 0 else { return 0 }
            return random.chance(1, in: 10) ? 0 : random.int(in: 1...min(6, limit))
        }
        let people = few(total / 4)
        let tags = few((total - people) / 4)
        let items = total - people - tags

        var objects: [DifferentialDataSet.Object] = []
        let personIDs = (0..<people).map { ObjectID("P\($0 + 1)") }
        let tagIDs = (0..<tags).map { ObjectID("T\($0 + 1)") }
        for id in personIDs { objects.append(object("Person", id: id, &random)) }
        for id in tagIDs { objects.append(object("Tag", id: id, &random)) }

        // Items and special items interleave: their insertion order is one order across the
        // hierarchy, which an Item fetch must keep.
        let specialShare = random.weighted([(1, 0), (6, random.int(in: 2...4)), (1, 10)], or: 3)  // in 10
        var itemIDs: [ObjectID] = []
        var itemEntities: [String] = []
        var itemCount = 0, specialCount = 0
        for _ in 0..<items {
            if random.below(10) < specialShare {
                specialCount += 1
                itemIDs.append(ObjectID("S\(specialCount)"))
                itemEntities.append("SpecialItem")
            } else {
                itemCount += 1
                itemIDs.append(ObjectID("I\(itemCount)"))
                itemEntities.append("Item")
            }
        }
        for (position, id) in itemIDs.enumerated() {
            var item = object(itemEntities[position], id: id, &random)
            if !personIDs.isEmpty, random.chance(7, in: 10), let owner = random.pick(personIDs) {
                item.relationships.append(("owner", [owner]))
            }
            if !tagIDs.isEmpty, random.chance(7, in: 10) {
                let count = random.int(in: 1...min(3, tagIDs.count))
                var chosen: [ObjectID] = []
                while chosen.count < count {
                    if let tag = random.pick(tagIDs), !chosen.contains(tag) { chosen.append(tag) }
                }
                item.relationships.append(("tags", chosen))
            }
            // A parent anywhere among the items (before or after this one), never itself.
            if itemIDs.count > 1, random.chance(2, in: 5) {
                var parent = id
                while parent == id { parent = random.pick(itemIDs, or: id) }
                item.relationships.append(("parent", [parent]))
            }
            objects.append(item)
        }
        return DifferentialDataSet(objects: objects)
    }

    /// An object with random attribute values: an optional attribute is nil one time in five
    /// (written as an explicit `null`, or left out to take its nil default); a required one
    /// with a default is sometimes left out to take it.
    private mutating func object(_ entity: String, id: ObjectID, _ random: inout DifferentialRandom) -> DifferentialDataSet.Object {
        var attributes: [(name: String, value: Value)] = []
        let hasDefault: Set<String> = ["title", "small", "ratio"]
        for attribute in DifferentialModel.attributes(of: entity, in: model) {
            if attribute.isOptional {
                if random.chance(1, in: 5) {
                    if random.chance(1, in: 2) { attributes.append((attribute.name, .null)) }
                    continue
                }
            } else if hasDefault.contains(attribute.name), random.chance(1, in: 8) {
                continue
            }
            attributes.append((attribute.name, value(for: attribute, entity: entity, &random)))
        }
        return DifferentialDataSet.Object(entity: entity, id: id, attributes: attributes, relationships: [])
    }

    /// A value from the attribute's palette (nine times in ten) or its whole pool.
    private mutating func value(for attribute: DifferentialModel.Attribute, entity: String, _ random: inout DifferentialRandom) -> Value {
        // Inherited attributes share the palette of the entity that declares them.
        let owner = entity == "SpecialItem" && attribute.name != "extra" && attribute.name != "level" ? "Item" : entity
        let key = owner + "." + attribute.name
        if palettes[key] == nil { palettes[key] = DifferentialValues.palette(for: attribute.modelType, &random) }
        let palette = palettes[key] ?? []
        if random.chance(9, in: 10), let value = random.pick(palette) { return value }
        return random.pick(DifferentialValues.pool(for: attribute.modelType), or: .null)
    }
}
