import Foundation

/// Where the REPL reads lines from: a line editor on a terminal, or plain standard input.
protocol LineReader: AnyObject {
    /// The next line (without its newline) after showing `prompt`; nil at the end of input.
    func readLine(prompt: String) -> String?
    /// A statement or command was entered (the editor keeps it in its history).
    func remember(_ entry: String)
}

/// Lines from standard input, with the prompt written to standard output when it is a terminal.
final class PlainLineReader: LineReader {
    private let showsPrompt: Bool

    init(showsPrompt: Bool) { self.showsPrompt = showsPrompt }

    func readLine(prompt: String) -> String? {
        if showsPrompt {
            FileHandle.standardOutput.write(Data(prompt.utf8))
        }
        return Swift.readLine(strippingNewline: true)
    }

    func remember(_ entry: String) {}
}
