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

