#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import Sift

/// Drives a session from a line reader (the REPL, piped input) or a file (`sift run`), and
/// turns its failures into the exit status.
enum ShellRunner {
    /// Reads lines until the input ends or the session quits. With `interrupter` (an
    /// interactive session), Ctrl-C stops the statement running and the session goes on; Ctrl-C
    /// at the prompt abandons the line and the statement being written.
    static func run(_ session: Session, reader: LineReader, interrupter: StatementInterrupter? = nil) {
        var number = 0
        var entry = ""
        reading: while !session.isFinished {
            switch reader.read(prompt: session.prompt) {
            case .end:
                break reading
            case .cancelled:
                session.discardPending()
                entry = ""
            case .line(let line):
                number += 1
                entry += entry.isEmpty ? line : "\n" + line
                run(session, interrupter: interrupter) { session.feed(line, lineNumber: number) }
                if !session.isContinuing {
                    if !entry.trimmingCharacters(in: .whitespaces).isEmpty { reader.remember(entry) }
                    entry = ""
                }
            }
        }
        run(session, interrupter: interrupter) { session.endOfInput() }
    }

    /// Runs a session at a terminal: with the line editor when standard output is a terminal
    /// too (plain lines otherwise), Ctrl-C stopping the statement running.
    static func runInteractive(_ session: Session) {
        if outputIsTerminal, let editor = LineEditor(historyPath: EditLineHistory.defaultPath(), completer: session.completion(for:cursor:)) {
            let interrupter = StatementInterrupter(whenIdle: .ignore)
            defer { interrupter.stop() }
            run(session, reader: editor, interrupter: interrupter)
        } else {
            let interrupter = StatementInterrupter(whenIdle: .terminate)
            defer { interrupter.stop() }
            run(session, reader: PlainLineReader(showsPrompt: true, notText: session.reportNotText), interrupter: interrupter)
        }
    }

    /// Runs what a line completes; a SIGINT meanwhile stops it, and is reported
    /// (``Session/runReportingInterrupt(_:statement:location:_:)``).
    private static func run(_ session: Session, interrupter: StatementInterrupter?, _ body: () -> Void) {
        guard let interrupter else { return body() }
        _ = session.runReportingInterrupt(interrupter, body)
    }

    /// The exit status a session ends with: 1 when any statement or command failed. A session
    /// a SIGINT stopped (a script's) ends as Ctrl-C ends a process
    /// (``StatementInterrupter/endInterrupted()``: `$?` is 130).
    static func exitStatus(_ session: Session) -> ExitCode {
        if session.wasInterrupted {
            session.output.flush()
            StatementInterrupter.endInterrupted()
        }
        return session.failures > 0 ? ExitCode(1) : .success
    }

    /// Whether standard input is a terminal.
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) != 0 }

    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
}
