import ArgumentParser
import Foundation
import Sift

/// `sift repl` (also `sift STORE`, and `sift` alone): a session on a store, interactive on a
/// terminal, reading statements from standard input otherwise.
struct REPLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Ask a store questions: statements, bare predicates and dot commands, interactively or from standard input.",
        discussion: """
            sift STORE is the short spelling (sift notes.sqlite, as sqlite3 notes.sqlite), and sift STORE 'STATEMENT' runs one statement and exits. Without a store, sift opens the bundled example store: the seed apps (Examples/) built in, example for the default and example:NAME for one app (sift example:MustC; .open example: lists them). A missing store file is an error unless --create --model MODEL is given. When standard input is not a terminal, statements are read from it: no prompt, no line editing.

            Type a statement as sift query takes it, or, after .use ENTITY, a bare predicate; .help lists the dot commands.

            Examples:
              $ sift
              Sift: the bundled example store is open (seed apps Notes, Movies, …). …
              $ sift notes.sqlite
              sift> .use Note
              sift(Note)> title BEGINSWITH[cd] "my"
              $ sift notes.sqlite 'COUNT Note WHERE category.name == "Work"'
              $ echo 'COUNT Note' | sift notes.sqlite
              $ sift example:Movies 'COUNT Movie'
              $ sift chinook.db --read-only
              $ sift repl --store new.sqlite --create --model Examples/Notes/model.json
            """
    )

    @Option(help: ArgumentHelp("The store to open (.sqlite, .db, .json or .plist; example or example:NAME for a bundled one; the default example store when not given).", valueName: "STORE"))
    var store: String?

    @Flag(help: "Create the store (from --model) when it does not exist.")
    var create = false

    @Option(help: ArgumentHelp("The model a new store is created from (with --create), or the model of a Core Data store.", valueName: "MODEL"))
    var model: String?

    @Flag(help: "Stop at the first error.")
    var bail = false

    @OptionGroup var readOnly: ReadOnlyOption

    @Argument(help: "A statement to run instead of reading statements.")
    var statement: String?

    /// Words after the statement: the shell split an unquoted statement (an error that says to quote it).
    @Argument(help: .hidden)
    var splitWords: [String] = []

    func validate() throws {
        if let statement { try SplitStatement.check([statement], extra: splitWords) }
        if create && store == nil { throw ValidationError("--create needs --store STORE (and --model MODEL)") }
        if create && readOnly.isOn { throw ValidationError("--create makes a store to change; it cannot be --read-only") }
    }

    func run() throws {
        let interactive = statement == nil && ShellRunner.inputIsTerminal
        let session = Session(output: .process(), source: interactive ? .interactive : statement == nil ? .script(name: "<stdin>") : .commandLine)
        session.settings.bail = bail
        let label = ExampleStores.canonicalName(store ?? ExampleStores.prefix)
        session.open(store: try ShellStores.open(label, create: create, model: model, readOnly: readOnly.isOn), label: label, readOnly: readOnly.isOn)
        if !interactive {
            // A statement on the command line or piped statements: Ctrl-C stops the statement
            // running, says what happened to a change, and ends the run (as in `sift run`).
            let interrupter = StatementInterrupter(whenIdle: .terminate)
            session.scriptInterrupter = interrupter
        }
        defer { session.scriptInterrupter?.stop() }
        if let statement {
            session.feedLines(statement)
            session.endOfInput()
            throw ShellRunner.exitStatus(session)
        }
        if interactive {
            session.output.message(ShellStores.banner(label, session.store, readOnly: session.isReadOnly))
            ShellRunner.runInteractive(session)
            return
        }
        ShellRunner.run(session, reader: PlainLineReader(showsPrompt: false, notText: session.reportNotText))
        throw ShellRunner.exitStatus(session)
    }
}

/// Opening the store a session starts with: an existing store, a bundled example store
/// (`example`, the default, or `example:NAME`), or with --create a new one from a model.
enum ShellStores {
    static func open(_ path: String, create: Bool, model: String?, readOnly: Bool = false) throws -> any PersistentStore {
        if ExampleStores.isExampleName(path) {
            do {
                return try ExampleStores.open(path)
            } catch {
                Output.error("error: \(Session.message(of: error))")
                throw ExitCode(1)
            }
        }
        if StoreFile.Kind(path: path) == .postgres {
            let newModel = try create ? model.map(StoreFile.loadModel) : nil
            return try StoreFile.report { () throws(StoreError) in try StoreFile.openPostgreSQL(path, creatingWith: newModel) }
        }
        // An existing store takes the model only as a Core Data store's (with --create, the
        // model is for a store that does not exist yet).
        if FileManager.default.fileExists(atPath: path) { return try StoreFile.open(path, readOnly: readOnly, model: create ? nil : model) }
        guard create, let model else {
            Output.error("error: no store at \(path)\(SessionStores.suggestion(for: path))\(create ? "; --create needs --model MODEL" : " (give --create --model MODEL to create one)")")
            throw ExitCode(1)
        }
        return try StoreFile.create(path, model: try StoreFile.loadModel(model))
    }

    /// The line an interactive session starts with: which store is open (and whether only to
    /// read it), and that `.help` and `.open FILE` exist.
    static func banner(_ label: String, _ store: (any PersistentStore)?, readOnly: Bool = false) -> String {
        if ExampleStores.isExampleName(label) { return ExampleStores.banner(label) }
        let entities = store.map { StoreModels.outline(of: $0).entities.count } ?? 0
        let access = readOnly || StoreModels.refusesChanges(store) ? " read-only" : ""
        return "Sift: \(label) is open\(access) (\(entities) entit\(entities == 1 ? "y" : "ies")). .help lists the commands; .open FILE opens another store."
    }
}
