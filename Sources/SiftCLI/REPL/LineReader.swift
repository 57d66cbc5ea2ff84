#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What a line reader read: a line, a line abandoned with Ctrl-C, or the end of the input
/// (Ctrl-D at an empty prompt, or the end of piped input).
enum LineInput: Equatable {
    case line(String)
    case cancelled
    case end
}

/// Where the REPL reads lines from: a line editor on a terminal, or plain standard input.
protocol LineReader: AnyObject {
    /// The next line (without its newline) after showing `prompt`.
    func read(prompt: String) -> LineInput
    /// A statement or command was entered (the editor keeps it in its history).
    func remember(_ entry: String)
}

/// Lines from standard input, with the prompt written to standard output when it is a terminal.
/// A line ends at LF, CR LF or a lone CR (``ScriptLines``). A line that is not UTF-8 ends the
/// input: `notText` is told where (the line counted from the first read) before `.end` is
/// returned, so the statement it was part of is not run.
final class PlainLineReader: LineReader {
    private let showsPrompt: Bool
    private let notText: (ScriptLines.NotText) -> Void
    /// Lines read from standard input and not yet returned (a read ending in LF may hold lines
    /// ended by lone CRs before it).
    private var waiting: [String] = []
    /// The line after the waiting ones, which is not UTF-8.
    private var failure: ScriptLines.NotText?
    private var linesRead = 0
    private var ended = false

    init(showsPrompt: Bool, notText: @escaping (ScriptLines.NotText) -> Void = { _ in }) {
        self.showsPrompt = showsPrompt
        self.notText = notText
    }

    func read(prompt: String) -> LineInput {
        if showsPrompt {
            FileHandle.standardOutput.write(Data(prompt.utf8))
        }
        if waiting.isEmpty && failure == nil && !ended { readMore() }
        guard !waiting.isEmpty else {
            if let failure {
                self.failure = nil
                ended = true
                notText(failure)
            }
            return .end
        }
        linesRead += 1
        return .line(waiting.removeFirst())
    }

    /// Reads up to the next LF (or the end), as `readLine` does, and splits what it read into lines.
    private func readMore() {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let count = Self.input.map { getline(&buffer, &capacity, $0) } ?? -1
        guard count > 0, let buffer else {
            ended = true
            return
        }
        let split = ScriptLines.split([UInt8](UnsafeRawBufferPointer(start: buffer, count: count)))
        waiting = split.lines
        if var error = split.notText {
            error.line += linesRead
            failure = error
        }
    }

    func remember(_ entry: String) {}

    /// Standard input, buffered as `readLine` reads it (one stream for every reader).
    nonisolated(unsafe) private static let input = fdopen(STDIN_FILENO, "r")
}
