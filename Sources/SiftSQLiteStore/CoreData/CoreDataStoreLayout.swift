import Foundation
import SiftSQL
import SiftSQLite
import SiftStore

/// A SQLite database in Core Data's layout as Sift reads it: the model and where it came from,
/// Core Data's layout of that model, the schema fetches compile against, and what could not be
/// read exactly (docs/COREDATA-STORES.md).
///
/// The model comes from, in this order: a model given when opening (which must fit the
/// store: a mismatch is an error naming what differs), the store's own `Z_MODELCACHE`, or —
/// with a warning saying what was guessed — the schema itself (``CoreDataSchemaModel``).
/// A cache that cannot be decoded, or whose layout does not fit the store, is set aside with a
/// warning, and the schema is read instead.
package struct CoreDataStoreLayout: Sendable {
    /// Where the model came from.
    package enum ModelSource: Sendable, Equatable {
        /// The store's `Z_MODELCACHE`.
        case modelCache
        /// A model given when opening (a model file's path, when known).
        case given(String?)
        /// The model Sift wrote into the metadata of a store it created
        /// (``CoreDataStoreDDL/siftModelKey``).
        case metadata
        /// Guessed from the tables, columns and `Z_PRIMARYKEY` (no usable model).
        case schema
    }

    package let model: DataModel
    package let modelSource: ModelSource
    package let layout: CoreDataLayout
    /// The store's UUID, the host of its object URIs.
    package let storeUUID: String
    package let schema: SQLSchema
    /// What was guessed, set aside or left out while reading, one sentence each.
    package let warnings: [String]
    /// The entities whose version hash, as computed from the model, differs from the one the
    /// store's metadata holds (`NSStoreModelVersionHashes`), sorted; empty where they agree or
    /// cannot be compared (no hashes in the store, none computed for the model).
    package let versionHashDifferences: [String]
    /// Whether the model's hashes are Core Data's own (``CoreDataModel/hashesAreExact``): a
    /// difference then means Core Data itself would refuse the model for this store.
    package let hashesAreExact: Bool

    /// Reads the layout of the Core Data store open as `database` (with `model`, that model's).
    package static func read(_ database: SQLiteDatabase, path: String, model given: CoreDataModel? = nil, modelPath: String? = nil) throws(StoreError) -> CoreDataStoreLayout {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let store: CoreDataStoreSchema
        do {
            store = try CoreDataStoreFile.schema(of: database)
        } catch {
            throw StoreError(.corruptStore, "\(name) has Core Data's tables, but its Z_PRIMARYKEY cannot be read: \(error.message)")
        }
        var warnings: [String] = []
        let storeUUID: String
        if let uuid = try? CoreDataStoreFile.storeUUID(of: database) {
            storeUUID = uuid
        } else {
            storeUUID = "unknown-store"
            warnings.append("Z_METADATA names no store UUID: object IDs read x-coredata://unknown-store/…")
        }
        let modelName = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent

        let metadata = try? CoreDataStoreFile.metadata(of: database)
        var model: DataModel
        var source: ModelSource
        var described: CoreDataModel?
        if var given {
            given.model = CoreDataHistory.removingHistoryEntities(from: given.model, in: store)
            let check = CoreDataLayout(given).check(store)
            guard check.matches else {
                let differences = check.mismatches.prefix(5).map(\.description).joined(separator: "; ")
                let more = check.mismatches.count > 5 ? "; and \(check.mismatches.count - 5) more" : ""
                throw StoreError(.unsupportedModel, "the model used to open \(name) is incompatible with the store: \(differences)\(more)")
            }
            (model, source, described) = (given.model, .given(modelPath), given)
        } else if let written = writtenModel(metadata, store: store) {
            // A store Sift created: the model it wrote (its model cache is Core Data's copy of
            // it; its hashes were written with it, from the model as given then: not compared).
            (model, source) = (written, .metadata)
        } else {
            switch cachedModel(database, store: store, name: modelName) {
            case .success(let cached):
                (model, source, described) = (cached.model, .modelCache, cached)
            case .failure(let unusable):
                if let reason = unusable.reason { warnings.append(reason) }
                // (Its hashes were written with it, from the model as given then: not compared.)
                if let written = writtenModel(metadata, store: store) {
                    (model, source) = (written, .metadata)
                    break
                }
                let guessed: CoreDataSchemaModel
                do {
                    guessed = try CoreDataSchemaModel(schema: store, name: modelName)
                } catch {
                    throw StoreError(.corruptStore, "\(name) has Core Data's tables, but no model can be read from it: \(error.message)")
                }
                guard !guessed.model.model.entities.isEmpty else {
                    throw StoreError(.corruptStore, "\(name) has Core Data's tables, but its Z_PRIMARYKEY names no entity")
                }
                warnings += guessed.warnings
                (model, source) = (guessed.model.model, .schema)
            }
        }
        let layout = CoreDataLayout(model)
        // Persistent history: entities of Core Data's own, beside the model's.
        let history = CoreDataHistory.descriptions(in: store, besides: model)
        if !history.isEmpty {
            let own = model.entities.map { $0.declaration() }
            if let extended = try? DataModel(name: model.name, entities: own + history) { model = extended }
        }
        var omitted: [String] = []
        let external = externalData(of: model, described: described, source: source, database: database, path: path, name: modelName)
        let schema = SQLSchema.forCoreData(model, layout: layout, storeUUID: storeUUID, store: store, externalData: external, omitted: &omitted)
        var seen: Set<String> = []
        let unique = omitted.filter { seen.insert($0).inserted }
        if !unique.isEmpty {
            let listed = unique.prefix(8).joined(separator: ", ") + (unique.count > 8 ? ", and \(unique.count - 8) more" : "")
            warnings.append("the store has no column for \(listed): read as nil")
        }
        let differences = hashDifferences(metadata, model: described)
        let exact = described?.hashesAreExact ?? false
        // Hashes computed from a file that does not say all they cover (``CoreDataModel/init(deriving:)``)
        // may differ where the model is the store's: the tables fit, so nothing is said.
        if !differences.isEmpty && exact {
            let listed = differences.prefix(5).joined(separator: ", ") + (differences.count > 5 ? ", and \(differences.count - 5) more" : "")
            warnings.append("the model's version hashes differ from the store's (NSStoreModelVersionHashes) for \(listed): Core Data would call this model incompatible with the store")
        }
        return CoreDataStoreLayout(model: model, modelSource: source, layout: layout, storeUUID: storeUUID, schema: schema, warnings: warnings,
                                   versionHashDifferences: differences, hashesAreExact: exact)
    }

    /// The store's cached model, if it decodes and its layout fits the store; else why not
    /// (nil: there is no cache, which needs no words beyond the guessed model's warning).
    private static func cachedModel(_ database: SQLiteDatabase, store: CoreDataStoreSchema, name: String) -> Result<CoreDataModel, CacheUnusable> {
        guard let cache = try? CoreDataStoreFile.modelCache(of: database) else { return .failure(CacheUnusable(nil)) }
        let model: CoreDataModel
        do {
            model = try CoreDataModel(modelCache: cache, name: name)
        } catch {
            return .failure(CacheUnusable("the store's model cache (Z_MODELCACHE) cannot be read (\(error.message)); the model is guessed from the tables"))
        }
        let check = CoreDataLayout(model).check(store)
        guard check.matches else {
            let first = check.mismatches.first.map(\.description) ?? ""
            return .failure(CacheUnusable("the store's model cache does not fit its tables (\(first)); the model is guessed from the tables"))
        }
        return .success(model)
    }

    /// The model Sift wrote into the metadata of a store it created, if it reads and fits.
    private static func writtenModel(_ metadata: [String: Any]?, store: CoreDataStoreSchema) -> DataModel? {
        guard let json = metadata?[CoreDataStoreDDL.siftModelKey] as? String,
              let model = try? JSONModelFormat.read(Data(json.utf8)),
              CoreDataLayout(model).check(store).matches else { return nil }
        return model
    }

    /// The binary attributes that allow external storage (`NSFlagsKey` 4), as the model read
    /// says (a model cache, a `.mom`, Xcode 3's `elements`, an Xcode `contents` file) and, where
    /// it may not say all (a model Sift wrote into the metadata, a `contents` file, a
    /// `model.json`), as the store's own model cache says; nil when none does (a model guessed
    /// from the tables cannot know).
    private static func externalData(of model: DataModel, described: CoreDataModel?, source: ModelSource,
                                     database: SQLiteDatabase, path: String, name: String) -> CoreDataExternalData? {
        let binary = model.entities.contains { entity in entity.ownAttributes.contains { $0.type == .binary || $0.type == .transformable } }
        guard binary else { return nil }
        var flagged: Set<String> = []
        func add(_ coreData: CoreDataModel) {
            for (entity, details) in coreData.entities {
                for (attribute, flags) in details.attributeFlags where flags & 4 != 0 { flagged.insert(entity + "." + attribute) }
            }
        }
        if let described { add(described) }
        // (A model from Core Data's own archives says it already: the cache is not decoded again.)
        if source != .modelCache, described?.hashesAreExact != true, let cache = try? CoreDataStoreFile.modelCache(of: database),
           let cached = try? CoreDataModel(modelCache: cache, name: name) {
            add(cached)
        }
        guard !flagged.isEmpty else { return nil }
        return CoreDataExternalData(directory: CoreDataExternalData.directory(ofStoreAt: path), attributes: flagged)
    }

    /// The entities whose hash in the store's metadata differs from the model's.
    private static func hashDifferences(_ metadata: [String: Any]?, model: CoreDataModel?) -> [String] {
        guard let stored = metadata?["NSStoreModelVersionHashes"] as? [String: Any], let model else { return [] }
        let computed = model.entityVersionHashes()
        guard !computed.isEmpty else { return [] }
        var differing: [String] = []
        for (entity, hash) in computed where (stored[entity] as? Data) != hash { differing.append(entity) }
        for entity in stored.keys where computed[entity] == nil && model.model.entity(named: entity) == nil { differing.append(entity) }
        return differing.sorted()
    }

    private struct CacheUnusable: Error {
        let reason: String?
        init(_ reason: String?) { self.reason = reason }
    }

    /// One line for `sift schema`: the layout and where the model came from.
    package var summary: String {
        switch modelSource {
        case .modelCache: "Core Data's layout; the model from the store's model cache (Z_MODELCACHE)"
        case .given(let path?): "Core Data's layout; the model from \(path)"
        case .given(nil): "Core Data's layout; the model given when opening it"
        case .metadata: "Core Data's layout; the model Sift wrote into the store's metadata (Z_METADATA)"
        case .schema: "Core Data's layout; no model in the store: entities from Z_PRIMARYKEY, attributes guessed from the columns"
        }
    }
}
