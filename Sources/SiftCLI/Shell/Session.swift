import Foundation
import Sift

/// A REPL's or a script's engine: it takes lines and produces output, knowing nothing of the
/// terminal. It holds the open store, the settings dot commands change, `$variables` and `%@`
/// arguments, and runs statements (fetch, count, select, update, delete, and a bare predicate
/// after `.use ENTITY`) and dot commands. The interactive REPL, `sift run`, piped input and the
/// tests all drive it the same way:
///
///     let session = Session(output: .process(), source: .script(name: "report.sift"))
///     session.open(store: try SiftStoreFile.open("notes.sqlite"), label: "notes.sqlite")
///     for (n, line) in lines.enumerated() { session.feed(line, lineNumber: n + 1) }
///     session.endOfInput()
///
/// **Where a statement ends.** Interactively, at the end of a line, unless the language's lexer
/// says it is unfinished (an open parenthesis, brace or quote, a trailing operator, `AND`, `OR`,
/// `WHERE`…): then the REPL shows the continuation prompt. In a script (or piped input), also
/// not before a line that goes on with a clause (`WHERE`, `SORT BY`, `AND`, `LIMIT`…), so a
/// statement may be written over several lines; a line ending in `;`, a blank line, a dot command
/// or the end of the input ends it in any case.
final class Session {
    /// Where the input comes from: a person at a terminal, or a script (a file or piped input,
    /// named in error messages).
    enum Source: Equatable {
        case interactive
        case script(name: String)
        /// A statement given on the command line (`sift STORE 'STATEMENT'`): read as a script,
        /// errors shown as interactively.
        case commandLine
    }

    let output: SessionOutput
    /// Where the lines come from now (`.read FILE` reads a file as a script, then returns).
    private(set) var source: Source
    var settings = SessionSettings()
    /// The open store and how it is named.
    private(set) var store: (any PersistentStore)?
    private(set) var storeLabel = ""
    /// Whether the open store was opened read-only.
    private(set) var isReadOnly = false
    /// The entity bare predicates fetch (`.use`).
    var entity: String?
    /// `$NAME` values (`.set`), with the JSON they were given as.
    var variables: [String: (json: String, value: Any?)] = [:]
    /// `%@`, `%K`… values (`.args`), with the JSON they were given as.
    var arguments: [(json: String, value: Any?)] = []
    /// The last predicate a statement ran (`.ast`).
    var lastPredicate: PredicateNode?
    /// What the inspecting and file commands keep between lines (`.once`, `.engine`).
    let commandState = DotCommandState()
    /// Statements and dot commands that failed.
    private(set) var failures = 0
    /// `.quit` was asked for, or `.bail on` met an error.
    private(set) var finished = false
    /// The statement being written (lines so far, with their line numbers).
    private var pending: [(text: String, line: Int)] = []
    /// Whether the lines of `pending` make an unfinished statement, kept as they come.
    private var completeness = InputCompleteness.Tracker()
    /// Files `.read` is reading, to refuse reading one within itself.
    private(set) var reading: [String] = []
    /// The statement running now and where it was written, for its warnings' carets.
    private(set) var statementBeingRun: (text: String, location: StatementLocation?)?
    /// The summary of the change the statement running saved (`updated 3 objects`): what an
    /// interrupt after the save reports.
    var savedChange: String?
    /// Stops a script's statements on SIGINT (`sift run`): the statement is stopped, the
    /// interrupt reported, and the script ends. (The REPL stops statements line by line, in
    /// ``ShellRunner``.)
    var scriptInterrupter: StatementInterrupter?
    /// What a SIGINT stops while a line of an interactive session runs (nil otherwise): `.watch`
    /// waits on it.
    var activeInterrupter: StatementInterrupter?
    /// Set by what a SIGINT ends normally (`.watch`): the interrupt is not reported as an error.
    var interruptEndsQuietly = false
    /// A SIGINT stopped the script.
    private(set) var wasInterrupted = false

    init(output: SessionOutput, source: Source) {
        self.output = output
        self.source = source
    }

    var isInteractive: Bool { source == .interactive }

    /// The name errors carry: the script's, or nothing interactively.
    var sourceName: String? {
        if case .script(let name) = source { return name }
        return nil
    }

    /// Feeds every line of a file as a script (`.read FILE`); errors name the file and line.
    /// A file that is not UTF-8 is an error naming the line and column, and none of it runs.
    func read(file path: String) throws {
        guard !reading.contains(path) else { throw SessionError("\(path) is already being read (.read within itself)") }
        guard let data = FileManager.default.contents(atPath: path) else { throw SessionError("cannot read \(path)") }
        let lines: [String]
        do {
            lines = try ScriptLines.lines([UInt8](data))
        } catch {
            throw ScriptFileNotText(path: path, error: error)
        }
        let saved = (source, pending, completeness)
        source = .script(name: path)
        pending = []
        completeness = InputCompleteness.Tracker()
        reading.append(path)
        defer {
            reading.removeLast()
            (source, pending, completeness) = saved
        }
        feed(lines: lines)
        endOfInput()
    }

    /// Feeds text line by line (``ScriptLines``: LF, CR LF and CR end a line).
    func feedLines(_ text: String) {
        feed(lines: ScriptLines.lines(text))
    }

    /// Feeds lines in order (a `#!` first line is a comment).
    private func feed(lines: [String]) {
        for (index, line) in lines.enumerated() {
            if finished { return }
            feed(line, lineNumber: index + 1)
        }
    }

    // MARK: The store

    /// Opens `store` as the session's; `readOnly` (`--read-only`, `.open --read-only`) refuses
    /// every change to it.
    func open(store: any PersistentStore, label: String, readOnly: Bool = false) {
        self.store = store
        storeLabel = label
        isReadOnly = readOnly
        if let entity, StoreModels.outline(of: store).entity(named: entity) == nil { self.entity = nil }
    }

    /// The open store, or an error saying to open one.
    func requireStore() throws -> any PersistentStore {
        guard let store else { throw SessionError("no store is open; open one with .open FILE") }
        return store
    }

    /// The open store, to change: an error when it was opened read-only.
    func requireWritableStore() throws -> any PersistentStore {
        let store = try requireStore()
        if isReadOnly { throw SessionError("\(storeLabel) was opened read-only; it can be queried but not changed") }
        return store
    }

    // MARK: Input

    /// The prompt for the next line: `sift> `, `sift(Note)> ` after `.use Note`, and `   ...> `
    /// while a statement goes on.
    var prompt: String {
        let head = entity.map { "sift(\($0))" } ?? "sift"
        return pending.isEmpty ? head + "> " : String(repeating: " ", count: max(0, head.count - 3)) + "...> "
    }

    /// Whether a statement is being written over several lines.
    var isContinuing: Bool { !pending.isEmpty }

    /// Takes one line of input, running what it completes.
    func feed(_ line: String, lineNumber: Int = 0) {
        guard !finished else { return }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if pending.isEmpty {
            if trimmed.isEmpty || Self.isComment(trimmed) { return }
            if trimmed.hasPrefix(".") {
                runDotCommand(trimmed, line: lineNumber)
                return
            }
        } else if !isInteractive {
            // A script: a blank line or a dot command ends the statement before it; a line that
            // starts another statement does too, unless the statement is unfinished.
            if trimmed.isEmpty || trimmed.hasPrefix(".") || (!Self.continuesStatement(trimmed) && !completeness.isUnfinished) {
                runPending()
                feed(line, lineNumber: lineNumber)
                return
            }
            if Self.isComment(trimmed) { return }
        }
        pending.append((line, lineNumber))
        let unfinished = completeness.append(line)
        if trimmed.hasSuffix(";") && !unfinished {
            runPending()
        } else if isInteractive && !unfinished {
            runPending()
        }
    }

    /// The input ended: runs the statement being written, if any.
    func endOfInput() {
        if !pending.isEmpty { runPending() }
        output.flush()
    }

    /// Forgets the statement being written (Ctrl-C at a continuation prompt).
    func discardPending() {
        pending = []
        completeness = InputCompleteness.Tracker()
    }

    /// The statement being written, its lines so far (Tab completion reads it).
    var pendingText: String { pending.map(\.text).joined(separator: "\n") }

    /// `#` starts a comment line when a space, `!` or nothing follows it (`#size` is a key).
    static func isComment(_ trimmed: String) -> Bool {
        guard trimmed.hasPrefix("#") else { return trimmed.hasPrefix("--") }
        let rest = trimmed.dropFirst()
        return rest.isEmpty || rest.first == " " || rest.first == "!" || rest.first == "\t"
    }

    /// Words that carry a statement on from the line before (in scripts).
    private static let continuationWords: Set<String> = Set(
        StatementWord.spellings { $0.startsAClause || [.using, .asc, .ascending, .desc, .descending].contains($0) }
            + [Keyword.and, .or].map(\.spelling) + ComparisonOperator.wordSpellings + ["&&", "||"])

    private static func continuesStatement(_ trimmed: String) -> Bool {
        let word = trimmed.prefix { !$0.isWhitespace && $0 != "(" }.uppercased()
        if continuationWords.contains(word) { return true }
        // A line starting with an operator or closing bracket goes on too.
        guard let first = trimmed.first else { return false }
        return ")]},+-*/=<>!&|".contains(first)
    }

    /// Runs the statement written so far.
    private func runPending() {
        let lines = pending
        pending = []
        completeness = InputCompleteness.Tracker()
        var text = lines.map(\.text).joined(separator: "\n")
        while text.last?.isWhitespace == true { text.removeLast() }
        if text.hasSuffix(";") { text.removeLast() }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        run(statement: text, location: StatementLocation(lines: lines.map(\.line), texts: lines.map(\.text)))
    }

    // MARK: Running

    /// Runs one statement (not a dot command), reporting any error.
    func run(statement text: String, location: StatementLocation? = nil) {
        if settings.echo { output.write(text + "\n") }
        statementBeingRun = (text, location)
        defer { statementBeingRun = nil }
        runStoppingScript(statement: text, location: location) {
            do {
                try execute(statement: text)
            } catch {
                report(error, statement: text, location: location)
            }
        }
        output.endOfResult()
    }

    /// Runs one dot command line, reporting any error.
    func runDotCommand(_ line: String, line lineNumber: Int = 0) {
        if settings.echo { output.write(line + "\n") }
        let location = StatementLocation(lines: [lineNumber], texts: [line])
        runStoppingScript(statement: line, location: location) {
            do {
                try DotCommands.run(line, in: self)
            } catch {
                report(error, statement: line, location: location)
            }
        }
        output.endOfResult()
    }

    /// Runs one statement or dot command of a script that ``scriptInterrupter`` stops: an
    /// interrupt ends the script.
    private func runStoppingScript(statement: String, location: StatementLocation?, _ body: () -> Void) {
        guard let interrupter = scriptInterrupter, !wasInterrupted else { return body() }
        if runReportingInterrupt(interrupter, statement: statement, location: location, body) {
            wasInterrupted = true
            finished = true
        }
    }

    /// Runs `body` (what a line completes, a script's statement), which a SIGINT stops, and
    /// returns whether one came. A statement stopped while its results were being read ends
    /// without an error of its own (the rows read so far are printed), so the interruption is
    /// reported here — or, when a change statement had saved its change before it came, that
    /// the change was made (`updated 3 objects; interrupted after the change was saved`).
    func runReportingInterrupt(_ interrupter: StatementInterrupter, statement: String = "", location: StatementLocation? = nil,
                               _ body: () -> Void) -> Bool {
        let failuresBefore = failures
        savedChange = nil
        defer { savedChange = nil }
        activeInterrupter = interrupter
        let interrupted = interrupter.run(self, body)
        activeInterrupter = nil
        if interruptEndsQuietly {
            // (`.watch`: Ctrl-C is how it ends, not an error.)
            interruptEndsQuietly = false
            return interrupted
        }
        guard interrupted, failures == failuresBefore else { return interrupted }
        if let savedChange {
            output.message(BatchChange.interruptedAfterSaving(savedChange))
        } else {
            report(StoreError.interrupted, statement: statement, location: location)
        }
        output.flush()
        return true
    }

    /// Ends the session (`.quit`).
    func quit() {
        finished = true
    }

    var isFinished: Bool { finished }

    /// Counts a failure; with `.bail on`, ends the session.
    func failed() {
        failures += 1
        if settings.bail { finished = true }
    }
}

/// Where a statement was written: the input line of each of its lines (for `FILE:LINE:COLUMN`).
struct StatementLocation {
    let lines: [Int]
    let texts: [String]

    /// The line and column (1-based) of a 1-based column in the statement's text, as the lines
    /// were joined with newlines.
    func position(ofColumn column: Int) -> (line: Int, column: Int) {
        var remaining = max(1, column)
        for (index, text) in texts.enumerated() {
            let length = text.count + 1
            if remaining <= length || index == texts.count - 1 {
                return (lines.indices.contains(index) ? lines[index] : 0, remaining)
            }
            remaining -= length
        }
        return (lines.first ?? 0, column)
    }
}
