import Foundation

/// The lines of a script or of piped input, as `sift run`, `.read` and the REPL read them: a
/// line ends at LF, CR LF or a lone CR (files written on any system read alike), and must be
/// UTF-8 — a byte that is not (a lone surrogate written as bytes, Latin-1 text) is an error
/// naming its line and column, as in data files, never a silent U+FFFD.
enum ScriptLines {
    /// Text that is not UTF-8: where, and the first byte that is not.
    struct NotText: Error, CustomStringConvertible {
        /// The 1-based line, and the 1-based column (in characters) of the byte on it.
        var line: Int
        let column: Int
        let byte: UInt8

        /// What is wrong, without the place.
        var message: String {
            "the text is not UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)); scripts must be UTF-8: convert this one, e.g. with iconv)"
        }

        var description: String { "line \(line), column \(column): \(message)" }
    }

    /// The lines of `bytes` (a last line without a line end too; none after a final line end).
    static func lines(_ bytes: [UInt8]) throws(NotText) -> [String] {
        let split = split(bytes)
        if let error = split.notText { throw error }
        return split.lines
    }

    /// The lines of `bytes` up to the first that is not UTF-8, and where that one is.
    static func split(_ bytes: [UInt8]) -> (lines: [String], notText: NotText?) {
        var lines: [String] = []
        var start = 0
        var index = 0
        while start < bytes.count {
            // The line is [start, index); the next starts at `next`.
            var next = bytes.count
            while index < bytes.count {
                if bytes[index] == 0x0A {
                    next = index + 1
                    break
                }
                if bytes[index] == 0x0D {
                    next = index + 1 < bytes.count && bytes[index + 1] == 0x0A ? index + 2 : index + 1
                    break
                }
                index += 1
            }
            do throws(NotText) {
                lines.append(try text(of: bytes[start..<index]))
            } catch {
                var error = error
                error.line = lines.count + 1
                return (lines, error)
            }
            start = next
            index = next
        }
        return (lines, nil)
    }

    /// The lines of `text`.
    static func lines(_ text: String) -> [String] {
        // A String is UTF-8.
        (try? lines(Array(text.utf8))) ?? [text]
    }

    /// One line's bytes as text; the error's line is left for the caller to set.
    static func text(of bytes: ArraySlice<UInt8>) throws(NotText) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var valid = bytes.startIndex
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): valid += UTF8.width(scalar)
            case .emptyInput, .error: break loop
            }
        }
        let column = String(decoding: bytes[bytes.startIndex..<valid], as: UTF8.self).count + 1
        throw NotText(line: 0, column: column, byte: bytes[valid])
    }
}
