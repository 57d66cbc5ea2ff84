import Foundation

/// Core Data's version hashes: what `NSStoreModelVersionHashes` in a store's `Z_METADATA` holds
/// for each entity, and what Core Data compares to decide whether a model opens a store.
///
/// Each is a SHA-256 over the parts below, strings as their UTF-8 bytes, integers as their
/// little-endian bytes (docs/COREDATA-STORES.md, "Entity version hashes"; it reproduces every
/// hash of the seven fixture stores that have them):
///
/// - a property: its name, a 16-bit flags word (1 optional, 2 transient, 4 read-only), its
///   `versionHashModifier` when it has one;
/// - an attribute: its property hash, its `NSAttributeType` as 32 bits, then one byte 1 when it
///   allows external binary storage and one byte 1 when it preserves its value in persistent
///   history on deletion;
/// - a relationship: its property hash, the destination's name, the inverse's name (unless the
///   relationship is its own inverse), its maximum and minimum counts as 32 bits each, and the
///   16-bit value 1 when it is ordered;
/// - an entity: its name, one byte 1 or 0 for abstract, its parent's entity hash, the hashes of
///   all its stored (not transient) attributes and relationships, inherited ones included,
///   ordered by name, its `versionHashModifier` when it has one, and each uniqueness constraint
///   (its property names joined with `.`), sorted.
enum CoreDataVersionHash {
    static func property(name: String, isOptional: Bool, isReadOnly: Bool, modifier: String?) -> Data {
        var hasher = SHA256Hasher()
        hasher.update(name)
        let flags: UInt16 = (isOptional ? 1 : 0) | (isReadOnly ? 4 : 0)
        hasher.update([UInt8(flags & 0xFF), UInt8(flags >> 8)])
        if let modifier, !modifier.isEmpty { hasher.update(modifier) }
        return hasher.finalize()
    }

    static func attribute(property: Data, typeCode: Int, externalStorage: Bool, preservesValueInHistory: Bool) -> Data {
        var hasher = SHA256Hasher()
        hasher.update(property)
        hasher.update(int32: Int32(truncatingIfNeeded: typeCode))
        if externalStorage { hasher.update([1]) }
        if preservesValueInHistory { hasher.update([1]) }
        return hasher.finalize()
    }

    static func relationship(property: Data, destination: String, inverse: String?, maxCount: Int, minCount: Int, isOrdered: Bool) -> Data {
        var hasher = SHA256Hasher()
        hasher.update(property)
        hasher.update(destination)
        if let inverse { hasher.update(inverse) }
        hasher.update(int32: Int32(truncatingIfNeeded: maxCount))
        hasher.update(int32: Int32(truncatingIfNeeded: minCount))
        if isOrdered { hasher.update([1, 0]) }
        return hasher.finalize()
    }
}

extension CoreDataModel {
    /// Each entity's version hash, as Core Data computes `NSEntityDescription.versionHash`
    /// (`CoreDataVersionHash`), by entity name: what a store's `NSStoreModelVersionHashes`
    /// holds when this model made it. Entities whose properties' hashes are not known (a model
    /// guessed from a schema) are absent.
    public func entityVersionHashes() -> [String: Data] {
        var result: [String: Data] = [:]
        // Parents before children: by the number of ancestors (inheritance is at most 64 deep).
        let parents = Dictionary(model.entities.map { ($0.name, $0.parent) }, uniquingKeysWith: { first, _ in first })
        func depth(_ name: String) -> Int {
            var count = 0
            var current = parents[name] ?? nil
            while let parent = current, count <= parents.count {
                count += 1
                current = parents[parent] ?? nil
            }
            return count
        }
        for entity in model.entities.sorted(by: { depth($0.name) < depth($1.name) }) {
            if let parent = entity.parent, result[parent] == nil { continue }
            // Every property, inherited ones included: an entity's own override its ancestors'.
            var properties: [String: Data] = [:]
            var chain: [String] = []
            var current: String? = entity.name
            while let name = current, chain.count <= parents.count {
                chain.append(name)
                current = parents[name] ?? nil
            }
            var known = true
            for name in chain.reversed() {
                guard let hashes = entities[name]?.propertyVersionHashes else {
                    known = false
                    break
                }
                properties.merge(hashes) { _, own in own }
            }
            guard known else { continue }
            let detail = entities[entity.name]
            var hasher = SHA256Hasher()
            hasher.update(entity.name)
            hasher.update([entity.isAbstract ? 1 : 0])
            if let parent = entity.parent, let parentHash = result[parent] { hasher.update(parentHash) }
            for name in properties.keys.sorted() { hasher.update(properties[name]!) }
            if let modifier = detail?.versionHashModifier, !modifier.isEmpty { hasher.update(modifier) }
            for constraint in entity.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted() where !constraint.isEmpty {
                hasher.update(constraint)
            }
            result[entity.name] = hasher.finalize()
        }
        return result
    }
}

extension CoreDataModel {
    /// `NSStoreModelVersionHashesDigest`, which newer Core Data writes into a store's metadata
    /// beside the hashes: SHA-512 over each entity's name (UTF-8) followed by its 32-byte
    /// version hash, the entities in the byte order of their names, as Base64 text. Reproduces
    /// the digest of every fixture store that has one (Accounts3, DataUsage, IMODb2, NoteStore,
    /// netusage; `CoreDataVersionHashTests`).
    public static func versionHashesDigest(_ hashes: [String: Data]) -> String {
        var bytes: [UInt8] = []
        for name in hashes.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: hashes[name] ?? Data())
        }
        return SHA512.hash(bytes).base64EncodedString()
    }
}
