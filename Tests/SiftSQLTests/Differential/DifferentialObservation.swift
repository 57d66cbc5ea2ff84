import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// What one store answered to one request, reduced to what must be identical between stores:
/// the ordered object IDs (and, for object results, each object's values and relationships),
/// the count, the sections — or that it refused the request. Error messages are kept for the
/// report but never compared: two stores agree when both refuse.
struct DifferentialObservation: Sendable {
    enum Answer: Sendable {
        /// Object results: IDs in order, each with its values' fingerprint.
        case objects([ObjectID], fingerprints: [String])
        case objectIDs([ObjectID])
        case count(Int)
        /// Dictionary results: each row's keys and values as exact text, in order.
        case dictionaries([String])
        case error(String)
    }

    /// One section: name, index title, object IDs in order.
    struct Section: Sendable {
        var name: String
        var indexTitle: String
        var objectIDs: [ObjectID]
    }

    enum Sections: Sendable {
        case sections([Section], indexTitles: [String], warning: String?)
        case error(String)
    }

    var answer: Answer
    /// Only for requests with a section key path.
    var sections: Sections?

    /// Runs `request` on `store`: `execute` for the result type and, with a section key path,
    /// `fetchSections`.
    static func observe(_ request: FetchRequest, on store: any PersistentStore) -> DifferentialObservation {
        let answer: Answer
        do {
            switch try store.execute(request) {
            case .objects(let objects):
                answer = .objects(objects.objectIDs, fingerprints: objects.map(fingerprint))
            case .objectIDs(let ids):
                answer = .objectIDs(ids)
            case .count(let n):
                answer = .count(n)
            case .dictionaries(let rows):
                answer = .dictionaries(rows.map(fingerprint))
            }
        } catch {
            answer = .error(String(describing: error))
        }
        var sections: Sections?
        if request.sectionNameKeyPath != nil {
            do {
                let result = try store.fetchSections(request)
                sections = .sections(result.sections.map { Section(name: $0.name, indexTitle: $0.indexTitle, objectIDs: $0.objects.objectIDs) },
                                     indexTitles: result.sectionIndexTitles, warning: result.warning)
            } catch {
                sections = .error(String(describing: error))
            }
        }
        return DifferentialObservation(answer: answer, sections: sections)
    }

    /// An object's entity, attribute values and relationships as exact text: strings by their
    /// Unicode scalars (NFC and NFD differ), doubles in their shortest form (`-0.0` differs
    /// from `0.0`), the kind of each value spelt out (`int 1` differs from `double 1.0`), to-many
    /// destinations as a sorted set.
    static func fingerprint(_ object: ManagedObject) -> String {
        var parts = [object.entityName]
        for (name, value) in object.attributeValues.pairs {
            parts.append("\(name)=\(exactText(value))")
        }
        for relationship in object.relationshipIDs {
            let ids = relationship.ids.map(\.rawValue)
            parts.append("\(relationship.name)=" + (relationship.isToMany ? "[" + ids.sorted().joined(separator: ",") + "]" : (ids.first ?? "nil")))
        }
        return parts.joined(separator: " ")
    }

    /// A dictionary row's keys and values in order, values as ``exactText(_:)``.
    static func fingerprint(_ row: ValueDictionary) -> String {
        "{" + row.pairs.map { "\($0.0)=\(exactText($0.1))" }.joined(separator: ", ") + "}"
    }

    static func exactText(_ value: Value) -> String {
        switch value {
        case .null: "nil"
        case .bool(let b): "bool \(b)"
        case .int(let i): "int \(i)"
        case .double(let d): "double \(d.description)"
        case .decimal(let d): "decimal \(d)"
        case .string(let s): "string \(scalarText(s))"
        case .date(let d): "date \(d.timeIntervalSinceReferenceDate.description)"
        case .data(let d): "data \(d.base64EncodedString())"
        case .uuid(let u): "uuid \(u.uuidString)"
        default: "\(value.kindName) \(ValueText.text(value))"
        }
    }

    /// A string with every non-ASCII scalar as `\u{...}`, so texts compare scalar by scalar
    /// (Swift's `==` on strings would call `é` and `e` + U+0301 equal).
    static func scalarText(_ s: String) -> String {
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

    // MARK: Comparing

    /// How `candidate` differs from `self` (the reference), or nil when they agree.
    func difference(from candidate: DifferentialObservation) -> String? {
        if let difference = Self.difference(answer, candidate.answer) { return difference }
        switch (sections, candidate.sections) {
        case (nil, nil): return nil
        case (let a?, let b?): return Self.difference(a, b)
        default: return "one store returned sections and the other did not"
        }
    }

    private static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    private static func same(_ a: [ObjectID], _ b: [ObjectID]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { same($0.rawValue, $1.rawValue) }
    }

    private static func difference(_ a: Answer, _ b: Answer) -> String? {
        switch (a, b) {
        case (.error, .error):
            return nil
        case (.error(let message), _):
            return "the reference refused the request (\(message)) and the candidate answered"
        case (_, .error(let message)):
            return "the candidate refused the request (\(message)) and the reference answered"
        case (.count(let x), .count(let y)):
            return x == y ? nil : "count \(x) ≠ \(y)"
        case (.objectIDs(let x), .objectIDs(let y)):
            return same(x, y) ? nil : "object IDs differ: \(idList(x)) ≠ \(idList(y))"
        case (.dictionaries(let x), .dictionaries(let y)):
            if x.count != y.count { return "\(x.count) dictionaries ≠ \(y.count):\n    reference: \(x.joined(separator: " "))\n    candidate: \(y.joined(separator: " "))" }
            for (index, (p, q)) in zip(x, y).enumerated() where !same(p, q) {
                return "dictionary \(index) differs:\n    reference: \(p)\n    candidate: \(q)"
            }
            return nil
        case (.objects(let x, let fx), .objects(let y, let fy)):
            guard same(x, y) else { return "objects differ: \(idList(x)) ≠ \(idList(y))" }
            for (index, (p, q)) in zip(fx, fy).enumerated() where !same(p, q) {
                return "object \(x[index]) differs:\n    reference: \(p)\n    candidate: \(q)"
            }
            return nil
        default:
            return "different result kinds: \(describe(a)) ≠ \(describe(b))"
        }
    }

    private static func difference(_ a: Sections, _ b: Sections) -> String? {
        switch (a, b) {
        case (.error, .error): return nil
        case (.error(let message), _): return "the reference refused the sections (\(message)) and the candidate answered"
        case (_, .error(let message)): return "the candidate refused the sections (\(message)) and the reference answered"
        case (.sections(let x, let tx, let wx), .sections(let y, let ty, let wy)):
            if x.count != y.count {
                return "\(x.count) sections ≠ \(y.count): \(x.map { scalarText($0.name) }.joined(separator: ", ")) ≠ \(y.map { scalarText($0.name) }.joined(separator: ", "))"
            }
            for (p, q) in zip(x, y) {
                if !same(p.name, q.name) { return "section name \(scalarText(p.name)) ≠ \(scalarText(q.name))" }
                if !same(p.indexTitle, q.indexTitle) { return "section \(scalarText(p.name)): index title \(scalarText(p.indexTitle)) ≠ \(scalarText(q.indexTitle))" }
                if !same(p.objectIDs, q.objectIDs) {
                    return "section \(scalarText(p.name)): \(p.objectIDs.count) objects \(idList(p.objectIDs)) ≠ \(q.objectIDs.count) objects \(idList(q.objectIDs))"
                }
            }
            if tx.count != ty.count || zip(tx, ty).contains(where: { !same($0, $1) }) {
                return "section index titles \(tx.map(scalarText)) ≠ \(ty.map(scalarText))"
            }
            if (wx == nil) != (wy == nil) {
                return "section warning: \(wx.map { "\"\($0)\"" } ?? "none") ≠ \(wy.map { "\"\($0)\"" } ?? "none")"
            }
            return nil
        }
    }

    // MARK: Describing

    static func idList(_ ids: [ObjectID]) -> String { "[" + ids.map(\.rawValue).joined(separator: ", ") + "]" }

    static func describe(_ answer: Answer) -> String {
        switch answer {
        case .objects(let ids, _): "objects \(idList(ids))"
        case .objectIDs(let ids): "objectIDs \(idList(ids))"
        case .count(let n): "count \(n)"
        case .dictionaries(let rows): "dictionaries [" + rows.joined(separator: ", ") + "]"
        case .error(let message): "error: \(message)"
        }
    }

    /// The observation as report text.
    var description: String {
        var text = Self.describe(answer)
        switch sections {
        case nil: break
        case .error(let message)?: text += "\n    sections: error: \(message)"
        case .sections(let list, _, let warning)?:
            let parts = list.map { "\(Self.scalarText($0.name)) (\(Self.scalarText($0.indexTitle))): \(Self.idList($0.objectIDs))" }
            text += "\n    sections: " + (parts.isEmpty ? "none" : parts.joined(separator: "; "))
            if let warning { text += "\n    warning: \(warning)" }
        }
        return text
    }

    var isError: Bool {
        if case .error = answer { return true }
        return false
    }
}
