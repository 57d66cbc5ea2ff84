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
    /// Reads lines until the input ends or the session quits.
    static func run(_ session: Session, reader: LineReader) {
        var number = 0
        var entry = ""
        while !session.isFinished, let line = reader.readLine(prompt: session.prompt) {
            number += 1
            entry += entry.isEmpty ? line : "\n" + line
            session.feed(line, lineNumber: number)
            if !session.isContinuing {
                if !entry.trimmingCharacters(in: .whitespaces).isEmpty { reader.remember(entry) }
                entry = ""
            }
        }
        session.endOfInput()
    }

    /// The exit status a session ends with: 1 when any statement or command failed.
    static func exitStatus(_ session: Session) -> ExitCode {
        session.failures > 0 ? ExitCode(1) : .success
    }

    /// Whether standard input is a terminal.
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) != 0 }
}
