import Foundation
import Sift

/// fuzz-coredata-model: any bytes as Core Data's model — a keyed archive (`bplist00…`) read as
/// a compiled model (`NSManagedObjectModel`) and as Xcode 3's `elements` (`XDPMModel`), any
/// other bytes as a store's `Z_MODELCACHE` (raw deflate, then the archive; inflating bounded at
/// 4 MiB so an input runs fast). Each read gives a model or a `CoreDataModelError`. A model read
/// must lay out (``CoreDataLayout``) so that every stored property maps to columns of the
/// layout's tables, the layout must check against the schema it describes with no difference at
/// all, every entity must have a 32-byte version hash unless it or an ancestor has a derived or
/// composite attribute, and the model must write as model JSON that reads back and writes the same.
public enum CoreDataModelHarness {
    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let bytes = Data(buffer: data)
        var models: [CoreDataModel] = []
        if bytes.starts(with: Array("bplist00".utf8)) {
            if let model = read({ () throws(CoreDataModelError) in try CoreDataModel(archive: bytes, name: "Fuzz") }) { models.append(model) }
            if let model = read({ () throws(CoreDataModelError) in try CoreDataModel(xcodeElements: bytes, name: "Fuzz") }) { models.append(model) }
        } else if let model = read({ () throws(CoreDataModelError) in try CoreDataModel(modelCache: bytes, name: "Fuzz", limit: 4 << 20) }) {
            models.append(model)
        }
        for model in models { check(model) }
    }

    private static func read(_ body: () throws(CoreDataModelError) -> CoreDataModel) -> CoreDataModel? {
        do {
            return try body()
        } catch {
            fuzzCheck(!error.message.isEmpty, "a CoreDataModelError without a message")
            return nil
        }
    }

    static func check(_ decoded: CoreDataModel) {
        let model = decoded.model
        let layout = CoreDataLayout(decoded)
        for entity in model.entities {
            fuzzCheck(layout.entity(named: entity.name) != nil, "entity \(entity.name) is not laid out")
            for property in entity.propertyNames {
                guard let mapping = layout.mapping(entity: entity.name, property: property) else {
                    fuzzFailure("\(entity.name).\(property) has no mapping")
                }
                let columns: [(String, String?)]
                switch mapping {
                case .attribute(let table, let column): columns = [(table, column)]
                case .toOne(let table, let column, let entityColumn, let order): columns = [(table, column), (table, entityColumn), (table, order)]
                case .toManyThroughInverse(let table, let column, let order): columns = [(table, column), (table, order)]
                case .joinTable(let table, let owner, let destination, let order): columns = [(table, owner), (table, destination), (table, order)]
                }
                for (table, column) in columns {
                    guard let column else { continue }
                    fuzzCheck(layout.table(named: table)?.column(named: column) != nil, "\(entity.name).\(property) maps to \(table).\(column), which the layout does not have")
                }
            }
        }
        // The layout checks against the schema it describes with no difference.
        let schema = CoreDataStoreSchema(
            tables: layout.tables.map { CoreDataStoreSchema.Table(name: $0.name, columns: $0.columns.map { .init(name: $0.name, declaredType: $0.declaredType) }) },
            primaryKeys: layout.entities.map { .init(number: $0.number, name: $0.name, superNumber: $0.superNumber) })
        let differences = layout.check(schema).differences
        fuzzCheck(differences.isEmpty, "the layout does not check against itself: \(differences.map(\.description).prefix(5))")

        // An entity has a 32-byte version hash exactly when it and its ancestors have their
        // properties' hashes (not when one has a derived or composite attribute), and computing
        // them again gives the same.
        let hashes = decoded.entityVersionHashes()
        for entity in model.entities {
            var known = true
            var current: String? = entity.name
            var steps = 0
            while let name = current, steps <= model.entities.count {
                if decoded.entities[name]?.propertyVersionHashes == nil { known = false }
                current = model.entity(named: name)?.parent
                steps += 1
            }
            fuzzCheck((hashes[entity.name] != nil) == known, "entity \(entity.name): a version hash \(known ? "missing" : "where none can be computed")")
            fuzzCheck(hashes[entity.name].map { $0.count == 32 } ?? true, "entity \(entity.name): a version hash not of 32 bytes")
        }
        fuzzCheck(decoded.entityVersionHashes() == hashes, "the version hashes differ when computed again")

        let json = JSONModelFormat.write(model)
        do {
            let again = try JSONModelFormat.read(Data(json.utf8), name: "Fuzz")
            let rewritten = JSONModelFormat.write(again)
            fuzzCheck(rewritten == json, "the model JSON does not write back the same:\n  first: \(json.prefix(1500))\n  then: \(rewritten.prefix(1500))")
        } catch {
            fuzzFailure("the model JSON written for a model does not read back: \(error)\n  json: \(json.prefix(1500))")
        }
    }
}
