import ArgumentParser
import Foundation
import Sift

/// `sift update`: one batch update on a store, saved.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Set attributes of every object a predicate matches, and save.",
        discussion: """
            The statement (Grammar/statement.ebnf):

              [UPDATE] Entity SET key = expression, ... [WHERE predicate]

            Sets attributes of every object of the entity (sub-entities included) that the predicate matches, or of every object without WHERE (Core Data's NSBatchUpdateRequest). A key is an attribute name (a reserved word is written #size; == may stand for =); a value is an expression of the predicate language evaluated on each object before any of them changes: a constant, a key path, arithmetic, a function, %@. Keys and key paths are checked against the model. Keywords are case-insensitive. --arg binds %@, %K, %d ... in order across the SET values and the WHERE clause (a stored object is {"$ref": "<object ID>"}); --var binds $NAME.

            The changes are validated and saved all or nothing (on SQLite in one transaction): an unknown key, or a value that does not fit its attribute, is an error and changes nothing. On a SQLite database Sift did not create, each value is written in the form its column holds (a text date in its spelling) under the database's constraints, foreign keys and triggers (docs/SQLITE-DATABASES.md). Prints 'updated N objects'. Ctrl-C before the change is saved rolls it back ('error: interrupted; nothing was changed'); after, it says so ('updated N objects; interrupted after the change was saved'); either way sift then ends as Ctrl-C ends a command ($? is 130). The store kind follows the extension: .sqlite or .db (SQLite), .json (JSON store) or .plist (binary store); when the extension says nothing, the file's first bytes do.

            Examples:
              $ sift update --store movies.sqlite 'Movie SET watched = YES WHERE rating >= 8'
              updated 3 objects
              $ sift update --store movies.json 'Movie SET popularity = popularity * 2, rating = rating + 0.5 WHERE releaseDate < %@' --arg '{"$date": "1990-01-01T00:00:00Z"}'
              $ sift update --store notes.json 'UPDATE Note SET title = uppercase:(title), updatedAt = now() WHERE category == %@' --arg '{"$ref": "C1"}'
              $ sift update --store movies.plist 'Movie SET rating = $r WHERE title ==[c] %@' --arg '"alien"' --var 'r=9'
            """
    )

    @OptionGroup var options: BatchChange.Options

    @Argument(help: "The update statement: [UPDATE] Entity SET key = expression, ... [WHERE predicate].")
    var statement: String

    /// Words after the statement: the shell split an unquoted statement (an error that says to quote it).
    @Argument(help: .hidden)
    var splitWords: [String] = []

    func validate() throws {
        try SplitStatement.check([statement], extra: splitWords)
    }

    func run() throws {
        let values = try ArgumentValues(arguments: options.arguments, variables: options.variables)
        var update = try BatchChange.parse { () throws(ParseError) in
            try UpdateStatement(parsing: statement, arguments: values.arguments)
        }
        if !values.variables.isEmpty {
            update = try BatchChange.bind { () throws(ArgumentConversion.Failure) in
                var bound = update
                bound.predicate = try update.predicate?.substituting(variables: values.variables)
                bound.assignments = []
                for assignment in update.assignments {
                    bound.assignments.append((assignment.key, try assignment.value.substituting(variables: values.variables)))
                }
                return bound
            }
        }
        let store = try StoreFile.open(options.store, model: options.coreDataModel.path)
        BatchChange.printWarnings(update.predicate, entity: update.entityName, on: store, statement: statement)
        try BatchChange.apply(to: store, verb: "updated") {
            try store.batchUpdate(entity: update.entityName, predicate: update.predicate, set: update.values)
        }
    }
}
