import ArgumentParser
import Foundation
import Sift

/// What `sift update` and `sift delete` share: parsing their statement (a parse error printed
/// with the statement and a caret under the column), binding `--var` values, and running the
/// batch change on a store and saving it, all or nothing.
enum BatchChange {
    /// The options both commands take: the store, and values for the statement's `%@` and `$NAME`.
    struct Options: ParsableArguments {
        @Option(help: ArgumentHelp("The store file (.sqlite, .db, .json or .plist).", valueName: "STORE"))
        var store: String

        @Option(name: .customLong("arg"), help: ArgumentHelp("A JSON value for the next format specifier (repeatable).", valueName: "JSON"))
        var arguments: [String] = []

        @Option(name: .customLong("var"), help: ArgumentHelp("Bind $NAME to a JSON value (repeatable).", valueName: "NAME=JSON"))
        var variables: [String] = []

        /// A Core Data store without a model cache is changed only with its model.
        @OptionGroup var coreDataModel: CoreDataModelOption
    }

    /// The statement `parse` reads, or its parse error printed and exit status 1.
    static func parse<T>(_ parse: () throws(ParseError) -> T) throws -> T {
        do {
            return try parse()
        } catch {
            Output.error(error.rendered())
            throw ExitCode(1)
        }
    }

    /// The statement with its `$NAME` variables bound to `--var` values by `bind`, or the error
    /// printed and exit status 1.
    static func bind<T>(_ bind: () throws(ArgumentConversion.Failure) -> T) throws -> T {
        do {
            return try bind()
        } catch {
            Output.error("error: --var: \(error)")
            throw ExitCode(1)
        }
    }

    /// Prints the warnings of the statement's predicate (``WarningText``) on standard error.
    static func printWarnings(_ predicate: PredicateNode?, entity: String, on store: any PersistentStore, statement: String) {
        guard let predicate else { return }
        WarningText.print(FetchRequest(entityName: entity, predicate: predicate), on: store, source: statement)
    }

    /// Runs `change` (a batch update or delete, which leaves its changes pending), saves, and
    /// prints its summary (`updated 3 objects`, with `verb`): on SQLite one transaction. On any
    /// error the changes are rolled back, nothing is written, the error is printed as
    /// `error: ...` and the exit status is 1.
    ///
    /// Ctrl-C (SIGINT) while the change runs stops it: before the save commits, the change is
    /// rolled back and `error: interrupted; nothing was changed` is printed; after, the summary
    /// is printed and then `…; interrupted after the change was saved`. Either way the process
    /// then ends as Ctrl-C ends it (``StatementInterrupter/endInterrupted()``: `$?` is 130).
    static func apply(to store: any PersistentStore, verb: String, _ change: () throws -> Int) throws {
        let interrupter = StatementInterrupter(whenIdle: .terminate)
        defer { interrupter.stop() }
        var outcome: Result<Int, any Error> = .success(0)
        let interrupted = interrupter.run(stopping: store) { outcome = Result { try saved(store, change) } }
        switch outcome {
        case .success(let count):
            print(summary(verb, count))
            if count > 0 { printChangeCaveats(of: store) }
            guard !interrupted else {
                Output.error(interruptedAfterSaving(summary(verb, count)))
                StatementInterrupter.endInterrupted()
            }
        case .failure(let error):
            Output.error("error: \(message(of: error))")
            if isInterruption(error) { StatementInterrupter.endInterrupted() }
            throw ExitCode(1)
        }
    }

    /// Prints what a saved change to `store` left undone (``ChangeCaveatReportingStore``: a Core
    /// Data store's persistent history) as `warning: …` on standard error.
    static func printChangeCaveats(of store: any PersistentStore) {
        for caveat in (store as? any ChangeCaveatReportingStore)?.changeCaveats ?? [] { Output.error("warning: \(caveat)") }
    }

    /// Whether `error` is an interrupt (the store's `interrupt()`, Ctrl-C).
    static func isInterruption(_ error: any Error) -> Bool {
        (error as? StoreError)?.code == .interrupted || (error as? EvaluationError)?.code == .interrupted
    }

    /// What an interrupt after the save says: the change was made.
    static func interruptedAfterSaving(_ summary: String) -> String {
        "\(summary); interrupted after the change was saved"
    }

    /// Runs `change` (a batch update or delete) and saves; any error rolls the change back and
    /// is rethrown. The REPL's change statements run this too. A JSON or binary store is
    /// changed under its write lock, read again first if another process saved it.
    static func saved(_ store: any PersistentStore, _ change: () throws -> Int) throws -> Int {
        let locking = store as? any WriteLockingStore
        try locking?.lockForWriting()
        defer { locking?.unlockForWriting() }
        // Under the store's interruption from the first read to the save: an interrupt at any
        // point before the save commits rolls the whole change back.
        let interruption = (store as? any InterruptibleStore)?.interruption
        do {
            return try interruption.whileRunning {
                let count = try change()
                try store.save()
                return count
            }
        } catch {
            store.rollback()
            if isInterruption(error) { throw StoreError(.interrupted, "interrupted; nothing was changed") }
            throw error
        }
    }

    /// `updated 1 object`, `deleted 3 objects`.
    static func summary(_ verb: String, _ count: Int) -> String {
        "\(verb) \(count) object\(count == 1 ? "" : "s")"
    }

    private static func message(of error: any Error) -> String {
        ErrorText.message(of: error)
    }
}
