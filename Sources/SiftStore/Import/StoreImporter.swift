import Foundation
import SiftEvaluation
import SiftLanguage

/// What an import inserted.
public struct ImportSummary: Sendable, Hashable {
    /// Objects inserted per entity, in the order entities were first met.
    public var counts: [(entity: String, count: Int)] = []
    public var total: Int { counts.reduce(0) { $0 + $1.count } }

    mutating func add(_ entity: String) {
        if let i = counts.firstIndex(where: { $0.entity == entity }) { counts[i].count += 1 } else { counts.append((entity, 1)) }
    }

    public static func == (a: ImportSummary, b: ImportSummary) -> Bool {
        a.counts.map(\.entity) == b.counts.map(\.entity) && a.counts.map(\.count) == b.counts.map(\.count)
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(counts.map(\.entity)); hasher.combine(counts.map(\.count)) }
}

/// Imports data into any store, all or nothing (docs/IMPORT.md): JSON of the shape
///
///     {"Entity": [{"@id": "n1", "attr": value, "toOne": "c1", "toMany": ["t1", "t2"]}, ...], ...}
///
/// or CSV for one entity. Objects are inserted in file order (the insertion order that breaks
/// sort ties) and keep their `@id` as their object ID; relationships name objects of the file
/// or of the store. Any wrong type, unknown key, dangling reference or broken constraint stops
/// the import with an error naming the entity, the `@id` and the key, and nothing is written.
public enum StoreImporter {
    /// Imports JSON data and saves.
    @discardableResult
    public static func importJSON(_ data: Data, into store: any PersistentStore) throws(StoreError) -> ImportSummary {
        let root: Value
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(data)
        } catch {
            throw StoreError(.invalidValue, "import data is not valid JSON: \(error)")
        }
        guard case .dictionary(let top) = root else {
            throw StoreError(.invalidValue, "import data must be an object mapping entity names to arrays of rows, not \(root.kindName)")
        }
        var rows: [ImportRow] = []
        for (entityName, value) in top.pairs {
            let entity = try requireEntity(entityName, in: store.model)
            guard case .array(let items) = value else {
                throw StoreError(.invalidValue, "\(entityName): expected an array of rows, not \(value.kindName)", entity: entityName)
            }
            for (index, item) in items.enumerated() {
                guard case .dictionary(let fields) = item else {
                    throw StoreError(.invalidValue, "\(entityName) row \(index + 1): expected an object, not \(item.kindName)", entity: entityName)
                }
                rows.append(try row(fields, entity: entity, index: index, model: store.model))
            }
        }
        return try apply(rows, to: store)
    }

    /// Imports CSV rows of one entity (a header row of property names; `@id` optional) and saves.
    @discardableResult
    public static func importCSV(_ data: Data, entity entityName: String, into store: any PersistentStore) throws(StoreError) -> ImportSummary {
        let entity = try requireEntity(entityName, in: store.model)
        let table: [[String]]
        do throws(CSVParser.Failure) {
            table = try CSVParser.parse(data)
        } catch {
            throw StoreError(.invalidValue, "CSV line \(error.line): \(error.message)", entity: entityName)
        }
        guard let header = table.first else { return ImportSummary() }
        var rows: [ImportRow] = []
        for (index, cells) in table.dropFirst().enumerated() {
            guard cells.count == header.count else {
                throw StoreError(.invalidValue, "\(entityName) CSV line \(index + 2): \(cells.count) fields, but the header has \(header.count)", entity: entityName)
            }
            var fields = ValueDictionary()
            for (name, cell) in zip(header, cells) where !cell.isEmpty {
                fields[name] = try csvValue(cell, key: name, entity: entity, line: index + 2)
            }
            rows.append(try row(fields, entity: entity, index: index, model: store.model))
        }
        return try apply(rows, to: store)
    }

    // MARK: Rows

    private struct ImportRow {
        let entity: String
        let id: ObjectID?
        let attributes: [String: Value]
        let relationships: [String: [ObjectID]]
        let label: String
    }

    private static func row(_ fields: ValueDictionary, entity: EntityDescription, index: Int, model: DataModel) throws(StoreError) -> ImportRow {
        var target = entity
        var id: ObjectID?
        if case .string(let s)? = fields["@id"] { id = ObjectID(s) } else if let other = fields["@id"], !other.isNull {
            throw StoreError(.invalidValue, "\(entity.name) row \(index + 1): @id must be a string, not \(other.kindName)", entity: entity.name)
        }
        let label = id.map { "\(entity.name) '\($0)'" } ?? "\(entity.name) row \(index + 1)"
        if let sub = fields["@entity"] {
            guard case .string(let name) = sub, let subentity = model.entity(named: name), model.isKind(name, of: entity.name) else {
                throw StoreError(.invalidValue, "\(label): @entity must name \(entity.name) or one of its sub-entities (\(entity.entityAndSubentities.joined(separator: ", ")))",
                                 entity: entity.name, objectID: id, key: "@entity")
            }
            target = subentity
        }
        var attributes: [String: Value] = [:]
        var relationships: [String: [ObjectID]] = [:]
        for (key, value) in fields.pairs where key != "@id" && key != "@entity" {
            switch target.slot(of: key) {
            case .attribute:
                attributes[key] = value
            case .relationship(let slot):
                let relationship = target.relationships[slot]
                switch value {
                case .null: relationships[key] = []
                case .string(let s) where !relationship.isToMany: relationships[key] = [ObjectID(s)]
                case .array(let items) where relationship.isToMany:
                    var ids: [ObjectID] = []
                    for item in items {
                        guard case .string(let s) = item else {
                            throw StoreError(.invalidValue, "\(label), \(key): expected @id strings, found \(item.kindName)", entity: target.name, objectID: id, key: key)
                        }
                        ids.append(ObjectID(s))
                    }
                    relationships[key] = ids
                default:
                    let expected = relationship.isToMany ? "an array of @id strings" : "an @id string or null"
                    throw StoreError(.invalidValue, "\(label), \(key): expected \(expected), found \(value.kindName)", entity: target.name, objectID: id, key: key)
                }
            case nil:
                var message = "\(label): unknown key '\(key)' on \(target.name)"
                if let suggestion = Suggestions.closest(to: key, in: target.propertyNames) { message += "; did you mean '\(suggestion)'?" }
                throw StoreError(.unknownKey, message, entity: target.name, objectID: id, key: key)
            }
        }
        return ImportRow(entity: target.name, id: id, attributes: attributes, relationships: relationships, label: label)
    }

    /// Inserts every row, then links relationships (references may point forward), then saves;
    /// any error rolls everything back.
    private static func apply(_ rows: [ImportRow], to store: any PersistentStore) throws(StoreError) -> ImportSummary {
        guard !store.hasChanges else {
            throw StoreError(.invalidRequest, "the store has unsaved changes; save or roll them back before importing")
        }
        var summary = ImportSummary()
        do throws(StoreError) {
            var ids: [ObjectID] = []
            for row in rows {
                ids.append(try store.insert(entity: row.entity, id: row.id, attributes: row.attributes, relationships: [:]))
                summary.add(row.entity)
            }
            for (row, id) in zip(rows, ids) where !row.relationships.isEmpty {
                try store.update(id, attributes: [:], relationships: row.relationships)
            }
            try store.save()
        } catch {
            store.rollback()
            throw error
        }
        return summary
    }

    private static func requireEntity(_ name: String, in model: DataModel) throws(StoreError) -> EntityDescription {
        do throws(ModelError) {
            return try model.requireEntity(name)
        } catch {
            throw StoreError(.unknownEntity, error.message, entity: name)
        }
    }

    /// A CSV cell as the value its attribute's type reads (relationships: `@id`s separated by spaces).
    private static func csvValue(_ cell: String, key: String, entity: EntityDescription, line: Int) throws(StoreError) -> Value {
        switch entity.slot(of: key) {
        case .attribute(let slot):
            let type = entity.attributes[slot].type
            func bad() -> StoreError {
                StoreError(.invalidValue, "\(entity.name) CSV line \(line), \(key): '\(cell)' is not a valid \(type.name)", entity: entity.name, key: key)
            }
            switch type {
            case .integer16, .integer32, .integer64:
                guard let i = Int64(cell.trimmingCharacters(in: .whitespaces)) else { throw bad() }
                return .int(i)
            case .double, .float:
                guard let d = Double(cell.trimmingCharacters(in: .whitespaces)) else { throw bad() }
                return .double(d)
            case .boolean:
                switch cell.trimmingCharacters(in: .whitespaces).lowercased() {
                case "true", "yes", "1": return .bool(true)
                case "false", "no", "0": return .bool(false)
                default: throw bad()
                }
            default: return .string(cell)
            }
        case .relationship(let slot):
            let ids = cell.split(separator: " ").map { Value.string(String($0)) }
            return entity.relationships[slot].isToMany ? .array(ids) : (ids.first ?? .null)
        case nil:
            return .string(cell)  // reported as an unknown key by row()
        }
    }
}
