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
        try addCSV(CSVReader(bytes: data))
    }

    /// Reads a CSV table a record at a time: its header names the attributes, its cells type
    /// them. Checks what the import will: a header naming a column twice or leaving one
    /// unnamed, a record with more or fewer fields than the header, a quote out of place, text
    /// that is not UTF-8 — each an error naming the line.
    ///
    /// With `byteLimit`, stops after the first record that ends beyond that many bytes of the
    /// input, and returns false if the input goes on (the model then fits a sample of it; a
    /// later value that does not fit its column's type is an error of the import, naming its
    /// line). Returns true when it read the whole input.
    @discardableResult
    public mutating func addCSV(_ reader: CSVReader, byteLimit: Int? = nil) throws(StoreError) -> Bool {
        do throws(CSVReader.Failure) {
            return try readCSV(reader, byteLimit: byteLimit)
        } catch {
            throw StoreError(.invalidValue, "\(entity) CSV line \(error.line): \(error.message)", entity: entity)
        }
    }

    private mutating func readCSV(_ reader: CSVReader, byteLimit: Int?) throws(CSVReader.Failure) -> Bool {
        guard try reader.next() else { return true }
        let header = try CSVHeader(reader, entity: entity)
        // Each column's kinds, with the line each was first seen on; a column stops being looked
        // at once it can only be a String.
        var columns = header.names.map { name in CSVColumnKinds(isID: name == "@id") }
        for name in header.names where name != "@id" { note(name) }
        let dates = self.dates
        while try reader.next() {
            try header.check(reader)
            let line = reader.recordLine
            reader.withRecord { record in
                for column in columns.indices where !columns[column].isSettled && record.kind(column) != .none {
                    columns[column].see(Self.csvKind(record.bytes(column), dates: dates), line: line)
                }
            }
            if let byteLimit, reader.consumed >= byteLimit { break }
        }
        for (name, column) in zip(header.names, columns) where !column.isID {
            for (kind, line) in column.firstLines { see(kind, name, line: line) }
        }
        return reader.atEnd
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

    /// The model: one entity, its attributes in the order first met; marked inferred
    /// (``DataModel/isInferred``).
    public func model() throws(StoreError) -> DataModel {
        var attributes: [AttributeDescription] = []
        for key in keys {
            attributes.append(AttributeDescription(name: key, type: try type(of: key), isOptional: true))
        }
        do throws(ModelError) {
            var model = try DataModel(name: entity, entities: [EntityDescription(name: entity, attributes: attributes)])
            model.isInferred = true
            return model
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

    /// What a CSV cell (not empty) looks like.
    private static func csvKind(_ cell: UnsafeBufferPointer<UInt8>, dates: ImportDateFormat.Parser?) -> Kind {
        let kind = CSVCellText.trimmed(cell).with { (text: UnsafeBufferPointer<UInt8>) -> Kind? in
            if text.isEmpty { return .string }
            if CSVCellText.int64(text) != nil { return .integer }
            if CSVCellText.isNumberText(text), CSVCellText.double(text) != nil { return .number }
            if CSVCellText.equalsIgnoringCase(text, "true") || CSVCellText.equalsIgnoringCase(text, "false") { return .boolean }
            return nil
        }
        if let kind { return kind }
        if dates == nil && !CSVCellText.mayBeISODate(cell) { return .string }
        return isDate(String(decoding: cell, as: UTF8.self), dates: dates) ? .date : .string
    }

    private func isDate(_ text: String) -> Bool {
        Self.isDate(text, dates: dates)
    }

    private static func isDate(_ text: String, dates: ImportDateFormat.Parser?) -> Bool {
        if let dates { return dates.date(from: text) != nil }
        return ISO8601.date(from: text) != nil
    }
}

/// The kinds of value a CSV column's cells have shown, each with the line it was first seen on.
private struct CSVColumnKinds {
    /// The `@id` column, which is not an attribute.
    let isID: Bool
    private(set) var firstLines: [(kind: ModelInference.Kind, line: Int)] = []
    /// The kinds in ``firstLines``, one bit each (by raw value): what most cells are seen against.
    private var kinds: UInt8 = 0
    /// Whether more cells can change nothing: the `@id` column, or one whose kinds make it a
    /// String (a string, or kinds that mix: in CSV, a column of one kind, or of integers and
    /// numbers, is typed by it; any other is text).
    private(set) var isSettled: Bool

    init(isID: Bool) {
        self.isID = isID
        isSettled = isID
    }

    mutating func see(_ kind: ModelInference.Kind, line: Int) {
        let bit: UInt8 = 1 << UInt8(kind.rawValue)
        guard kinds & bit == 0 else { return }
        kinds |= bit
        firstLines.append((kind, line))
        let kinds = Set(firstLines.map(\.kind))
        isSettled = kinds.contains(.string) || kinds.count > 2 || (kinds.count == 2 && kinds != [.integer, .number])
    }
}
