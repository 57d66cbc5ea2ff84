import ArgumentParser
import Foundation
import Sift

/// `sift run SCRIPT`: a file of statements and dot commands, run as the REPL runs what is typed.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a script of statements and dot commands.",
        discussion: """
            A script holds statements (as sift query takes them, or bare predicates after .use), dot commands (.open, .use, .set, .mode, .request FILE.json, …) and # comments. A statement may go on over several lines; a line ending in ; or a blank line ends it. A first line #!/usr/bin/env -S sift run makes the script a program (chmod +x, then ./script.sift); - reads the script from standard input (errors then name <stdin>). A line ends at LF, CR LF or CR; the script must be UTF-8 (a byte that is not is an error at its line and column, and a script file then runs none of it). The script starts on --store, or on the bundled example store (the seed apps) when none is given. Errors are printed as FILE:LINE:COLUMN: error: …; the exit status is 1 when any statement failed (--bail or .bail on stops at the first). Ctrl-C stops the statement running (a change not yet saved is rolled back whole), says what happened, and ends the script as Ctrl-C ends a command ($? is 130).

            Examples:
              $ sift run Examples/movies-report.sift
              $ sift run Examples/notes-by-category.sift --store notes.sqlite --output csv
              $ sift run report.sift --store notes.sqlite --relationships ids
              $ generate-report | sift run - --store notes.sqlite
              $ sift run report.sift --store notes.sqlite --bail \\
                  --var 'since={"$date": "2017-07-06T00:00:00Z"}'
            """
    )

    @Argument(help: "The script file, or - for standard input.")
    var script: String

    @Option(help: ArgumentHelp("The store to open before the script runs (the bundled example store when not given).", valueName: "STORE"))
    var store: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("Bind $NAME to a JSON value (repeatable).", valueName: "NAME=JSON"))
    var variables: [String] = []

    @Flag(help: "Stop at the first error.")
    var bail = false

    @OptionGroup var readOnly: ReadOnlyOption

    @OptionGroup var coreDataModel: CoreDataModelOption

    @Option(help: ArgumentHelp("The mode results start in: table, box, line, json, jsonl, csv or markdown.", valueName: "FORMAT"))
    var output: String?

    @Option(help: ArgumentHelp("How objects start showing to-many relationships: counts (the number of destinations), ids (their @id values) or none (no relationships); .relationships changes it.", valueName: "counts|ids|none"))
    var relationships: RelationshipDetail?

    func run() throws {
        let fromStandardInput = script == "-"
        let session = Session(output: .process(), source: .script(name: fromStandardInput ? "<stdin>" : script))
        session.settings.bail = bail
        if let output {
            guard let mode = SessionSettings.Mode(rawValue: output.lowercased()) else {
                throw ValidationError("--output must be one of \(SessionSettings.Mode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            session.settings.mode = mode
        }
        if let relationships { session.settings.relationships = relationships }
        for text in variables {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ValidationError("--var '\(text)': expected NAME=JSON")
            }
            var name = String(text[..<equals])
            if name.hasPrefix("$") { name.removeFirst() }
            let json = String(text[text.index(after: equals)...])
            do {
                session.variables[name] = (json, try ArgumentValues.value(of: json))
            } catch {
                throw ValidationError("--var \(name): \(error)")
            }
        }
        let label = ExampleStores.canonicalName(store ?? ExampleStores.prefix)
        session.open(store: try ShellStores.open(label, create: false, model: coreDataModel.path, readOnly: readOnly.isOn), label: label, readOnly: readOnly.isOn)
        // Ctrl-C stops the statement running, says what happened to a change, and ends the script.
        let interrupter = StatementInterrupter(whenIdle: .terminate)
        defer { interrupter.stop() }
        session.scriptInterrupter = interrupter
        if fromStandardInput {
            // Line by line as they come, as piped input to `sift STORE` is read.
            ShellRunner.run(session, reader: PlainLineReader(showsPrompt: false, notText: session.reportNotText))
            throw ShellRunner.exitStatus(session)
        }
        do {
            try session.read(file: script)
        } catch let error as ScriptFileNotText {
            Output.error(error.located)
            throw ExitCode(1)
        } catch {
            Output.error("error: \(Session.message(of: error))")
            throw ExitCode(1)
        }
        throw ShellRunner.exitStatus(session)
    }
}
