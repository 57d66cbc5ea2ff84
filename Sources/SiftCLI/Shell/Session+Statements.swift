import Foundation
import Sift

/// Running statements: what kind a statement is, the fetch or change it stands for, and its
/// results printed in the session's mode.
extension Session {
    /// The kinds of statement a session runs.
    enum Statement {
        /// FETCH, COUNT, SELECT, or an entity name with clauses.
        case fetch(FetchRequest)
        case update(UpdateStatement)
        case delete(DeleteStatement)
    }

    /// Parses a statement: a fetch, update or delete statement, or, after `.use ENTITY`, a bare
    /// predicate on that entity (paged by `.limit`).
    func parse(statement text: String) throws -> (statement: Statement, bare: Bool) {
        let words = text.split(whereSeparator: { $0.isWhitespace }).prefix(2).map { $0.uppercased() }
        let first = words.first ?? ""
        let arguments = self.arguments.map(\.value)
        switch first {
        case "UPDATE":
            return (.update(try bindVariables(UpdateStatement(parsing: text, arguments: arguments))), false)
        case "DELETE":
            return (.delete(try bindVariables(DeleteStatement(parsing: text, arguments: arguments))), false)
        case "FETCH", "COUNT", "SELECT":
            return (.fetch(try fetchRequest(text)), false)
        default:
            break
        }
        let model = store?.model
        let firstWord = text.split(whereSeparator: { $0.isWhitespace || $0 == "(" }).first.map(String.init) ?? ""
        let namesEntity = model?.entity(named: firstWord) != nil || model == nil
        if let entity, !namesEntity {
            // A bare predicate on the entity `.use` chose.
            var predicate = try PredicateNode(format: text, arguments: arguments)
            predicate = try predicate.substituting(variables: variableValues)
            var request = FetchRequest(entityName: entity, predicate: predicate)
            if let limit = settings.limit { request.fetchLimit = limit + 1 }
            return (.fetch(request), true)
        }
        if words.count > 1, words[1] == "SET" {
            return (.update(try bindVariables(UpdateStatement(parsing: text, arguments: arguments))), false)
        }
        return (.fetch(try fetchRequest(text)), false)
    }

    var variableValues: [String: Any?] { variables.mapValues(\.value) }

    private func fetchRequest(_ text: String) throws -> FetchRequest {
        try FetchRequest(statement: text, arguments: arguments.map(\.value), variables: variableValues)
    }

    private func bindVariables(_ statement: UpdateStatement) throws -> UpdateStatement {
        guard !variables.isEmpty else { return statement }
        var bound = statement
        bound.predicate = try statement.predicate?.substituting(variables: variableValues)
        bound.assignments = try statement.assignments.map { ($0.key, try $0.value.substituting(variables: variableValues)) }
        return bound
    }

    private func bindVariables(_ statement: DeleteStatement) throws -> DeleteStatement {
        guard !variables.isEmpty else { return statement }
        var bound = statement
        bound.predicate = try statement.predicate?.substituting(variables: variableValues)
        return bound
    }

    /// Parses and runs a statement, printing its results.
    func execute(statement text: String) throws {
        let (statement, bare) = try parse(statement: text)
        let store = try requireStore()
        switch statement {
        case .fetch(let request):
            lastPredicate = request.predicate
            try FetchPrinter(session: self, store: store).run(request, paged: bare ? settings.limit : nil)
        case .update(let update):
            lastPredicate = update.predicate
            let count = try changeAndSave(store) { try store.batchUpdate(entity: update.entityName, predicate: update.predicate, set: update.values) }
            output.write("updated \(count) object\(count == 1 ? "" : "s")\n")
        case .delete(let delete):
            lastPredicate = delete.predicate
            let count = try changeAndSave(store) { try store.batchDelete(entity: delete.entityName, predicate: delete.predicate) }
            output.write("deleted \(count) object\(count == 1 ? "" : "s")\n")
        }
    }

    /// A batch change, saved; any error rolls it back.
    private func changeAndSave(_ store: any PersistentStore, _ change: () throws -> Int) throws -> Int {
        do {
            let count = try change()
            try store.save()
            return count
        } catch {
            store.rollback()
            throw error
        }
    }
}

/// A fetch's results in the session's mode: objects, sections, a count or dictionaries, as
/// records `{"@entity", "@id", attributes…, relationships as IDs}`.
struct FetchPrinter {
    let session: Session
    let store: any PersistentStore

    func run(_ request: FetchRequest, paged limit: Int?) throws {
        let output = session.output.results
        var renderer = session.renderer(for: output)
        if request.sectionNameKeyPath != nil && request.resultType == .objects {
            let sectioned = try store.fetchSections(request)
            if let warning = sectioned.warning { session.output.message("warning: \(warning)") }
            var position = 0
            renderer.writeSections(sectioned.sections.map { section in
                MatchSection(name: section.name, indexTitle: section.indexTitle, matches: section.objects.map { object in
                    defer { position += 1 }
                    return StoredObjectJSON.match(StoredObjectJSON.value(of: object), position: position)
                })
            })
            return
        }
        switch try store.execute(request) {
        case .objects(let objects):
            var shown = 0
            for object in objects {
                if let limit, shown == limit {
                    renderer.finish()
                    try printMore(request, shown: shown)
                    return
                }
                renderer.write(StoredObjectJSON.match(StoredObjectJSON.value(of: object), position: shown))
                shown += 1
            }
        case .dictionaries(let rows):
            for (i, row) in rows.enumerated() { renderer.write(StoredObjectJSON.match(StoredObjectJSON.value(of: row), position: i)) }
        case .objectIDs(let ids):
            for (i, id) in ids.enumerated() {
                renderer.write(StoredObjectJSON.match(.dictionary(ValueDictionary([("@id", .string(id.rawValue))])), position: i))
            }
        case .count(let n):
            if session.settings.mode == .json {
                session.output.write("{\"count\": \(n)}\n")
                return
            }
            renderer.write(StoredObjectJSON.match(.dictionary(ValueDictionary([("count", .int(Int64(n)))])), position: 0))
        }
        renderer.finish()
    }

    /// `… 120 more rows (.limit 0 shows all)` after a page of a bare predicate's results.
    private func printMore(_ request: FetchRequest, shown: Int) throws {
        var all = request
        all.fetchLimit = 0
        let total = try store.count(all)
        let more = total - shown
        guard more > 0 else { return }
        session.output.write("… \(more) more row\(more == 1 ? "" : "s") (.limit 0 shows all)\n")
    }
}

extension Session {
    /// The renderer for the session's mode.
    func renderer(for output: StandardOutput) -> any ResultRenderer {
        switch settings.mode {
        case .json: JSONRenderer(output: output)
        case .jsonl: JSONLinesRenderer(output: output)
        case .csv: CSVRenderer(output: output)
        case .table, .box, .line, .markdown: TableRenderer(output: output)
        }
    }
}
