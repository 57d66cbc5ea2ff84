import Foundation
import SiftStore

/// Core Data's binary attributes that allow external storage (`NSFlagsKey` 4,
/// `allowsExternalBinaryDataStorage`): their column does not hold the value itself but a
/// marker byte and then either the value's bytes (marker 1) or the ASCII UUID of a file in the
/// store's `.<store>_SUPPORT/_EXTERNAL_DATA/` folder whose content is the value (marker 2).
///
/// Every read of such a column — the objects' rows, dictionaries, predicates, sorts — goes
/// through ``EntityTable/value(column:alias:)``, which wraps it in `sift_external_data` (a
/// function the SQLite store registers, ``SQLRegisteredFunction/externalData``): SQL then
/// compares, sorts and returns the value itself, exactly as the evaluator reads it, never the
/// marker or the reference. docs/COREDATA-STORES.md, "Binary data in external storage".
package struct CoreDataExternalData: Sendable, Equatable {
    /// The folder holding the files, `<dir>/.<store name without extension>_SUPPORT/_EXTERNAL_DATA`.
    package let directory: String
    /// The attributes that allow external storage, as `Entity.attribute` of the entity that
    /// declares them.
    package let attributes: Set<String>

    package init(directory: String, attributes: Set<String>) {
        self.directory = directory
        self.attributes = attributes
    }

    /// The folder of a store file's external data: `.<name without extension>_SUPPORT/_EXTERNAL_DATA`
    /// beside it (`Notes.sqlite` → `.Notes_SUPPORT/_EXTERNAL_DATA`).
    package static func directory(ofStoreAt path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent()
            .appendingPathComponent("." + url.deletingPathExtension().lastPathComponent + "_SUPPORT")
            .appendingPathComponent("_EXTERNAL_DATA").path
    }

    /// Whether `attribute` of `entity` (its own or inherited) allows external storage.
    package func holds(_ attribute: AttributeDescription, of entity: EntityDescription, in model: DataModel) -> Bool {
        guard attribute.type == .binary || attribute.type == .transformable else { return false }
        var current: EntityDescription? = entity
        var depth = 0
        while let place = current, depth <= model.entities.count {
            if place.ownAttributes.contains(where: { $0.name == attribute.name }) {
                return attributes.contains(place.name + "." + attribute.name)
            }
            current = place.parent.flatMap(model.entity(named:))
            depth += 1
        }
        return false
    }
}

extension EntityTable {
    /// The marker byte of a value written inline in a column that allows external storage.
    package static let inlineDataMarker: UInt8 = 1
    /// The marker byte of a reference to a file in the store's `_EXTERNAL_DATA` folder.
    package static let externalDataMarker: UInt8 = 2

    /// Whether attribute column `column` holds Core Data's marked values (``CoreDataExternalData``).
    package func holdsExternalData(_ column: String) -> Bool { externalDataDirectory != nil && externalDataColumns[column] != nil }

    /// `sift_external_data(<value>, '<folder>', '<Entity.attribute>', '<ID prefix>', <key>)`:
    /// the value of the external-storage column `column` read as `value` on the row aliased
    /// `alias`, with what its errors name (the attribute, the object's ID: the prefix, for a
    /// table of several entities chosen by the row's `Z_ENT`, then the key).
    func externalDataValue(_ value: SQLExpression, column: String, alias: String) -> SQLExpression {
        guard let directory = externalDataDirectory, let attribute = externalDataColumns[column] else { return value }
        let prefix: SQLExpression
        switch objectID {
        case .entityAndKey(let idPrefix):
            func entityPrefix(_ name: String) -> String { idPrefix + name + "/p" }
            if let entityColumn, entityNumbers.count > 1 {
                let cases = hierarchyEntityNames.compactMap { name in
                    entityNumbers[name].map { (when: SQLExpression.binary(.equal, .column(alias, entityColumn), .integer($0)),
                                               then: SQLExpression.string(entityPrefix(name))) }
                }
                prefix = .case(cases, otherwise: .string(entityPrefix(entity.name)))
            } else {
                prefix = .string(entityPrefix(entity.name))
            }
        case .primaryKey(let idPrefix):
            prefix = .string(idPrefix)
        case .column:
            prefix = .string(entity.name + " ")
        }
        return .function(.provided(.registered(.externalData)),
                         [value, .string(directory), .string(entity.name + "." + attribute), prefix, .column(alias, primaryKey)])
    }
}
