import Foundation
import SiftEvaluation
import SiftLanguage

/// Sift's JSON model format (docs/MODEL-JSON.md):
///
///     {"name": "Notes", "entities": [
///       {"name": "Note", "parent": null, "abstract": false,
///        "attributes": [{"name": "title", "type": "String", "optional": false, "default": null, "searchable": true}],
///        "relationships": [{"name": "category", "destination": "Category", "toMany": false,
///                           "inverse": "notes", "deleteRule": "nullify", "ordered": false, "optional": true}],
///        "indexes": [["title"]], "uniquenessConstraints": []}]}
///
/// Only `name` (entity, attribute, relationship), `type` and `destination` are required.
/// `"inferred": true` at the top marks a model inferred from data (``DataModel/isInferred``).
/// Defaults: `optional` true, `toMany` false, `deleteRule` nullify, `abstract`/`ordered`/`searchable`
/// false.
/// A default value is written as JSON: a number, string, boolean, or an ISO 8601 string for a
/// date, base64 for binary, a UUID string.
public enum JSONModelFormat {
    public static func read(_ data: Data, name fallbackName: String = "Model") throws(ModelError) -> DataModel {
        let root: Value
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(data)
        } catch {
            throw ModelError("model JSON: \(error)")
        }
        return try read(root, fallbackName: fallbackName)
    }

    static func read(_ root: Value, fallbackName: String) throws(ModelError) -> DataModel {
        let top = try object(root, "the model")
        try allowKeys(top, ["name", "inferred", "entities", "format", "version"], "the model")
        let name = try optionalString(top, "name", "the model") ?? fallbackName
        let inferred = try optionalBool(top, "inferred", "the model") ?? false
        guard case .array(let entityValues)? = top["entities"] else {
            throw ModelError("model JSON: \"entities\" must be an array of entities")
        }
        var entities: [EntityDescription] = []
        for (i, value) in entityValues.enumerated() {
            entities.append(try entity(value, position: i))
        }
        var model = try DataModel(name: name, entities: entities)
        model.isInferred = inferred
        return model
    }

    private static func entity(_ value: Value, position: Int) throws(ModelError) -> EntityDescription {
        let fields = try object(value, "entity #\(position + 1)")
        guard let name = try optionalString(fields, "name", "entity #\(position + 1)") else {
            throw ModelError("model JSON: entity #\(position + 1) has no \"name\"")
        }
        let place = "entity \(name)"
        try allowKeys(fields, ["name", "parent", "abstract", "attributes", "relationships", "indexes", "uniquenessConstraints", "representedClassName"], place)
        var attributes: [AttributeDescription] = []
        for item in try array(fields, "attributes", place) {
            attributes.append(try attribute(item, entity: name))
        }
        var relationships: [RelationshipDescription] = []
        for item in try array(fields, "relationships", place) {
            relationships.append(try relationship(item, entity: name))
        }
        return EntityDescription(
            name: name,
            parent: try optionalString(fields, "parent", place),
            isAbstract: try optionalBool(fields, "abstract", place) ?? false,
            attributes: attributes,
            relationships: relationships,
            indexes: try nameLists(fields, "indexes", place),
            uniquenessConstraints: try nameLists(fields, "uniquenessConstraints", place))
    }

    private static func attribute(_ value: Value, entity: String) throws(ModelError) -> AttributeDescription {
        let fields = try object(value, "an attribute of \(entity)")
        guard let name = try optionalString(fields, "name", "an attribute of \(entity)") else {
            throw ModelError("model JSON: an attribute of \(entity) has no \"name\"")
        }
        let place = "attribute \(entity).\(name)"
        try allowKeys(fields, ["name", "type", "optional", "default", "searchable"], place)
        guard let typeName = try optionalString(fields, "type", place) else { throw ModelError("model JSON: \(place) has no \"type\"") }
        guard let type = AttributeType(name: typeName) else {
            throw ModelError("model JSON: \(place): unknown type '\(typeName)' (types: \(AttributeType.allCases.map(\.name).joined(separator: ", ")))")
        }
        var defaultValue: Value?
        if let raw = fields["default"], !raw.isNull {
            do throws(AttributeValueError) {
                defaultValue = try AttributeCoercion.storedValue(raw, for: type)
            } catch {
                throw ModelError("model JSON: \(place): invalid default: \(error.message)")
            }
        }
        return AttributeDescription(name: name, type: type, isOptional: try optionalBool(fields, "optional", place) ?? true,
                                    defaultValue: defaultValue, isSearchable: try optionalBool(fields, "searchable", place) ?? false)
    }

    private static func relationship(_ value: Value, entity: String) throws(ModelError) -> RelationshipDescription {
        let fields = try object(value, "a relationship of \(entity)")
        guard let name = try optionalString(fields, "name", "a relationship of \(entity)") else {
            throw ModelError("model JSON: a relationship of \(entity) has no \"name\"")
        }
        let place = "relationship \(entity).\(name)"
        try allowKeys(fields, ["name", "destination", "toMany", "inverse", "deleteRule", "ordered", "optional", "minCount", "maxCount"], place)
        guard let destination = try optionalString(fields, "destination", place) else {
            throw ModelError("model JSON: \(place) has no \"destination\"")
        }
        var rule = DeleteRule.nullify
        if let ruleName = try optionalString(fields, "deleteRule", place) {
            guard let parsed = DeleteRule(name: ruleName) else {
                throw ModelError("model JSON: \(place): unknown deleteRule '\(ruleName)' (nullify, cascade, deny, noAction)")
            }
            rule = parsed
        }
        return RelationshipDescription(
            name: name, destination: destination,
            isToMany: try optionalBool(fields, "toMany", place) ?? false,
            inverse: try optionalString(fields, "inverse", place),
            deleteRule: rule,
            isOrdered: try optionalBool(fields, "ordered", place) ?? false,
            isOptional: try optionalBool(fields, "optional", place) ?? true,
            minCount: try optionalInt(fields, "minCount", place) ?? 0,
            maxCount: try optionalInt(fields, "maxCount", place) ?? 0)
    }

    // MARK: Writing

    /// The model in this format, pretty-printed, keys in a fixed order.
    public static func write(_ model: DataModel) -> String {
        JSONWriter.string(value(of: model), options: .prettyPrinted) + "\n"
    }

    static func value(of model: DataModel) -> Value {
        let entities: [Value] = model.entities.map { entity in
            var pairs: [(String, Value)] = [("name", .string(entity.name))]
            if let parent = entity.parent { pairs.append(("parent", .string(parent))) }
            if entity.isAbstract { pairs.append(("abstract", .bool(true))) }
            pairs.append(("attributes", .array(entity.ownAttributes.map { attribute in
                var a: [(String, Value)] = [("name", .string(attribute.name)), ("type", .string(attribute.type.name)),
                                            ("optional", .bool(attribute.isOptional))]
                if let d = attribute.defaultValue { a.append(("default", plainJSON(d))) }
                if attribute.isSearchable { a.append(("searchable", .bool(true))) }
                return .dictionary(ValueDictionary(a))
            })))
            pairs.append(("relationships", .array(entity.ownRelationships.map { r in
                var a: [(String, Value)] = [("name", .string(r.name)), ("destination", .string(r.destination)),
                                            ("toMany", .bool(r.isToMany))]
                if let inverse = r.inverse { a.append(("inverse", .string(inverse))) }
                a.append(("deleteRule", .string(r.deleteRule.rawValue)))
                if r.isOrdered { a.append(("ordered", .bool(true))) }
                a.append(("optional", .bool(r.isOptional)))
                if r.minCount != 0 { a.append(("minCount", .int(Int64(r.minCount)))) }
                if r.maxCount != 0 { a.append(("maxCount", .int(Int64(r.maxCount)))) }
                return .dictionary(ValueDictionary(a))
            })))
            if !entity.indexes.isEmpty { pairs.append(("indexes", .array(entity.indexes.map { .array($0.map(Value.string)) }))) }
            if !entity.uniquenessConstraints.isEmpty {
                pairs.append(("uniquenessConstraints", .array(entity.uniquenessConstraints.map { .array($0.map(Value.string)) })))
            }
            return .dictionary(ValueDictionary(pairs))
        }
        var pairs: [(String, Value)] = [("name", .string(model.name))]
        if model.isInferred { pairs.append(("inferred", .bool(true))) }
        pairs.append(("entities", .array(entities)))
        return .dictionary(ValueDictionary(pairs))
    }

    /// A stored value as plain JSON: dates as ISO 8601, data as base64, UUIDs and decimals as strings.
    static func plainJSON(_ value: Value) -> Value {
        switch value {
        case .date(let d): .string(ISO8601.string(from: d))
        case .data(let d): .string(d.base64EncodedString())
        case .uuid(let u): .string(u.uuidString)
        case .decimal(let d): .string(d.description)
        default: value
        }
    }

    // MARK: Field helpers

    private static func object(_ value: Value, _ place: String) throws(ModelError) -> ValueDictionary {
        guard case .dictionary(let d) = value else { throw ModelError("model JSON: \(place) must be an object, not \(value.kindName)") }
        return d
    }

    private static func allowKeys(_ fields: ValueDictionary, _ allowed: Set<String>, _ place: String) throws(ModelError) {
        for key in fields.keys where !allowed.contains(key) {
            var message = "model JSON: \(place): unknown field \"\(key)\""
            if let s = Suggestions.closest(to: key, in: allowed.sorted()) { message += "; did you mean \"\(s)\"?" }
            throw ModelError(message)
        }
    }

    private static func optionalString(_ fields: ValueDictionary, _ key: String, _ place: String) throws(ModelError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?: throw ModelError("model JSON: \(place): \"\(key)\" must be a string, not \(other.kindName)")
        }
    }

    private static func optionalBool(_ fields: ValueDictionary, _ key: String, _ place: String) throws(ModelError) -> Bool? {
        switch fields[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case let other?: throw ModelError("model JSON: \(place): \"\(key)\" must be true or false, not \(other.kindName)")
        }
    }

    private static func optionalInt(_ fields: ValueDictionary, _ key: String, _ place: String) throws(ModelError) -> Int? {
        switch fields[key] {
        case nil, .null?: return nil
        case .int(let i)? where i >= 0 && i <= Int64(Int32.max): return Int(i)
        case let other?: throw ModelError("model JSON: \(place): \"\(key)\" must be a non-negative integer, not \(other.kindName)")
        }
    }

    private static func array(_ fields: ValueDictionary, _ key: String, _ place: String) throws(ModelError) -> [Value] {
        switch fields[key] {
        case nil, .null?: return []
        case .array(let items)?: return items
        case let other?: throw ModelError("model JSON: \(place): \"\(key)\" must be an array, not \(other.kindName)")
        }
    }

    private static func nameLists(_ fields: ValueDictionary, _ key: String, _ place: String) throws(ModelError) -> [[String]] {
        var lists: [[String]] = []
        for item in try array(fields, key, place) {
            guard case .array(let names) = item else { throw ModelError("model JSON: \(place): \"\(key)\" must be an array of arrays of names") }
            var list: [String] = []
            for name in names {
                guard case .string(let s) = name else { throw ModelError("model JSON: \(place): \"\(key)\" must be an array of arrays of names") }
                list.append(s)
            }
            lists.append(list)
        }
        return lists
    }
}
