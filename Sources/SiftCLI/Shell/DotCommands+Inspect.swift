import Foundation
import Sift

/// Looking into how a statement runs: `.timer`, `.sql`, `.eqp`, `.engine`, `.ast`, `.describe`.
extension DotCommands {
    static let inspectCommands: [DotCommand] = [
        DotCommand(
            name: "describe", usage: ".describe ENTITY", summary: "Describe an entity: attributes, relationships, indexes, constraints, parent and sub-entities",
            details: "Attributes with their types, whether they are required and their defaults; relationships with their destinations, to-one or to-many, whether required, inverses, delete rules and min/max counts; then indexes, uniqueness constraints, the parent entity and the sub-entities. The heading counts the objects (sub-entities' included). On a database Sift did not create, a NOT NULL column is required, and the table's indexes are listed by name with their columns (a UNIQUE one is a uniqueness constraint too).",
            example: ".describe Note"
        ) { session, words in
            guard words.count == 1 else { throw usage("describe") }
            let store = try session.requireStore()
            // (Only that entity's table is read.)
            let name = try StoreModels.outline(of: store).requireEntity(words[0]).name
            let model = StoreModels.model(of: store, reading: [name])
            let entity = try model.requireEntity(name)
            let count = try? store.count(FetchRequest(entityName: entity.name))
            let catalog = try store.databaseCatalog()
            session.output.write(EntityDescriptionText.describe(entity, in: model, count: count, catalog: catalog))
        },
        DotCommand(
            name: "timer", usage: ".timer on|off", summary: "After each statement, show how long it took to parse, compile and execute",
            details: "Parse: the text to a fetch or change. Compile: the SQL on a SQLite store (as .sql shows it), the predicate for the evaluator otherwise. Execute: the fetch or change, with its results printed. The times go to standard error.",
            example: ".timer on"
        ) { session, words in
            session.settings.timer = try flag(words, "timer")
        },
        DotCommand(
            name: "sql", usage: ".sql on|off", summary: "Show the SQL a fetch runs before its results",
            details: "On a SQLite store, the query with its values written in as SQL literals and a ';', to paste into sqlite3 as it is; a last line names the functions of Sift's own it calls (sift_date, sift_equals…), which sqlite3 does not have. '-- then in memory: …' follows for a part of the predicate left to the evaluator. On PostgreSQL, as sift sql prints it: $N placeholders and one '  $N = value' line per binding (sift sql prints SQLite's that way too). A change statement shows the fetch that finds the objects it changes. A JSON or binary store has no SQL: its fetches run in memory, and .sql says so.",
            example: ".sql on"
        ) { session, words in
            session.settings.showSQL = try flag(words, "sql")
        },
        DotCommand(
            name: "eqp", usage: ".eqp on|off", summary: "Show SQLite's query plan for each fetch before its results",
            details: "As sift explain (and sqlite3's .eqp) shows it: SEARCH means an index is used, SCAN that a whole table is read.",
            example: ".eqp on"
        ) { session, words in
            session.settings.showPlan = try flag(words, "eqp")
        },
        DotCommand(
            name: "engine", usage: ".engine sql|memory|both", summary: "Run fetches on SQLite, on the in-memory evaluator, or on both and compare them",
            details: "sql: the store's own engine (SQL on a SQLite store; a JSON or binary store has no SQL and runs fetches in memory). memory: the evaluator, over a copy of the store's objects kept until the store changes. both: the store's own engine prints the results, the other runs the same fetch over the same objects (a SQLite store's in memory, a JSON or binary store's in an in-memory SQLite store), and 'engines agree: N rows' or the first difference follows; a difference is an error. Changes always run on the store.",
            example: ".engine both"
        ) { session, words in
            guard words.count == 1, let engine = SessionSettings.Engine(rawValue: words[0].lowercased()) else {
                if words.count == 1, let suggestion = Suggestions.closest(to: words[0].lowercased(), in: SessionSettings.Engine.allCases.map(\.rawValue)) {
                    throw SessionError("unknown engine '\(words[0])'; did you mean '\(suggestion)'?")
                }
                throw usage("engine")
            }
            session.settings.engine = engine
            if engine == .sql, let store = session.store, !(store is any SQLShowingStore) {
                session.output.message("note: \(session.storeLabel) has no SQL engine: its fetches run in memory (.engine both compares them with SQLite)")
            }
        },
        DotCommand(
            name: "ast", usage: ".ast [json]", summary: "Show the last statement's predicate in canonical form, or its AST as JSON",
            details: "The canonical form is what sift parse prints (parsing it gives the same predicate back); .ast json prints the AST as sift parse --json does (docs/AST-JSON.md).",
            example: ".ast json"
        ) { session, words in
            guard words.count <= 1 else { throw usage("ast") }
            let json: Bool
            switch words.first?.lowercased() {
            case nil: json = false
            case "json": json = true
            default: throw usage("ast")
            }
            guard let predicate = session.lastPredicate else {
                throw SessionError("no predicate to show: the last statement had none, or none has run yet (.ast shows a WHERE clause or a bare predicate)")
            }
            guard json else {
                session.output.write(predicate.description + "\n")
                return
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            do {
                session.output.write(String(decoding: try encoder.encode(predicate), as: UTF8.self) + "\n")
            } catch {
                throw SessionError("the AST cannot be written as JSON: \(error)")
            }
        },
    ]
}
