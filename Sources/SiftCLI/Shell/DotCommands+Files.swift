import Foundation
import Sift

/// Files in and out: `.output`, `.once`, `.import`, `.request`.
extension DotCommands {
    static let fileCommands: [DotCommand] = [
        DotCommand(
            name: "output", usage: ".output [FILE]", summary: "Send results to FILE from now on (.output alone: back to standard output)",
            details: "The file is written anew; the open store's own file is refused. Messages (errors, timings, 'engines agree') stay on standard error.",
            example: ".output notes.csv"
        ) { session, words in
            guard words.count <= 1 else { throw usage("output") }
            session.commandState.onceFile = nil
            guard let path = words.first else {
                session.output.endRedirection()
                session.commandState.outputFile = nil
                return
            }
            try session.refuseOutputOverStore(path)
            try session.output.redirect(to: path, once: false)
            session.commandState.outputFile = path
        },
        DotCommand(
            name: "once", usage: ".once FILE", summary: "Send the next statement's results to FILE, then back to where they went",
            details: "The file is written anew (at once, so a file that cannot be written is an error here). The next statement or .request uses it; dot commands in between do not.",
            example: ".once report.json"
        ) { session, words in
            guard words.count == 1 else { throw usage("once") }
            try session.refuseOutputOverStore(words[0])
            guard FileManager.default.createFile(atPath: words[0], contents: nil) else { throw SessionError("cannot write \(words[0])") }
            session.commandState.onceFile = words[0]
        },
        DotCommand(
            name: "import", usage: ".import FILE [ENTITY]", summary: "Import JSON, JSON Lines or CSV data into the open store and save it, all or nothing",
            details: #"As sift import (docs/IMPORT.md): a .json file maps entity names to arrays of rows ({"Note": [{"@id": "N1", "title": "Hello", "category": "C1"}]}); a .jsonl or .ndjson file holds one object a line, naming its @entity; a .csv file holds rows of ENTITY under a header row of property names. A wrong type, an unknown key or a dangling reference is reported with the entity, the @id and the key, and the store is left as it was."#,
            example: ".import Examples/Notes/data.json"
        ) { session, words in
            guard (1...2).contains(words.count), words[0] != "-" else { throw usage("import") }
            let path = words[0]
            let store = try session.requireWritableStore()
            if path.lowercased().hasSuffix(".csv") && words.count < 2 {
                throw SessionError("CSV rows are of one entity: .import \(path) ENTITY")
            }
            if words.count == 2 { _ = try StoreModels.outline(of: store).requireEntity(words[1]) }
            guard FileManager.default.isReadableFile(atPath: path) else { throw SessionError("cannot read \(path)") }
            defer { session.commandState.engineCopy.invalidate() }
            let summary: ImportSummary
            do throws(StoreError) {
                summary = try ImportCommand.importFile(path, entity: words.count == 2 ? words[1] : nil, into: store)
            } catch {
                throw error.prefixed("\(path): ")
            }
            let parts = summary.counts.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")
            session.output.write("\(path): imported \(summary.total) object\(summary.total == 1 ? "" : "s")\(parts.isEmpty ? "" : " (\(parts))")\n")
        },
        DotCommand(
            name: "request", usage: ".request FILE.json", summary: "Run a fetch request written as JSON (docs/FETCH-REQUESTS.md) as a statement",
            details: #"The file holds one JSON object: {"entityName": "Note", "predicate": "title BEGINSWITH[cd] %@", "arguments": ["my"], "sortDescriptors": [{"key": "updatedAt", "ascending": false}], "sectionNameKeyPath": "category.name", "resultType": "objects"}; only entityName is required. A $variable the file leaves unbound takes its .set value. The results print as a statement's do (.sql, .eqp, .engine, .timer and .once apply)."#,
            example: ".request Examples/Notes/recent-notes.json"
        ) { session, words in
            guard words.count == 1 else { throw usage("request") }
            try session.run(request: try fetchRequest(file: words[0], variables: session.variableValues))
        },
    ]

    /// The fetch request a JSON file holds, with the session's `$variables` bound where the file
    /// leaves them unbound. A predicate's parse error shows the predicate and a caret.
    static func fetchRequest(file path: String, variables: [String: Any?]) throws -> FetchRequest {
        guard let data = FileManager.default.contents(atPath: path) else { throw SessionError("cannot read \(path)") }
        var request: FetchRequest
        do {
            request = try FetchRequest(json: data)
        } catch let error as ParseError {
            var message = "\(path): predicate: \(error.message)"
            if let suggestion = error.suggestion { message += "; did you mean '\(suggestion)'?" }
            throw SessionError(message + "\n" + String(Caret.rendered(error.source, column: error.column, message: "").dropLast()))
        } catch {
            throw SessionError("\(path): \(Session.message(of: error))")
        }
        if !variables.isEmpty {
            request.predicate = try request.predicate?.substituting(variables: variables)
            request.havingPredicate = try request.havingPredicate?.substituting(variables: variables)
        }
        return request
    }
}
