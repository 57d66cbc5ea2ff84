#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where a session writes: results (standard output, or the file `.output` or `.once` names)
/// and messages (errors, warnings, timings: standard error). The tests collect both into one
/// transcript, in the order a person would see them.
final class SessionOutput {
    /// Where results go now.
    private(set) var results: StandardOutput
    /// Standard output (or the tests' collector), where results go when not redirected.
    let standard: StandardOutput
    private let messageWriter: (String) -> Void
    /// Whether a person watches on a terminal (prompts, colour, line-by-line output).
    let isTerminal: Bool
    /// The terminal's width in cells, when there is one.
    let terminalWidth: () -> Int?
    /// Restores standard output after `.once` has had its one result.
    private var redirectionEndsAfterResult = false
    private var redirected: FileHandle?

    init(standard: StandardOutput, isTerminal: Bool, terminalWidth: @escaping () -> Int? = { nil }, messages: @escaping (String) -> Void) {
        self.standard = standard
        self.results = standard
        self.isTerminal = isTerminal
        self.terminalWidth = terminalWidth
        self.messageWriter = messages
    }

    /// Standard output and standard error of this process.
    static func process() -> SessionOutput {
        let terminal = isatty(STDOUT_FILENO) != 0
        return SessionOutput(standard: StandardOutput(), isTerminal: terminal, terminalWidth: { terminal ? Self.currentTerminalWidth() : nil },
                             messages: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// Output collected into one transcript (results and messages as they come).
    static func collecting(into transcript: @escaping (String) -> Void, isTerminal: Bool = false, width: Int? = nil) -> SessionOutput {
        SessionOutput(standard: StandardOutput(collector: transcript, interactive: true), isTerminal: isTerminal,
                      terminalWidth: { width }, messages: transcript)
    }

    static func currentTerminalWidth() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes a message (a line; the newline is added).
    func message(_ text: String) {
        results.flush()
        messageWriter(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Writes result text.
    func write(_ text: String) {
        results.write(text)
    }

    /// Sends results to a file from now on (`.output FILE`), or for one result (`.once FILE`).
    func redirect(to path: String, once: Bool) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw SessionError("cannot write \(path)")
        }
        endRedirection()
        results.flush()
        redirected = handle
        results = StandardOutput(descriptor: handle.fileDescriptor)
        redirectionEndsAfterResult = once
    }

    /// Results go to standard output again (`.output` with no file).
    func endRedirection() {
        guard let handle = redirected else { return }
        results.flush()
        try? handle.close()
        redirected = nil
        results = standard
        redirectionEndsAfterResult = false
    }

    /// A result is complete: flushed for a person watching; `.once` ends.
    func endOfResult() {
        results.endLine()
        results.flush()
        if redirectionEndsAfterResult { endRedirection() }
    }

    func flush() { results.flush() }
}

/// An error of the session itself (a dot command's usage, a file that cannot be read).
struct SessionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
