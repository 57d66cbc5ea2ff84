import Foundation
import SiftEvaluation
import SiftLanguage

/// CSV records read as rows of an entity: each column is found in the entity once (an
/// attribute's slot and type, a relationship, `@id`, `@entity`), and each cell is read as
/// its column's type straight from its bytes.
///
/// - An unquoted empty cell is left out (nil, or the model's default); a quoted empty cell is
///   the empty string.
/// - Integers, numbers and booleans (`true`/`false`, `yes`/`no`, `1`/`0`) are read by the
///   attribute's type, around whitespace; other types take the text, which the store converts
///   (dates as ISO 8601, or in the import's ``ImportDateFormat``).
/// - A to-many relationship is `@id`s separated by spaces; a to-one is one `@id`.
/// - `@entity` names the entity or one of its sub-entities: the row is an object of that one.
///
/// A cell that its type cannot read, or a value in a column the row's entity does not have, is
/// an error naming the line of the file and the column.
struct CSVRows {
    let model: DataModel
    /// The entity of the rows (unless a row's `@entity` names a sub-entity).
    let entity: Int
    let header: CSVHeader
    private let dates: ImportDateFormat.Parser?
    private let idColumn: Int?
    private let entityColumn: Int?
    /// Each entity's reading of the columns, by entity position, made when a row first needs it.
    private var plans: [Int: [Column]] = [:]

    /// What a column is to an entity.
    private enum Column {
        case id
        case entity
        case attribute(slot: Int, type: AttributeType)
        case relationship(toMany: Bool)
        case unknown
    }

    init(model: DataModel, entity: Int, header: CSVHeader, dates: ImportDateFormat.Parser?) {
        self.model = model
        self.entity = entity
        self.header = header
        self.dates = dates
        idColumn = header.names.firstIndex(of: "@id")
        entityColumn = header.names.firstIndex(of: "@entity")
    }

    /// The current record of `reader` as a row.
    mutating func row(_ reader: CSVReader) throws(StoreError) -> StoreImporter.ImportRow {
        let line = reader.recordLine
        do throws(CSVReader.Failure) {
            try header.check(reader)
        } catch {
            throw StoreError(.invalidValue, "\(model.entities[entity].name) CSV line \(error.line): \(error.message)", entity: model.entities[entity].name)
        }
        var target = entity
        if let entityColumn, let name = reader.string(entityColumn), name != model.entities[entity].name {
            let base = model.entities[entity]
            guard let subentity = model.entityPosition(named: name), model.isKind(name, of: base.name) else {
                throw StoreError(.invalidValue, "\(base.name) CSV line \(line), @entity: '\(name)' is not \(base.name) or one of its sub-entities "
                                 + "(\(base.entityAndSubentities.joined(separator: ", ")))", entity: base.name, key: "@entity")
            }
            target = subentity
        }
        let columns = plan(for: target)
        return try reader.withRecord { (record) throws(StoreError) -> StoreImporter.ImportRow in
            try row(record, columns: columns, entity: target, line: line)
        }
    }

    /// A record's cells read by `columns`, the plan of the entity at `position`.
    private func row(_ record: CSVReader.Record, columns: [Column], entity position: Int, line: Int) throws(StoreError) -> StoreImporter.ImportRow {
        // Read where it is when needed (an error), not copied for every row.
        var entity: EntityDescription { model.entities[position] }
        var values: [SlotValue] = []
        values.reserveCapacity(columns.count)
        var relationships: [String: [ObjectID]] = [:]
        var id: ObjectID?
        for column in columns.indices where record.kind(column) != .none {
            switch columns[column] {
            case .id:
                id = ObjectID(record.string(column) ?? "")
            case .entity:
                continue
            case .attribute(let slot, let type):
                guard let value = Self.value(record.bytes(column), type: type, dates: dates) else {
                    throw fault(record, column, type: type, entity: entity, id: id, line: line)
                }
                values.append(SlotValue(slot: slot, value: value))
            case .relationship(let toMany):
                let key = header.names[column]
                let ids = (record.string(column) ?? "").split(separator: " ").map { ObjectID(String($0)) }
                guard toMany || ids.count <= 1 else {
                    throw StoreError(.invalidValue, "\(entity.name) CSV line \(line), \(key): '\(record.string(column) ?? "")' is not one @id (\(key) is a to-one relationship)",
                                     entity: entity.name, objectID: id, key: key)
                }
                relationships[key] = ids
            case .unknown:
                let key = header.names[column]
                var message = "\(entity.name) CSV line \(line): unknown key '\(key)' on \(entity.name)"
                if let suggestion = Suggestions.closest(to: key, in: entity.propertyNames) { message += "; did you mean '\(suggestion)'?" }
                throw StoreError(.unknownKey, message, entity: entity.name, objectID: id, key: key)
            }
        }
        return StoreImporter.ImportRow(entity: model.entities[position].name, entityPosition: position, id: id, values: values, relationships: relationships)
    }

    /// A cell as its attribute's type reads it, or nil when it cannot.
    private static func value(_ cell: UnsafeBufferPointer<UInt8>, type: AttributeType, dates: ImportDateFormat.Parser?) -> Value? {
        switch type {
        case .integer16, .integer32, .integer64:
            return CSVCellText.trimmed(cell).with(CSVCellText.int64).map(Value.int)
        case .double, .float:
            return CSVCellText.trimmed(cell).with(CSVCellText.double).map(Value.double)
        case .boolean:
            return CSVCellText.trimmed(cell).with { text -> Value? in
                if CSVCellText.equalsIgnoringCase(text, "true") || CSVCellText.equalsIgnoringCase(text, "yes") || text.elementsEqual("1".utf8) {
                    return .bool(true)
                }
                if CSVCellText.equalsIgnoringCase(text, "false") || CSVCellText.equalsIgnoringCase(text, "no") || text.elementsEqual("0".utf8) {
                    return .bool(false)
                }
                return nil
            }
        case .date where dates != nil:
            return dates?.date(from: String(decoding: cell, as: UTF8.self)).map(Value.date)
        default:
            return .string(String(decoding: cell, as: UTF8.self))
        }
    }

    /// The error of a cell its attribute's type cannot read.
    private func fault(_ record: CSVReader.Record, _ column: Int, type: AttributeType, entity: EntityDescription, id: ObjectID?, line: Int) -> StoreError {
        let key = header.names[column]
        let text = record.string(column) ?? ""
        if type == .date, let dates {
            let label = id.map { "\(entity.name) '\($0)'" } ?? entity.name
            return StoreError(.invalidValue, "CSV line \(line): \(label), \(key): '\(text)' is not a date in the format \(dates.formatter.dateFormat ?? "")",
                              entity: entity.name, objectID: id, key: key)
        }
        return StoreError(.invalidValue, "\(entity.name) CSV line \(line), \(key): '\(text)' is not a valid \(type.name)", entity: entity.name, objectID: id, key: key)
    }

    /// How the entity at `position` reads each column.
    private mutating func plan(for position: Int) -> [Column] {
        if let plan = plans[position] { return plan }
        let entity = model.entities[position]
        let plan: [Column] = header.names.enumerated().map { column, name in
            if column == idColumn { return .id }
            if column == entityColumn { return .entity }
            switch entity.slot(of: name) {
            case .attribute(let slot): return .attribute(slot: slot, type: entity.attributes[slot].type)
            case .relationship(let slot): return .relationship(toMany: entity.relationships[slot].isToMany)
            case nil: return .unknown
            }
        }
        plans[position] = plan
        return plan
    }
}
