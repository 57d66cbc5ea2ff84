import Foundation
import Sift

/// A statement as the REPL reads one (Session.parse): `UPDATE ...`, `DELETE ...`,
/// `Entity SET ...` (an update), or a fetch (`FETCH`, `COUNT`, `SELECT`, or an entity name
/// with clauses).
public enum FuzzStatement {
    case fetch(FetchStatement)
    case update(UpdateStatement)
    case delete(DeleteStatement)

    public var entityName: String {
        switch self {
        case .fetch(let s): s.entityName
        case .update(let s): s.entityName
        case .delete(let s): s.entityName
        }
    }

    /// Parses a statement; nil when it does not parse. With `checkingRoundTrip`, its canonical
    /// form (`description`) must parse back to an equal statement and print the same again.
    public static func parse(_ text: String, checkingRoundTrip: Bool) -> FuzzStatement? {
        let words = text.split(whereSeparator: { $0.isWhitespace }).prefix(2).map { $0.uppercased() }
        let first = words.first ?? ""
        do {
            if first == "UPDATE" || (words.count > 1 && words[1] == "SET" && first != "FETCH" && first != "COUNT" && first != "SELECT" && first != "DELETE") {
                let statement = try UpdateStatement(parsing: text)
                if checkingRoundTrip { roundTrip(statement, text) { (t) throws(ParseError) in try UpdateStatement(parsing: t) } }
                return .update(statement)
            }
            if first == "DELETE" {
                let statement = try DeleteStatement(parsing: text)
                if checkingRoundTrip { roundTrip(statement, text) { (t) throws(ParseError) in try DeleteStatement(parsing: t) } }
                return .delete(statement)
            }
            let statement = try FetchStatement(parsing: text)
            if checkingRoundTrip { roundTrip(statement, text) { (t) throws(ParseError) in try FetchStatement(parsing: t) } }
            return .fetch(statement)
        } catch {
            fuzzCheck(error.offset >= 0 && error.offset <= text.utf8.count,
                      "error offset \(error.offset) outside the statement (\(text.utf8.count) bytes): \(quoted(text)): \(error)")
            _ = error.rendered()
            return nil
        }
    }

    static func roundTrip<S: Equatable & CustomStringConvertible>(_ statement: S, _ input: String, _ parse: (String) throws(ParseError) -> S) {
        let printed = statement.description
        let reparsed: S
        do {
            reparsed = try parse(printed)
        } catch {
            fuzzFailure("a statement's canonical form does not parse back:\n  input: \(quoted(input))\n  printed: \(quoted(printed))\n  \(error)")
        }
        fuzzCheck(reparsed == statement,
                  "parse(print(s)) ≠ s:\n  input: \(quoted(input))\n  printed: \(quoted(printed))\n  reprinted: \(quoted(reparsed.description))")
        fuzzCheck(reparsed.description == printed,
                  "a statement's print is not stable:\n  input: \(quoted(input))\n  printed: \(quoted(printed))\n  reprinted: \(quoted(reparsed.description))")
    }
}

/// fuzz-statements: any bytes as a FETCH / COUNT / SELECT / UPDATE / DELETE statement. It
/// parses (or fails with an offset in the input), prints back to an equal statement, and runs
/// on an in-memory atomic store of the seed app that has the entity (Notes when none has):
/// fetches with their sections, changes followed by a rollback that must restore the store.
public enum StatementsHarness {
    static let stores: [AtomicStore] = SeedApps.all.map(SeedApps.atomicStore)
    /// What each store holds, entity by entity (what a rollback must bring back).
    nonisolated(unsafe) static let baselines: [[FuzzObservation.Answer]] = stores.map(FuzzObservation.contents(of:))

    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: data, as: UTF8.self)
        guard let statement = FuzzStatement.parse(text, checkingRoundTrip: true) else { return }
        let store = stores[SeedApps.app(forEntity: statement.entityName) ?? 0]
        switch statement {
        case .fetch(let fetch):
            let request = FetchRequest(fetch)
            _ = FuzzObservation.observe(request, on: store)
        case .update(let update):
            change(store, entity: update.entityName, input: text) {
                try store.batchUpdate(entity: update.entityName, predicate: update.predicate, set: update.values)
            }
        case .delete(let delete):
            change(store, entity: delete.entityName, input: text) {
                try store.batchDelete(entity: delete.entityName, predicate: delete.predicate)
            }
        }
    }

    /// Runs a batch change, reads the changed objects, and rolls back: the store must hold what
    /// it held before.
    static func change(_ store: AtomicStore, entity: String, input: String, _ body: () throws -> Int) {
        guard let index = stores.firstIndex(where: { $0 === store }) else { return }
        if (try? body()) != nil { _ = FuzzObservation.contents(of: store) }
        store.rollback()
        fuzzCheck(!store.hasChanges, "the store has changes after a rollback: \(quoted(input))")
        let after = FuzzObservation.contents(of: store)
        for (name, (a, b)) in zip(store.model.entities.map(\.name), zip(baselines[index], after)) {
            if let difference = FuzzObservation.difference(a, b) {
                fuzzFailure("rollback did not restore \(name): \(difference)\n  statement: \(quoted(input))")
            }
        }
    }
}
