import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// One change (or save, rollback, unit, reopen) of a change sequence, as data: applied alike to
/// both stores, printed as the Swift that makes it (so a report is a reproduction), and
/// simplified by the shrinker.
///
/// Attributes and relationships are kept in order; the dictionaries the API takes are built
/// from them. A generated operation has at most one fault of each kind (one unknown key, one
/// bad value, one bad destination), so which error it raises does not depend on the order a
/// dictionary lists its keys in.
indirect enum ChangeOperation {
    struct Field {
        var key: String
        var value: Value
    }

    struct Link {
        var key: String
        var ids: [ObjectID]
    }

    /// An insert; `id` nil lets the store generate one (the two stores generate different IDs;
    /// the runner maps them).
    case insert(entity: String, id: ObjectID?, attributes: [Field], relationships: [Link])
    case update(ObjectID, attributes: [Field], relationships: [Link])
    case delete(ObjectID)
    /// `batchUpdate(entity:predicate:set:)` with predicate and expressions in the format syntax.
    case batchUpdate(entity: String, predicate: String?, set: [(key: String, expression: String)])
    case batchDelete(entity: String, predicate: String?)
    case save
    case rollback
    /// `performChanges { ... }` running `body` (changes, now and then a save or a rollback):
    /// an error inside is caught and the body goes on, unless `propagatesErrors` (then it
    /// leaves the body); `abortsAtEnd` throws at the end of the body (the unit is undone).
    case unit(body: [ChangeOperation], propagatesErrors: Bool, abortsAtEnd: Bool)
    /// Closes both stores and opens their files again; `saveFirst` saves before (without it,
    /// pending changes are dropped with the closed store).
    case reopen(saveFirst: Bool)

    var kind: String {
        switch self {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        case .batchUpdate: "batchUpdate"
        case .batchDelete: "batchDelete"
        case .save: "save"
        case .rollback: "rollback"
        case .unit: "performChanges"
        case .reopen: "reopen"
        }
    }

    // MARK: As Swift

    /// The operation as Swift on a `store` (`any PersistentStore`), one line per change.
    func swift(indent: String = "", inUnit: Bool = false, propagates: Bool = true) -> String {
        let attempt = inUnit && !propagates ? "_ = try? " : "try "
        switch self {
        case .insert(let entity, let id, let attributes, let relationships):
            return indent + attempt + "store.insert(entity: \(Self.literal(entity)), id: \(id.map { Self.literal($0.rawValue) } ?? "nil"), "
                + "attributes: \(Self.swift(attributes)), relationships: \(Self.swift(relationships)))"
        case .update(let id, let attributes, let relationships):
            return indent + attempt + "store.update(\(Self.literal(id.rawValue)), attributes: \(Self.swift(attributes)), relationships: \(Self.swift(relationships)))"
        case .delete(let id):
            return indent + attempt + "store.delete(\(Self.literal(id.rawValue)))"
        case .batchUpdate(let entity, let predicate, let assignments):
            let set = assignments.isEmpty ? "[:]" : "[" + assignments.map { "\(Self.literal($0.key)): ExpressionNode(format: \(Self.literal($0.expression)))" }.joined(separator: ", ") + "]"
            return indent + attempt + "store.batchUpdate(entity: \(Self.literal(entity)), predicate: \(Self.predicate(predicate)), set: \(set))"
        case .batchDelete(let entity, let predicate):
            return indent + attempt + "store.batchDelete(entity: \(Self.literal(entity)), predicate: \(Self.predicate(predicate)))"
        case .save:
            return indent + attempt + "store.save()"
        case .rollback:
            return indent + "store.rollback()"
        case .unit(let body, let propagatesErrors, let abortsAtEnd):
            var lines = [indent + attempt + "store.performChanges {" + (propagatesErrors ? "" : "  // errors inside are caught")]
            for operation in body {
                lines.append(operation.swift(indent: indent + "    ", inUnit: true, propagates: propagatesErrors))
            }
            if abortsAtEnd { lines.append(indent + "    throw Abort()") }
            lines.append(indent + "}")
            return lines.joined(separator: "\n")
        case .reopen(let saveFirst):
            return indent + (saveFirst ? "try store.save(); " : "") + "store = reopen(store)  // close the store and open its file again"
        }
    }

    static func swift(_ fields: [Field]) -> String {
        fields.isEmpty ? "[:]" : "[" + fields.map { "\(literal($0.key)): \(swift($0.value))" }.joined(separator: ", ") + "]"
    }

    static func swift(_ links: [Link]) -> String {
        links.isEmpty ? "[:]" : "[" + links.map { "\(literal($0.key)): [" + $0.ids.map { literal($0.rawValue) }.joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
    }

    static func predicate(_ format: String?) -> String {
        format.map { "PredicateNode(format: \(literal($0)))" } ?? "nil"
    }

    static func swift(_ value: Value) -> String {
        switch value {
        case .null: return ".null"
        case .bool(let b): return ".bool(\(b))"
        case .int(let i): return ".int(\(i))"
        case .double(let d):
            if d.isNaN { return ".double(.nan)" }
            if d.isInfinite { return d > 0 ? ".double(.infinity)" : ".double(-.infinity)" }
            return ".double(\(d))"
        case .string(let s): return ".string(\(literal(s)))"
        case .date(let d): return ".date(Date(timeIntervalSinceReferenceDate: \(d.timeIntervalSinceReferenceDate)))"
        default: return "\(value)"
        }
    }

    /// A Swift string literal; characters outside printable ASCII as `\u{...}` (so a report
    /// shows composed and decomposed accents apart).
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case " "..."~": out.unicodeScalars.append(scalar)
            default: out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out + "\""
    }

    // MARK: Shrinking

    /// Simpler forms of the operation (for the shrinker), simplest first.
    var simplifications: [ChangeOperation] {
        var simpler: [ChangeOperation] = []
        switch self {
        case .insert(let entity, let id, let attributes, let relationships):
            for index in relationships.indices {
                var fewer = relationships
                fewer.remove(at: index)
                simpler.append(.insert(entity: entity, id: id, attributes: attributes, relationships: fewer))
            }
            for index in attributes.indices {
                var fewer = attributes
                fewer.remove(at: index)
                simpler.append(.insert(entity: entity, id: id, attributes: fewer, relationships: relationships))
            }
            for (index, link) in relationships.enumerated() where link.ids.count > 1 {
                for drop in link.ids.indices {
                    var fewer = relationships
                    fewer[index].ids.remove(at: drop)
                    simpler.append(.insert(entity: entity, id: id, attributes: attributes, relationships: fewer))
                }
            }
        case .update(let id, let attributes, let relationships):
            for index in relationships.indices {
                var fewer = relationships
                fewer.remove(at: index)
                simpler.append(.update(id, attributes: attributes, relationships: fewer))
            }
            for index in attributes.indices {
                var fewer = attributes
                fewer.remove(at: index)
                simpler.append(.update(id, attributes: fewer, relationships: relationships))
            }
            for (index, link) in relationships.enumerated() where link.ids.count > 1 {
                for drop in link.ids.indices {
                    var fewer = relationships
                    fewer[index].ids.remove(at: drop)
                    simpler.append(.update(id, attributes: attributes, relationships: fewer))
                }
            }
        case .batchUpdate(let entity, let predicate, let assignments):
            if predicate != nil { simpler.append(.batchUpdate(entity: entity, predicate: nil, set: assignments)) }
            if assignments.count > 1 {
                for index in assignments.indices {
                    var fewer = assignments
                    fewer.remove(at: index)
                    simpler.append(.batchUpdate(entity: entity, predicate: predicate, set: fewer))
                }
            }
        case .batchDelete(let entity, let predicate):
            if predicate != nil { simpler.append(.batchDelete(entity: entity, predicate: nil)) }
        case .unit(let body, let propagatesErrors, let abortsAtEnd):
            // (The shrinker also tries the body's changes without the unit.)
            if abortsAtEnd { simpler.append(.unit(body: body, propagatesErrors: propagatesErrors, abortsAtEnd: false)) }
            if propagatesErrors { simpler.append(.unit(body: body, propagatesErrors: false, abortsAtEnd: abortsAtEnd)) }
            for index in body.indices {
                var fewer = body
                fewer.remove(at: index)
                simpler.append(.unit(body: fewer, propagatesErrors: propagatesErrors, abortsAtEnd: abortsAtEnd))
                for replacement in body[index].simplifications {
                    var changed = body
                    changed[index] = replacement
                    simpler.append(.unit(body: changed, propagatesErrors: propagatesErrors, abortsAtEnd: abortsAtEnd))
                }
            }
        case .reopen(let saveFirst):
            if saveFirst { simpler.append(.save) }
        case .delete, .save, .rollback:
            break
        }
        return simpler
    }
}
