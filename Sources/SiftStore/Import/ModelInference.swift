import Foundation
import SiftEvaluation
import SiftLanguage

/// A one-entity model read off data, for importing a CSV table or JSON Lines records without
/// writing a model first: an attribute per CSV column (or per key of the records, in the order
/// first met; `@id` is the object ID, not an attribute), typed by the values it holds, every
/// attribute optional:
///
/// | values (nil and empty cells aside) | type |
/// |---|---|
/// | integers | Integer 64 |
/// | numbers, some not integers | Double |
/// | `true`/`false` | Boolean |
/// | ISO 8601 dates (or dates in the import's ``ImportDateFormat``) | Date |
/// | anything else, or no value at all | String |
///
/// In CSV every value is text, so a column that mixes kinds is String; in JSON Lines, a key
/// that holds a number on one line and a string on another, or an array or an object, is an
/// error (a model says what it is: write one).
///
///     var inference = ModelInference(entity: "Person")
///     try inference.addCSV(data)
///     let model = try inference.model()   // print it with JSONModelFormat.write(model)
public struct ModelInference {
    public let entity: String
    public let dateFormat: ImportDateFormat?
    private var keys: [String] = []
    private var seen: [String: [Kind: Int]] = [:]
    private var sawJSON = false
    private let dates: ImportDateFormat.Parser?

    /// What a value looks like.
    enum Kind: Int, Comparable {
        case integer, number, boolean, date, string

        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        var text: String {
            switch self {
            case .integer: "an integer"
            case .number: "a number"
            case .boolean: "a boolean"
            case .date: "a date"
            case .string: "a string"
            }
        }
    }

    public init(entity: String, dateFormat: ImportDateFormat? = nil) {
        self.entity = entity
        self.dateFormat = dateFormat
        dates = dateFormat.map(ImportDateFormat.Parser.init)
    }

    /// Reads a CSV table: its header names the attributes, its cells type them.
    public mutating func addCSV(_ data: Data) throws(StoreError) {
        let table: [CSVParser.Record]
        do throws(CSVParser.Failure) {
            table = try CSVParser.parse(data)
        } catch {
            throw StoreError(.invalidValue, "\(entity) CSV line \(error.line): \(error.message)", entity: entity)
        }
        guard let header = table.first else { return }
        var names: [String] = []
        for (column, name) in header.fields.enumerated() {
            guard let name, !name.isEmpty else {
                throw StoreError(.invalidValue, "\(entity) CSV line \(header.line): column \(column + 1) of the header has no name", entity: entity)
            }
            names.append(name)
            if name != "@id" { note(name) }
        }
        for record in table.dropFirst() {
            for (name, cell) in zip(names, record.fields) {
                guard let cell, name != "@id" else { continue }
                see(csvKind(cell), name, line: record.line)
            }
        }
    }

    /// Reads JSON Lines records (objects; `@entity`, if a line has it, must be this entity).
    public mutating func addJSONLines(_ reader: JSONRecordReader) throws(StoreError) {
        sawJSON = true
        while true {
            let record: JSONRecordReader.Record
            do {
                guard let next = try reader.next() else { return }
                record = next
            } catch let error as JSONSyntaxError {
                throw StoreError(.invalidValue, "import data is not valid JSON Lines: \(error)")
            } catch {
                throw StoreError(.fileSystem, "reading the import data failed: \(error)")
            }
            guard case .dictionary(let fields) = record.value else {
                throw StoreError(.invalidValue, "line \(record.line): expected an object, not \(record.value.kindName)")
            }
            for (key, value) in fields.pairs {
                if key == "@id" { continue }
                if key == "@entity" {
                    guard case .string(let name) = value, name == entity else {
                        throw StoreError(.invalidValue, "line \(record.line): \"@entity\" is \(ValueText.text(value)), but the model inferred has one entity, \(entity)",
                                         entity: entity, key: key)
                    }
                    continue
                }
                note(key)
                switch value {
                case .null: continue
                case .int: see(.integer, key, line: record.line)
                case .double, .decimal: see(.number, key, line: record.line)
                case .bool: see(.boolean, key, line: record.line)
                case .string(let text): see(isDate(text) ? .date : .string, key, line: record.line)
                default:
                    throw StoreError(.invalidValue, "line \(record.line): '\(key)' holds a nested value (\(value.kindName)); a model inferred from data has plain attributes "
                                     + "only (write a model for it and give --model)", entity: entity, key: key)
                }
            }
        }
    }

    /// The model: one entity, its attributes in the order first met.
    public func model() throws(StoreError) -> DataModel {
        var attributes: [AttributeDescription] = []
        for key in keys {
            attributes.append(AttributeDescription(name: key, type: try type(of: key), isOptional: true))
        }
        do throws(ModelError) {
            return try DataModel(name: entity, entities: [EntityDescription(name: entity, attributes: attributes)])
        } catch {
            throw StoreError(.invalidValue, "cannot make a model of the data: \(error.message)", entity: entity)
        }
    }

    // MARK: Kinds

    private mutating func note(_ key: String) {
        if seen[key] == nil {
            seen[key] = [:]
            keys.append(key)
        }
    }

    private mutating func see(_ kind: Kind, _ key: String, line: Int) {
        if seen[key]?[kind] == nil { seen[key, default: [:]][kind] = line }
    }

    private func type(of key: String) throws(StoreError) -> AttributeType {
        let kinds = seen[key] ?? [:]
        switch Set(kinds.keys) {
        case []: return .string
        case [.integer]: return .integer64
        case [.number], [.integer, .number]: return .double
        case [.boolean]: return .boolean
        case [.date]: return .date
        case [.string], [.string, .date]: return .string
        default:
            guard sawJSON else { return .string }
            let firsts = kinds.sorted { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(2)
            let said = firsts.map { "\($0.key.text) on line \($0.value)" }.joined(separator: ", ")
            throw StoreError(.invalidValue, "'\(key)' holds values of more than one type (\(said)); "
                             + "write a model for the data and give --model", entity: entity, key: key)
        }
    }

    private func csvKind(_ cell: String) -> Kind {
        let text = cell.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return .string }
        if Int64(text) != nil { return .integer }
        if Double(text) != nil, text.allSatisfy({ "0123456789+-.eE".contains($0) }) { return .number }
        if text.lowercased() == "true" || text.lowercased() == "false" { return .boolean }
        return isDate(cell) ? .date : .string
    }

    private func isDate(_ text: String) -> Bool {
        if let dates { return dates.date(from: text) != nil }
        return ISO8601.date(from: text) != nil
    }
}
