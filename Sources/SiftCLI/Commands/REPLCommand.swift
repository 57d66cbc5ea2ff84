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
            sift STORE is the short spelling (sift notes.sqlite, as sqlite3 notes.sqlite), and
            sift STORE 'STATEMENT' runs one statement and exits. When standard input is not a
            terminal, statements are read from it: no prompt, no line editing.

            Type a statement as sift query takes it, or, after .use ENTITY, a bare predicate;
            .help lists the dot commands.

            Examples:
              $ sift notes.sqlite
              sift> .use Note
              sift(Note)> title BEGINSWITH[cd] "my"
              $ sift notes.sqlite 'COUNT Note WHERE category.name == "Work"'
              $ echo 'COUNT Note' | sift notes.sqlite
              $ sift repl --store new.sqlite --create --model Examples/Notes/model.json
            """
    )

    @Option(help: ArgumentHelp("The store to open (.sqlite, .db, .json or .plist).", valueName: "STORE"))
    var store: String?

    @Flag(help: "Create the store (from --model) when it does not exist.")
    var create = false

    @Option(help: ArgumentHelp("The model a new store is created from.", valueName: "MODEL"))
    var model: String?

    @Flag(help: "Stop at the first error.")
    var bail = false

    @Argument(help: "A statement to run instead of reading statements.")
    var statement: String?

    func run() throws {
        let interactive = statement == nil && ShellRunner.inputIsTerminal
        let session = Session(output: .process(), source: interactive ? .interactive : statement == nil ? .script(name: "<stdin>") : .commandLine)
        session.settings.bail = bail
        if let store {
            let opened = try ShellStores.open(store, create: create, model: model)
            session.open(store: opened, label: store)
        }
        if let statement {
            session.feedLines(statement)
            session.endOfInput()
            throw ShellRunner.exitStatus(session)
        }
        if interactive {
            if let store {
                session.output.message("Sift: \(store) (\(session.store?.model.entities.count ?? 0) entities). .help lists the commands, .open FILE opens another store.")
            } else {
                session.output.message("Sift: no store open. .open FILE opens one; .help lists the commands.")
            }
            ShellRunner.run(session, reader: PlainLineReader(showsPrompt: true))
            return
        }
        ShellRunner.run(session, reader: PlainLineReader(showsPrompt: false))
        throw ShellRunner.exitStatus(session)
    }
}

/// Opening the store a session starts with: an existing store, or with --create a new one from
/// a model.
enum ShellStores {
    static func open(_ path: String, create: Bool, model: String?) throws -> any PersistentStore {
        if FileManager.default.fileExists(atPath: path) { return try StoreFile.open(path) }
        guard create, let model else {
            Output.error("error: no store at \(path)\(create ? "; --create needs --model MODEL" : " (give --create --model MODEL to create one)")")
            throw ExitCode(1)
        }
        return try StoreFile.create(path, model: try StoreFile.loadModel(model))
    }
}
