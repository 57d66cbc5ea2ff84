import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore

/// What an operation did on one store: a result, a `StoreError` (code and message), another
/// error, or a unit's changes one by one and then the unit's own result.
indirect enum ChangeOutcome: Equatable, CustomStringConvertible {
    case done(String)
    case failed(code: String, message: String)
    case error(String)
    case unit(steps: [ChangeOutcome], result: ChangeOutcome)

    init(_ error: any Error) {
        switch error {
        case let error as StoreError: self = .failed(code: error.code.description, message: error.message)
        case is ChangeSequenceAbort: self = .error("Abort()")
        default: self = .error("\(type(of: error)): \(error)")
        }
    }

    /// The outcome with every text passed through `transform` (IDs mapped between stores).
    func mapText(_ transform: (String) -> String) -> ChangeOutcome {
        switch self {
        case .done(let text): .done(transform(text))
        case .failed(let code, let message): .failed(code: code, message: transform(message))
        case .error(let text): .error(transform(text))
        case .unit(let steps, let result): .unit(steps: steps.map { $0.mapText(transform) }, result: result.mapText(transform))
        }
    }

    var isFailure: Bool {
        switch self {
        case .done: false
        case .failed, .error: true
        case .unit(_, let result): result.isFailure
        }
    }

    /// The codes of every StoreError in the outcome (for the run's statistics).
    var errorCodes: [String] {
        switch self {
        case .done, .error: []
        case .failed(let code, _): [code]
        case .unit(let steps, let result): steps.flatMap(\.errorCodes) + result.errorCodes
        }
    }

    var description: String {
        switch self {
        case .done(let text): text
        case .failed(let code, let message): "StoreError(.\(code)): \(message)"
        case .error(let text): "error: \(text)"
        case .unit(let steps, let result):
            "performChanges → \(result)" + steps.enumerated().map { "\n        change \($0.offset + 1): \($0.element)" }.joined()
        }
    }
}

/// The error a unit's body throws to undo the unit.
struct ChangeSequenceAbort: Error {}

/// The dictionaries an operation passes the store API, built once and handed to both stores
/// in the same order (the candidate's relationship IDs mapped with `mapValues`, which keeps the
/// order). A change with two faults fails on whichever comes first in its dictionary, and a
/// Swift dictionary's order differs from one instance to another (per-instance hash seeds):
/// dictionaries built separately for each store would make them fail differently.
final class ChangeSequenceDictionaries {
    private var built: [Any] = []
    private var next = 0

    init() {}

    private init(replaying built: [Any]) { self.built = built }

    /// The same dictionaries again, in the order they were built.
    func replaying() -> ChangeSequenceDictionaries { ChangeSequenceDictionaries(replaying: built) }

    private func take<T>(_ make: () throws -> T) rethrows -> T {
        defer { next += 1 }
        if next < built.count, let made = built[next] as? T { return made }
        let made = try make()
        if next < built.count { built[next] = made } else { built.append(made) }
        return made
    }

    func attributes(_ fields: [ChangeOperation.Field]) -> [String: Value] {
        take {
            var values: [String: Value] = [:]
            for field in fields { values[field.key] = field.value }
            return values
        }
    }

    func relationships(_ links: [ChangeOperation.Link]) -> [String: [ObjectID]] {
        take {
            var relationships: [String: [ObjectID]] = [:]
            for link in links { relationships[link.key] = link.ids }
            return relationships
        }
    }

    func assignments(_ assignments: [(key: String, expression: String)]) throws -> [String: ExpressionNode] {
        try take {
            var set: [String: ExpressionNode] = [:]
            for (key, expression) in assignments { set[key] = try ExpressionNode(format: expression) }
            return set
        }
    }
}

/// One of the two stores of a change sequence, with its file (it can be closed and reopened).
final class ChangeSequenceStore {
    enum Kind { case json, sqlite }

    let kind: Kind
    let url: URL
    private(set) var store: (any PersistentStore)?

    init(kind: Kind, url: URL, model: DataModel) throws {
        self.kind = kind
        self.url = url
        switch kind {
        case .json: store = try AtomicStore.create(at: url, model: model)
        case .sqlite: store = try SQLiteStore.create(at: url, model: model)
        }
    }

    var name: String { kind == .json ? "JSON AtomicStore" : "SQLiteStore" }

    /// Closes the store (dropping it: SQLite closes its connection, rolling back what was not
    /// saved) and opens its file again.
    func reopen() throws {
        store = nil
        switch kind {
        case .json: store = try AtomicStore.open(at: url)
        case .sqlite: store = try SQLiteStore.open(at: url)
        }
    }

    func close() { store = nil }

    /// Applies an operation; `translate` maps the IDs it names to this store's IDs, and
    /// `generated` collects the IDs this store gave objects inserted without one, in order.
    /// `dictionaries` hands both stores the same dictionary instances (see
    /// ``ChangeSequenceDictionaries``).
    func apply(_ operation: ChangeOperation, translate: (ObjectID) -> ObjectID, generated: inout [ObjectID],
               dictionaries: ChangeSequenceDictionaries) -> (ChangeOutcome, (any Error)?) {
        guard let store else { return (.error("the store is closed"), nil) }
        func values(_ fields: [ChangeOperation.Field]) -> [String: Value] { dictionaries.attributes(fields) }
        func links(_ links: [ChangeOperation.Link]) -> [String: [ObjectID]] { dictionaries.relationships(links).mapValues { $0.map(translate) } }
        do {
            switch operation {
            case .insert(let entity, let id, let attributes, let relationships):
                let result = Result { () throws(StoreError) -> ObjectID in
                    try store.insert(entity: entity, id: id.map(translate), attributes: values(attributes), relationships: links(relationships))
                }
                switch result {
                case .success(let inserted):
                    if id == nil { generated.append(inserted) }
                    return (.done("inserted '\(inserted)'"), nil)
                case .failure(let error):
                    guard id == nil, let newID = error.objectID else { throw error }
                    // The ID the store generated for the refused object: the stores generate
                    // different ones.
                    let message = error.message.replacingOccurrences(of: "'\(newID)'", with: "'<new ID>'")
                    let rewritten = StoreError(error.code, message, entity: error.entity, key: error.key)
                    return (.failed(code: error.code.description, message: message), rewritten)
                }
            case .update(let id, let attributes, let relationships):
                try store.update(translate(id), attributes: values(attributes), relationships: links(relationships))
                return (.done("updated"), nil)
            case .delete(let id):
                try store.delete(translate(id))
                return (.done("deleted"), nil)
            case .batchUpdate(let entity, let predicate, let assignments):
                let set = try dictionaries.assignments(assignments)
                let count = try store.batchUpdate(entity: entity, predicate: try predicate.map { try PredicateNode(format: $0) }, set: set)
                return (.done("batch updated \(count)"), nil)
            case .batchDelete(let entity, let predicate):
                let count = try store.batchDelete(entity: entity, predicate: try predicate.map { try PredicateNode(format: $0) })
                return (.done("batch deleted \(count)"), nil)
            case .save:
                try store.save()
                return (.done("saved"), nil)
            case .rollback:
                store.rollback()
                return (.done("rolled back"), nil)
            case .unit(let body, let propagatesErrors, let abortsAtEnd):
                var steps: [ChangeOutcome] = []
                do {
                    try store.performChanges {
                        for change in body {
                            let (outcome, error) = apply(change, translate: translate, generated: &generated, dictionaries: dictionaries)
                            steps.append(outcome)
                            if propagatesErrors, let error { throw error }
                        }
                        if abortsAtEnd { throw ChangeSequenceAbort() }
                    }
                    return (.unit(steps: steps, result: .done("ok")), nil)
                } catch {
                    return (.unit(steps: steps, result: ChangeOutcome(error)), error)
                }
            case .reopen(let saveFirst):
                if saveFirst { try store.save() }
                try reopen()
                return (.done(saveFirst ? "saved and reopened" : "reopened"), nil)
            }
        } catch {
            return (ChangeOutcome(error), error)
        }
    }

    // MARK: Reading

    /// Every object of every entity (sub-entities included), in insertion order: ID, entity,
    /// attribute values (typed) and relationship destinations (to-many in order). IDs are
    /// quoted, so they can be mapped.
    func contents(model: DataModel) -> [String] {
        guard let store else { return ["(closed)"] }
        var lines: [String] = []
        for entity in model.entities {
            do {
                for object in try store.fetch(FetchRequest(entityName: entity.name)) {
                    let objectEntity = model.entity(named: object.entityName) ?? entity
                    let attributes = objectEntity.attributes.map { "\($0.name)=\(Self.text(object[attribute: $0.name] ?? .null))" }
                    let relationships = object.relationshipIDs.map { relationship in
                        "\(relationship.name)\(relationship.isToMany ? "*" : "")→[" + relationship.ids.map { "'\($0)'" }.joined(separator: ",") + "]"
                    }
                    lines.append("\(entity.name): \(object.entityName) '\(object.objectID)' " + (attributes + relationships).joined(separator: " "))
                }
            } catch {
                lines.append("\(entity.name): fetch failed: \(error)")
            }
        }
        return lines
    }

    /// The IDs each check fetch returns, one line per fetch.
    func checkFetches() -> [String] {
        guard let store else { return ["(closed)"] }
        return ChangeSequenceModel.checkFetches.filter { store.model.entity(named: $0.entity) != nil }.map { fetch in
            do {
                let request = FetchRequest(entityName: fetch.entity, predicate: try PredicateNode(format: fetch.predicate))
                let ids = try store.fetch(request).objectIDs
                return "\(fetch.entity) WHERE \(fetch.predicate): [" + ids.map { "'\($0)'" }.joined(separator: ", ") + "]"
            } catch {
                return "\(fetch.entity) WHERE \(fetch.predicate): error \(error)"
            }
        }
    }

    /// The IDs of each root entity's objects, in insertion order (compared after every step).
    func objectIDs() -> [String] {
        guard let store else { return ["(closed)"] }
        return Self.rootEntities(of: store.model).map { entity in
            do {
                return "\(entity): [" + (try store.fetch(FetchRequest(entityName: entity)).objectIDs.map { "'\($0)'" }.joined(separator: ", ")) + "]"
            } catch {
                return "\(entity): error \(error)"
            }
        }
    }

    /// The live objects with their entities, in insertion order.
    func liveObjects() -> [ChangeSequenceGenerator.LiveObject] {
        guard let store else { return [] }
        var objects: [ChangeSequenceGenerator.LiveObject] = []
        for entity in Self.rootEntities(of: store.model) {
            guard let fetched = try? store.fetch(FetchRequest(entityName: entity)) else { continue }
            for object in fetched { objects.append(.init(id: object.objectID, entity: object.entityName)) }
        }
        return objects
    }

    /// The entities without a parent: fetched with their sub-entities, every object once.
    static func rootEntities(of model: DataModel) -> [String] {
        model.entities.filter { $0.parent == nil }.map(\.name)
    }

    /// A value with its type, exactly (1 and 1.0 differ; dates to the bit).
    static func text(_ value: Value) -> String {
        switch value {
        case .null: "nil"
        case .bool(let b): "bool:\(b)"
        case .int(let i): "int:\(i)"
        case .double(let d): "double:\(d)"
        case .string(let s): "string:" + ChangeOperation.literal(s)
        case .date(let d): "date:\(d.timeIntervalSinceReferenceDate)"
        default: "\(value.kindName):\(value)"
        }
    }
}

/// A disagreement between the two stores.
struct ChangeMismatch: CustomStringConvertible {
    /// What disagreed (`outcome of insert`, `hasChanges`, `contents`, ...): the shrinker keeps
    /// a smaller sequence only if it fails the same way.
    var category: String
    var detail: String

    var description: String { "\(category): \(detail)" }
}

/// The two stores of a sequence (a JSON store, the reference, and a SQLite store), the map
/// between the IDs they generate, and the comparisons.
final class ChangeSequencePair {
    let model: DataModel
    let reference: ChangeSequenceStore
    let candidate: ChangeSequenceStore
    /// Every pair of IDs the two stores generated for the same object (an insert without an
    /// ID), in order. A store may give a generated ID again once its object is deleted, and a
    /// rollback may bring that object back, so the maps below are worked out again after each
    /// operation from the pairs whose objects are live.
    private var pairs: [(reference: ObjectID, candidate: ObjectID)] = []
    /// Reference ID → SQLite ID, and back, for live objects inserted without an ID.
    private var forward: [ObjectID: ObjectID] = [:]
    private var backward: [ObjectID: ObjectID] = [:]
    /// Compare every object after every operation (not only after saves and rollbacks).
    var checksContentsEveryStep = false

    init(model: DataModel, directory: URL, name: String) throws {
        self.model = model
        reference = try ChangeSequenceStore(kind: .json, url: directory.appendingPathComponent("\(name).json"), model: model)
        candidate = try ChangeSequenceStore(kind: .sqlite, url: directory.appendingPathComponent("\(name).sqlite"), model: model)
    }

    func close() {
        reference.close()
        candidate.close()
    }

    /// The result of one operation on both stores.
    struct StepResult {
        var reference: ChangeOutcome
        var candidate: ChangeOutcome
        var mismatch: ChangeMismatch?
        /// The reference's live objects after the step.
        var live: [ChangeSequenceGenerator.LiveObject]
    }

    /// Applies an operation to both stores and compares everything the step must agree on.
    func apply(_ operation: ChangeOperation) -> StepResult {
        let before = Dictionary(forward.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var referenceGenerated: [ObjectID] = [], candidateGenerated: [ObjectID] = []
        let referenceDictionaries = ChangeSequenceDictionaries()
        let referenceOutcome = reference.apply(operation, translate: { $0 }, generated: &referenceGenerated,
                                               dictionaries: referenceDictionaries).0
        let candidateOutcome = candidate.apply(operation, translate: { self.forward[$0] ?? $0 }, generated: &candidateGenerated,
                                               dictionaries: referenceDictionaries.replaying()).0
        // Objects both stores inserted without an ID are the same objects, in the same order.
        var newPairs: [ObjectID: ObjectID] = [:]  // SQLite → reference
        if referenceGenerated.count == candidateGenerated.count {
            for (a, b) in zip(referenceGenerated, candidateGenerated) {
                pairs.append((a, b))
                newPairs[b] = a
            }
        }
        let expected = referenceOutcome.mapText { referenceText($0) }
        let actual = candidateOutcome.mapText { candidateText($0, extra: newPairs, before: before) }
        let live = reference.liveObjects()
        let referenceLive = Set(live.map(\.id)), candidateLive = Set(candidate.liveObjects().map(\.id))
        forward = [:]
        backward = [:]
        for (referenceID, candidateID) in pairs where referenceLive.contains(referenceID) && candidateLive.contains(candidateID) {
            forward[referenceID] = candidateID
            backward[candidateID] = referenceID
        }

        var result = StepResult(reference: referenceOutcome, candidate: candidateOutcome, live: live)
        if expected != actual {
            result.mismatch = ChangeMismatch(category: "outcome of \(operation.kind)",
                                             detail: "\n    \(reference.name): \(expected)\n    \(candidate.name): \(actual)")
            return result
        }
        let referenceChanges = reference.store?.hasChanges, candidateChanges = candidate.store?.hasChanges
        if referenceChanges != candidateChanges {
            result.mismatch = ChangeMismatch(category: "hasChanges after \(operation.kind)",
                                             detail: "\(reference.name): \(referenceChanges.map(String.init) ?? "closed"), \(candidate.name): \(candidateChanges.map(String.init) ?? "closed")")
            return result
        }
        if let mismatch = compareLines("objects after \(operation.kind)", reference.objectIDs(), candidate.objectIDs()) {
            result.mismatch = mismatch
            return result
        }
        switch operation {
        case .save, .rollback, .reopen, .unit:
            result.mismatch = compareContents(after: operation.kind)
        default:
            if checksContentsEveryStep { result.mismatch = compareContents(after: operation.kind) }
        }
        return result
    }

    /// Every object, and the check fetches, agree.
    func compareContents(after what: String) -> ChangeMismatch? {
        compareLines("contents after \(what)", reference.contents(model: model), candidate.contents(model: model))
            ?? compareLines("fetches after \(what)", reference.checkFetches(), candidate.checkFetches())
    }

    private func compareLines(_ category: String, _ expected: [String], _ actual: [String]) -> ChangeMismatch? {
        let actual = actual.map { candidateText($0, extra: [:], before: [:]) }
        let expected = expected.map { referenceText($0) }
        guard expected != actual else { return nil }
        var detail = ""
        let onlyExpected = expected.filter { !actual.contains($0) }, onlyActual = actual.filter { !expected.contains($0) }
        if onlyExpected.isEmpty && onlyActual.isEmpty {
            detail += "\n    the same lines in another order"
        }
        for line in onlyExpected.prefix(8) { detail += "\n    only \(reference.name): \(line)" }
        for line in onlyActual.prefix(8) { detail += "\n    only \(candidate.name): \(line)" }
        return ChangeMismatch(category: category, detail: detail)
    }

    // MARK: Mapping generated IDs

    /// A reference text as it is: the reference's IDs are the ones compared.
    private func referenceText(_ text: String) -> String { text }

    /// A SQLite text with its generated IDs mapped to the reference's: this operation's new
    /// objects first, then the live ones, then those live when the operation began (a unit may
    /// delete one and name it again). An ID this store generated that maps to none of them is
    /// marked `'?o12'`; one it never generated is the reference's own (named by the operation).
    private func candidateText(_ text: String, extra: [ObjectID: ObjectID], before: [ObjectID: ObjectID]) -> String {
        Self.mapQuotedIDs(text) { id in
            extra[id] ?? backward[id] ?? before[id] ?? (pairs.contains { $0.candidate == id } ? ObjectID("?" + id.rawValue) : id)
        }
    }

    /// `text` with every quoted generated ID (`'o12'`) replaced by `map`'s answer. Other
    /// quoted text is left as it is.
    static func mapQuotedIDs(_ text: String, _ map: (ObjectID) -> ObjectID) -> String {
        guard text.contains("'o") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "'") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "'") else {
                rest = rest[open...]
                break
            }
            let token = rest[afterOpen..<close]
            if token.first == "o", token.count > 1, token.dropFirst().allSatisfy(\.isASCII), token.dropFirst().allSatisfy(\.isNumber) {
                out += "'" + map(ObjectID(String(token))).rawValue + "'"
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
