#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CEditLine
import Foundation

/// Lines typed at a terminal, edited with the system libedit: emacs keys (and `~/.editrc`),
/// Up and Down through the history of this and earlier sessions (``EditLineHistory``), Ctrl-R
/// searching it as you type, Tab completing the word before the cursor (``Session/completion(for:cursor:)``).
///
/// Ctrl-C abandons the line (the terminal's interrupt character is off while a line is being
/// edited, so it reaches the editor as a key and no SIGINT is raised); Ctrl-D at an empty
/// prompt ends the input. Outside `read(prompt:)` the terminal is as it was, so Ctrl-C during a
/// statement raises SIGINT (see ``StatementInterrupter``).
///
/// Tab: one candidate replaces the word (with a space after it, unless it is a folder or a
/// relationship, which the word usually goes on after); several
/// replace it with what they start with in common, or when that adds nothing are listed under
/// the line.
final class LineEditor: LineReader {
    /// What Tab asks: the completion of the word before the cursor (a character offset).
    typealias Completer = (_ line: String, _ cursor: Int) -> Completion

    private let editor: OpaquePointer
    private let history: EditLineHistory?
    private let completer: Completer
    /// The prompt libedit shows (it asks for it on every redraw).
    private var promptText: UnsafeMutablePointer<CChar>?
    /// Ctrl-C ended the line being read.
    private var cancelled = false

    /// An editor on standard input and output with the history in `historyPath` (nil: this
    /// session only); nil when libedit cannot start (no terminal description, say).
    init?(historyPath: String?, completer: @escaping Completer) {
        // Multibyte input (UTF-8) needs the locale's character type.
        setlocale(LC_CTYPE, "")
        guard let editor = el_init("sift", sift_el_standard_input(), sift_el_standard_output(), sift_el_standard_error()) else { return nil }
        self.editor = editor
        self.history = EditLineHistory(path: historyPath)
        self.completer = completer
        sift_el_set_client_data(editor, Unmanaged.passUnretained(self).toOpaque())
        sift_el_set_prompt(editor) { editor in
            guard let editor, let lineEditor = LineEditor.owner(of: editor) else { return nil }
            return lineEditor.promptText
        }
        sift_el_set_editor(editor, "emacs")
        sift_el_set_signal_handling(editor, 1)
        if let history { sift_el_set_history(editor, history.handle) }
        sift_el_add_function(editor, "sift-complete", "Complete the word before the cursor") { editor, _ in
            guard let editor, let lineEditor = LineEditor.owner(of: editor) else { return UInt8(CC_ERROR) }
            return lineEditor.completeWord()
        }
        sift_el_add_function(editor, "sift-cancel", "Abandon the line") { editor, _ in
            guard let editor, let lineEditor = LineEditor.owner(of: editor) else { return UInt8(CC_ERROR) }
            lineEditor.cancelled = true
            return UInt8(CC_EOF)
        }
        sift_el_bind(editor, "^I", "sift-complete")
        sift_el_bind(editor, "^C", "sift-cancel")
        sift_el_bind(editor, "^R", "em-inc-search-prev")
        sift_el_disable_interrupt_character(editor)
        // The person's own bindings ($EDITRC or ~/.editrc) come last, so they win.
        el_source(editor, nil)
    }

    deinit {
        el_end(editor)
        free(promptText)
    }

    /// The editor whose libedit handle this is (kept as libedit's client data).
    private static func owner(of editor: OpaquePointer) -> LineEditor? {
        guard let data = sift_el_client_data(editor) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    // MARK: LineReader

    func read(prompt: String) -> LineInput {
        free(promptText)
        promptText = strdup(prompt)
        cancelled = false
        var count: Int32 = 0
        guard let text = el_gets(editor, &count) else {
            // Ctrl-C: the line is abandoned; Ctrl-D (or an error reading): the input ends. Either
            // way the next output starts on a line of its own.
            write(cancelled ? "^C\n" : "\n")
            return cancelled ? .cancelled : .end
        }
        var line = String(cString: text)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    func remember(_ entry: String) {
        history?.add(entry)
    }

    // MARK: Completion

    /// Tab: completes the word before the cursor, or lists what it may become.
    private func completeWord() -> UInt8 {
        guard let info = el_line(editor)?.pointee, let buffer = info.buffer, let cursor = info.cursor, let end = info.lastchar else {
            return UInt8(CC_ERROR)
        }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: max(0, end - buffer))
        let line = String(decoding: bytes, as: UTF8.self)
        let cursorOffset = String(decoding: bytes.prefix(max(0, cursor - buffer)), as: UTF8.self).count
        let completion = completer(line, cursorOffset)
        let word = String(line.prefix(cursorOffset).suffix(completion.wordLength))
        guard let first = completion.candidates.first else { return UInt8(CC_REFRESH_BEEP) }
        if completion.candidates.count == 1 {
            replaceWord(word, with: completion.goOn.contains(first) ? first : first + " ")
            return UInt8(CC_REFRESH)
        }
        let common = Self.commonPrefix(completion.candidates)
        if common.count > word.count {
            replaceWord(word, with: common)
            return UInt8(CC_REFRESH)
        }
        write("\n" + Self.columns(completion.candidates, width: SessionOutput.currentTerminalWidth() ?? 80))
        return UInt8(CC_REDISPLAY)
    }

    /// Replaces the word before the cursor.
    private func replaceWord(_ word: String, with replacement: String) {
        // libedit counts wide characters: Unicode scalars.
        el_deletestr(editor, Int32(word.unicodeScalars.count))
        el_insertstr(editor, replacement)
    }

    /// What every candidate starts with.
    static func commonPrefix(_ candidates: [String]) -> String {
        guard var prefix = candidates.first else { return "" }
        for candidate in candidates.dropFirst() {
            prefix = String(zip(prefix, candidate).prefix { $0 == $1 }.map(\.0))
        }
        return prefix
    }

    /// Candidates in columns across `width` cells, each line ending in a newline.
    static func columns(_ candidates: [String], width: Int) -> String {
        let cell = (candidates.map(\.count).max() ?? 0) + 2
        let perLine = max(1, width / max(1, cell))
        let lines = (candidates.count + perLine - 1) / perLine
        var text = ""
        for line in 0..<lines {
            var row = ""
            // Down the columns first, as ls lists them.
            for column in 0..<perLine {
                let index = column * lines + line
                guard index < candidates.count else { break }
                let candidate = candidates[index]
                row += candidate + String(repeating: " ", count: cell - candidate.count)
            }
            while row.last == " " { row.removeLast() }
            text += row + "\n"
        }
        return text
    }

    /// Writes to the terminal through libedit's stream (so the two never interleave).
    private func write(_ text: String) {
        let output = sift_el_standard_output()
        fputs(text, output)
        fflush(output)
    }
}
