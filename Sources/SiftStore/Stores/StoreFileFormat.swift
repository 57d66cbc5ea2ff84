import Foundation
import SiftEvaluation
import SiftLanguage

/// The atomic stores' files (docs/STORES.md). Both hold one document:
///
///     {"sift": "store", "version": 1, "model": <the model, Sift's JSON model format>,
///      "objects": [{"@entity": "Note", "@id": "N1", "title": "…", "createdAt": {"$date": "…"},
///                   "category": "C1", "tags": ["T1", "T2"]}, …]}
///
/// Objects are listed in insertion order (the order that breaks sort ties), each with every
/// attribute (null for nil; a date that ISO 8601 text cannot hold exactly also carries its
/// seconds since 2001, `{"$date": "…", "$seconds": 636000000.1234568}`; infinities are
/// `{"$double": "1e999"}` and `{"$double": "-1e999"}`) and every
/// relationship (an ID or null; an array of IDs). The
/// binary store writes the same document as a binary property list, with the model as JSON
/// text (property lists have no null: nil attributes are left out).
enum StoreFileFormat {
    static let formatName = "store"
    static let version: Int64 = 1

    // MARK: Writing

    static func jsonData(_ graph: ObjectGraph) -> Data {
        var pairs: [(String, Value)] = [("sift", .string(formatName)), ("version", .int(version))]
        pairs.append(("model", JSONModelFormat.value(of: graph.model)))
        pairs.append(("objects", .array(graph.objects.compactMap { $0.map { document(of: $0, graph: graph, plist: false) } })))
        var bytes: [UInt8] = []
        JSONWriter.write(.dictionary(ValueDictionary(pairs)), to: &bytes, options: .prettyPrinted)
        bytes.append(UInt8(ascii: "\n"))
        return Data(bytes)
    }

    static func propertyListData(_ graph: ObjectGraph) throws(StoreError) -> Data {
        let objects: [Value] = graph.objects.compactMap { $0.map { document(of: $0, graph: graph, plist: true) } }
        let root: [(String, Value)] = [("sift", .string(formatName)), ("version", .int(version)), ("model", .string(JSONModelFormat.write(graph.model))),
                                       ("objects", .array(objects))]
        return BinaryPropertyListWriter.data(.dictionary(ValueDictionary(root)))
    }

    private static func document(of object: StoredObject, graph: ObjectGraph, plist: Bool) -> Value {
        let entity = graph.model.entities[object.entity]
        var pairs: [(String, Value)] = [("@entity", .string(entity.name)), ("@id", .string(object.id.rawValue))]
        for (slot, attribute) in entity.attributes.enumerated() {
            let value = object.attributes[slot]
            if plist && value.isNull { continue }
            pairs.append((attribute.name, plist ? value : exactJSON(value)))
        }
        for (slot, relationship) in entity.relationships.enumerated() {
            let ids = object.relationships[slot].compactMap { graph.objects[$0]?.id.rawValue }
            if relationship.isToMany {
                pairs.append((relationship.name, .array(ids.map(Value.string))))
            } else if let id = ids.first {
                pairs.append((relationship.name, .string(id)))
            } else if !plist {
                pairs.append((relationship.name, .null))
            }
        }
        return .dictionary(ValueDictionary(pairs))
    }

    /// A date whose ISO 8601 text (microseconds, years 0...9999) does not read back as the
    /// same date is written with its exact seconds since 2001 as well:
    /// `{"$date": "2021-02-26T02:40:00.123457Z", "$seconds": 636000000.1234568}`, so a JSON
    /// store keeps every date exactly, as the binary store does.
    /// JSON has no infinities: they are written `{"$double": "1e999"}` / `{"$double": "-1e999"}`.
    private static func exactJSON(_ value: Value) -> Value {
        if case .double(let d) = value, d.isInfinite {
            return .dictionary(ValueDictionary([("$double", .string(d > 0 ? "1e999" : "-1e999"))]))
        }
        guard case .date(let date) = value else { return value }
        let text = ISO8601.string(from: date)
        if let read = ISO8601.date(from: text), read == date { return value }
        return .dictionary(ValueDictionary([("$date", .string(text)), ("$seconds", .double(date.timeIntervalSinceReferenceDate))]))
    }

    /// Reads the exact form of ``exactJSON(_:)``; other values are returned as they are.
    private static func readExactJSON(_ value: Value) -> Value {
        if case .dictionary(let fields) = value, fields.count == 1, case .string(let text)? = fields["$double"],
           let d = Double(text), d.isInfinite {
            return .double(d)
        }
        guard case .dictionary(let fields) = value, fields.count == 2, case .string? = fields["$date"] else { return value }
        switch fields["$seconds"] {
        case .double(let seconds)?: return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .int(let seconds)?: return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        default: return value
        }
    }

    // MARK: Reading

    static func readJSON(_ data: Data, path: String) throws(StoreError) -> ObjectGraph {
        let root: Value
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(data)
        } catch {
            throw corrupt(path, "not JSON: \(error)")
        }
        return try read(root, path: path)
    }

    static func readPropertyList(_ data: Data, path: String) throws(StoreError) -> ObjectGraph {
        guard data.starts(with: Array("bplist".utf8)) else { throw corrupt(path, "not a binary property list") }
        let root: Value
        do throws(BinaryPropertyListReader.Failure) {
            root = try BinaryPropertyListReader.read(data)
        } catch {
            throw corrupt(path, "it is a damaged binary property list (\(error.message)); restore a copy, or make the store again with 'sift import'")
        }
        guard case .dictionary(var top) = root else { throw corrupt(path, "the property list is not a dictionary") }
        // The model is JSON text inside the property list.
        guard case .string(let modelText)? = top["model"] else { throw corrupt(path, "no model") }
        top["model"] = nil
        let model: DataModel
        do throws(ModelError) {
            model = try JSONModelFormat.read(Data(modelText.utf8))
        } catch {
            throw corrupt(path, error.message)
        }
        return try read(.dictionary(top), path: path, model: model)
    }

    private static func read(_ root: Value, path: String, model knownModel: DataModel? = nil) throws(StoreError) -> ObjectGraph {
        guard case .dictionary(let top) = root, case .string(formatName)? = top["sift"] else {
            throw corrupt(path, "not a Sift store (no \"sift\": \"store\" marker)")
        }
        guard case .int(let v)? = top["version"], v == version else {
            throw corrupt(path, "unsupported store version \(top["version"].map(ValueText.text) ?? "(none)") (this Sift reads version \(version))")
        }
        let model: DataModel
        if let knownModel {
            model = knownModel
        } else {
            guard let modelValue = top["model"] else { throw corrupt(path, "no model") }
            do throws(ModelError) {
                model = try JSONModelFormat.read(modelValue, fallbackName: "Model")
            } catch {
                throw corrupt(path, error.message)
            }
        }
        guard case .array(let objects)? = top["objects"] else { throw corrupt(path, "no \"objects\" array") }
        var graph = ObjectGraph(model: model)
        var links: [(ObjectID, [String: [ObjectID]])] = []
        do throws(StoreError) {
            // Objects of one entity usually come together: it is looked up once a run.
            var position = -1
            for (index, item) in objects.enumerated() {
                guard case .dictionary(let fields) = item, case .string(let entityName)? = fields["@entity"],
                      case .string(let id)? = fields["@id"] else {
                    throw corrupt(path, "object #\(index + 1) has no valid @entity and @id")
                }
                if position < 0 || model.entities[position].name != entityName {
                    guard let found = model.entityPosition(named: entityName) else {
                        throw corrupt(path, "object #\(index + 1) has no valid @entity and @id")
                    }
                    position = found
                }
                let entity = model.entities[position]
                // Every attribute, by slot: those missing from the file are nil (not defaulted:
                // the file is the state).
                var attributes = [Value?](repeating: nil, count: entity.attributes.count)
                var relationships: [String: [ObjectID]] = [:]
                for (key, value) in zip(fields.keys, fields.values) where key.utf8.first != UInt8(ascii: "@") {
                    switch entity.slot(of: key) {
                    case .attribute(let slot):
                        guard attributes[slot] == nil else { throw corrupt(path, "\(entityName) '\(id)' has '\(key)' twice") }
                        attributes[slot] = readExactJSON(value)
                    case .relationship:
                        switch value {
                        case .null: relationships[key] = []
                        case .dictionary(let d) where d.count == 0: relationships[key] = []
                        case .string(let s): relationships[key] = [ObjectID(s)]
                        case .array(let items), .set(let items):
                            relationships[key] = items.compactMap { if case .string(let s) = $0 { ObjectID(s) } else { nil } }
                        default: throw corrupt(path, "\(entityName) '\(id)': relationship \(key) is not an ID or a list of IDs")
                        }
                    case nil: throw corrupt(path, "\(entityName) '\(id)' has unknown key '\(key)'")
                    }
                }
                let values = attributes.enumerated().map { SlotValue(slot: $0.offset, value: $0.element ?? .null) }
                try graph.insertObject(entityPosition: position, id: ObjectID(id), values: values)
                links.append((ObjectID(id), relationships))
            }
            for (id, relationships) in links where !relationships.isEmpty {
                try graph.update(id, relationships: relationships)
            }
        } catch {
            throw error.code == .corruptStore ? error : corrupt(path, error.message)
        }
        return graph
    }

    private static func corrupt(_ path: String, _ message: String) -> StoreError {
        StoreError(.corruptStore, "\(path) is not a valid Sift store: \(message)")
    }
}
