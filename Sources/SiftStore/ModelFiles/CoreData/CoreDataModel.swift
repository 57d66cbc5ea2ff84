import Foundation

/// A model read from Core Data's own form (a store's model cache, a compiled `.mom`): Sift's
/// ``DataModel`` and what Core Data's layout needs beside it.
///
/// The parts Sift's model has no slot for stay here, by entity name, so ``DataModel`` keeps one
/// meaning for every store kind.
public struct CoreDataModel: Sendable {
    /// The entities, attributes and relationships, as every Sift store reads them. Transient
    /// properties (which a store has no column for) are left out: ``CoreDataEntityDetails/transientProperties`` lists them.
    public var model: DataModel
    /// What Core Data keeps of each entity beyond Sift's model, by entity name.
    public var entities: [String: CoreDataEntityDetails]
    /// The model's version identifiers (`NSVersionIdentifiers`), sorted.
    public var versionIdentifiers: [String]
    /// Whether the version hashes (``entityVersionHashes()``) are Core Data's own: true for a
    /// model read from Core Data's archives (a model cache, a `.mom`, Xcode's `elements`),
    /// false for one derived from a form that leaves out some of what they cover
    /// (``init(deriving:)``).
    public var hashesAreExact = true
}

/// What Core Data's model says of an entity that Sift's ``EntityDescription`` does not hold.
public struct CoreDataEntityDetails: Sendable, Equatable {
    /// The class of its objects (`NSClassNameForEntity`), e.g. `NSManagedObject`.
    public var className: String?
    /// The name a migration knows it by (`NSRenamingIdentifier`).
    public var renamingIdentifier: String?
    /// The modifier of its version hash (`NSVersionHashModifier`).
    public var versionHashModifier: String?
    /// Its transient properties, by name (not stored, so not in ``CoreDataModel/model``).
    public var transientProperties: [String]
    /// Its own attributes' Core Data type codes (`NSAttributeType`: 100 Integer 16 ... 2100 Composite), by name.
    public var attributeTypeCodes: [String: Int]
    /// Its own stored attributes' and relationships' version hashes (SHA-256, as Core Data computes
    /// `NSPropertyDescription.versionHash`), by name; nil when the model's source does not say
    /// enough to compute them (a model guessed from a store's schema).
    public var propertyVersionHashes: [String: Data]? = nil
    /// Its own attributes' `NSFlagsKey` where not 0 (4: allows external binary storage, 16:
    /// preserves its value in persistent history on deletion), by name.
    public var attributeFlags: [String: Int] = [:]
}
