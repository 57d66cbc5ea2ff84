import ArgumentParser
import Foundation
import Sift

/// `sift delete`: one batch delete on a store, with the delete rules, saved.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete every object a predicate matches, with the model's delete rules, and save.",
        discussion: """
            The statement (Grammar/statement.ebnf):

              [DELETE [FROM]] Entity [WHERE predicate]

            Deletes every object of the entity (sub-entities included) that the predicate matches, or every object without WHERE (Core Data's NSBatchDeleteRequest), with the delete rules of the model: Cascade deletes the objects a deleted object reaches, Nullify detaches them, and Deny refuses the whole delete while an object it reaches stays (the error names the blocking object). Key paths are checked against the model. Keywords are case-insensitive. --arg binds %@, %K, %d ... in order (a stored object is {"$ref": "<object ID>"}); --var binds $NAME.

            The changes are validated and saved all or nothing (on SQLite in one transaction): an error deletes nothing. On a SQLite database Sift did not create, the database's foreign keys decide instead of delete rules: their ON DELETE actions run, and a row still referred to is not deleted (docs/SQLITE-DATABASES.md). Prints 'deleted N objects', counting the objects the predicate matched (not those deleted by Cascade). Ctrl-C before the change is saved rolls it back ('error: interrupted; nothing was changed'); after, it says so ('deleted N objects; interrupted after the change was saved'); either way sift then ends as Ctrl-C ends a command ($? is 130). The store kind follows the extension: .sqlite or .db (SQLite), .json (JSON store) or .plist (binary store); when the extension says nothing, the file's first bytes do.

            Examples:
              $ sift delete --store movies.sqlite 'Movie WHERE title == "Aliens"'
              deleted 1 object
              $ sift delete --store notes.json 'DELETE FROM Note WHERE updatedAt < %@' --arg '{"$date": "2017-07-07T00:00:00Z"}'
              $ sift delete --store movies.json 'Movie WHERE rating < $min' --var 'min=7.5'
              $ sift delete --store todo.plist 'ToDoItem'
            """
    )

    @OptionGroup var options: BatchChange.Options

    @Argument(help: "The delete statement: [DELETE [FROM]] Entity [WHERE predicate].")
    var statement: String

    /// Words after the statement: the shell split an unquoted statement (an error that says to quote it).
    @Argument(help: .hidden)
    var splitWords: [String] = []

    func validate() throws {
        try SplitStatement.check([statement], extra: splitWords)
    }

    func run() throws {
        let values = try ArgumentValues(arguments: options.arguments, variables: options.variables)
        var delete = try BatchChange.parse { () throws(ParseError) in
            try DeleteStatement(parsing: statement, arguments: values.arguments)
        }
        if !values.variables.isEmpty {
            delete.predicate = try BatchChange.bind { () throws(ArgumentConversion.Failure) in
                try delete.predicate?.substituting(variables: values.variables)
            }
        }
        let store = try StoreFile.open(options.store, model: options.coreDataModel.path)
        BatchChange.printWarnings(delete.predicate, entity: delete.entityName, on: store, statement: statement)
        try BatchChange.apply(to: store, verb: "deleted") {
            try store.batchDelete(entity: delete.entityName, predicate: delete.predicate)
        }
    }
}
