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
final class PlainLineReader: LineReader {
    private let showsPrompt: Bool

    init(showsPrompt: Bool) { self.showsPrompt = showsPrompt }

    func read(prompt: String) -> LineInput {
        if showsPrompt {
            FileHandle.standardOutput.write(Data(prompt.utf8))
        }
        return Swift.readLine(strippingNewline: true).map(LineInput.line) ?? .end
    }

    func remember(_ entry: String) {}
}
