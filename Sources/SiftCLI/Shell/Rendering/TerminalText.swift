/// Text made fit for a terminal cell: control characters escaped, so a value stays on its
/// line, and text longer than a column cut with `…`.
enum TerminalText {
    /// The ellipsis that ends a cut cell.
    static let ellipsis: Character = "…"

    /// `text` with control characters shown as escapes: `\n`, `\r`, `\t`, `\u001b`.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 and C1 control characters and DEL.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` cut to at most `width` cells, ending in `…` when anything was cut: whole
    /// grapheme clusters are kept, so a wide character that would straddle the edge goes too
    /// and the result may be a cell narrower than `width`.
    ///
    ///     TerminalText.cut("Groceries", to: 5)   // "Groc…"
    ///     TerminalText.cut("漢字かな", to: 6)      // "漢字…" (5 cells)
    static func cut(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard TerminalWidth.of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let cells = TerminalWidth.of(character)
            if used + cells > width - 1 { break }
            result.append(character)
            used += cells
        }
        result.append(ellipsis)
        return result
    }
}
