import Foundation
import Sift

/// What a store answered to a fetch, reduced to what two engines must agree on — the rules of
/// the differential tests (Tests/SiftSQLTests/Differential/DifferentialObservation.swift): the
/// object IDs in order, each object's attribute values and relationships as exact text, counts,
/// dictionary rows, sections; or an error (whose message is never compared).
public struct FuzzObservation: CustomStringConvertible {
    public enum Answer {
        case lines([String])
        case error(String)
    }

    public var answer: Answer
    /// Sections, for a request with a section key path.
    public var sections: Answer?

    public var isError: Bool {
        if case .error = answer { return true }
        return false
    }

    /// Runs `request` on `store` (and, with a section key path, its sections).
    public static func observe(_ request: FetchRequest, on store: any PersistentStore) -> FuzzObservation {
        let answer: Answer
        do {
            answer = .lines(try lines(of: store.execute(request)))
        } catch {
            answer = .error(String(describing: error))
        }
        var sections: Answer?
        if request.sectionNameKeyPath != nil {
            do {
                let result = try store.fetchSections(request)
                var lines = result.sections.map { "section \(scalarText($0.name)) \(scalarText($0.indexTitle)) \(idList($0.objects.objectIDs))" }
                lines.append("index titles \(result.sectionIndexTitles.map(scalarText))")
                lines.append(result.warning == nil ? "no warning" : "warning")
                sections = .lines(lines)
            } catch {
                sections = .error(String(describing: error))
            }
        }
        return FuzzObservation(answer: answer, sections: sections)
    }

    static func lines(of result: FetchResult) throws -> [String] {
        switch result {
        case .objects(let objects):
            var lines: [String] = []
            try objects.forEachObject { lines.append(fingerprint($0)) }
            return lines
        case .objectIDs(let ids): return ids.map { "id " + scalarText($0.rawValue) }
        case .count(let n): return ["count \(n)"]
        case .dictionaries(let rows): return rows.map(fingerprint)
        }
    }

    /// The objects of an entity (sub-entities included), fingerprinted, in the store's order.
    /// `maskingIDs`: object IDs are left out, and relationships say only how many objects they
    /// hold (for objects with generated IDs, which differ between stores: the atomic store counts
    /// the IDs it made, the SQLite store uses the row's key).
    public static func contents(of entity: String, in store: any PersistentStore, maskingIDs: Bool = false) -> Answer {
        do {
            guard maskingIDs else { return .lines(try lines(of: store.execute(FetchRequest(entityName: entity)))) }
            var lines: [String] = []
            try store.fetch(FetchRequest(entityName: entity)).forEachObject { lines.append(fingerprint($0, maskingIDs: true)) }
            return .lines(lines)
        } catch {
            return .error(String(describing: error))
        }
    }

    /// Whether an object ID looks generated (`o` and digits).
    public static func looksGenerated(_ id: ObjectID) -> Bool {
        let text = id.rawValue.utf8
        return text.count > 1 && text.first == UInt8(ascii: "o") && text.dropFirst().allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The objects of every entity of the store's model.
    public static func contents(of store: any PersistentStore) -> [Answer] {
        store.model.entities.map { contents(of: $0.name, in: store) }
    }

    /// An object's entity, ID, attribute values and relationships as exact text (to-many
    /// destinations as a sorted set).
    public static func fingerprint(_ object: ManagedObject, maskingIDs: Bool = false) -> String {
        var parts = [object.entityName, maskingIDs ? "?" : scalarText(object.objectID.rawValue)]
        for (name, value) in object.attributeValues.pairs {
            parts.append("\(name)=\(exactText(value))")
        }
        for relationship in object.relationshipIDs {
            if maskingIDs {
                parts.append("\(relationship.name)=\(relationship.ids.count) objects")
                continue
            }
            let ids = relationship.ids.map { scalarText($0.rawValue) }
            parts.append("\(relationship.name)=" + (relationship.isToMany ? "[" + ids.sorted().joined(separator: ",") + "]" : (ids.first ?? "nil")))
        }
        return parts.joined(separator: " ")
    }

    public static func fingerprint(_ row: ValueDictionary) -> String {
        "{" + row.pairs.map { "\($0.0)=\(exactText($0.1))" }.joined(separator: ", ") + "}"
    }

    /// A value as exact text: the kind spelt out (`int 1` is not `double 1.0`), doubles in their
    /// shortest form (`-0.0` is not `0.0`), strings scalar by scalar.
    public static func exactText(_ value: Value) -> String {
        switch value {
        case .null: "nil"
        case .bool(let b): "bool \(b)"
        case .int(let i): "int \(i)"
        case .double(let d): "double \(d.description)"
        // Exactly: the SQLite store keeps a decimal as its text (docs/STORES.md).
        case .decimal(let d): "decimal \(d)"
        case .string(let s): "string \(scalarText(s))"
        case .date(let d): "date \(d.timeIntervalSinceReferenceDate.description)"
        case .data(let d): "data \(d.base64EncodedString())"
        case .uuid(let u): "uuid \(u.uuidString)"
        case .array(let elements): "array [" + elements.map(exactText).joined(separator: ", ") + "]"
        case .set(let elements): "set {" + elements.map(exactText).sorted().joined(separator: ", ") + "}"
        case .dictionary(let d): "dictionary " + fingerprint(d)
        default: "\(value.kindName) \(ValueText.text(value))"
        }
    }

    /// A string with every scalar outside printable ASCII as `\u{...}` (so `é` and `e` + U+0301
    /// differ, as they do in a store).
    public static func scalarText(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            if scalar.isASCII, scalar.value >= 0x20, scalar != "\\", scalar != "\"" {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out + "\""
    }

    static func idList(_ ids: [ObjectID]) -> String { "[" + ids.map { scalarText($0.rawValue) }.joined(separator: ",") + "]" }

    public var description: String {
        var text = Self.describe(answer)
        if let sections { text += "\n  sections: " + Self.describe(sections) }
        return text
    }

    static func describe(_ answer: Answer) -> String {
        switch answer {
        case .error(let message): "error: \(message)"
        case .lines(let lines): lines.isEmpty ? "(nothing)" : lines.prefix(40).joined(separator: "\n    ")
        }
    }

    /// How two answers differ (nil: they agree). Two errors agree whatever they say.
    public static func difference(_ a: Answer, _ b: Answer) -> String? {
        switch (a, b) {
        case (.error, .error): return nil
        case (.error, .lines), (.lines, .error): return "one side failed and the other answered"
        case (.lines(let x), .lines(let y)):
            if x.count != y.count { return "\(x.count) lines ≠ \(y.count)" }
            for (index, (p, q)) in zip(x, y).enumerated() where !p.utf8.elementsEqual(q.utf8) {
                return "line \(index + 1) differs:\n    \(p)\n    \(q)"
            }
            return nil
        }
    }
}
