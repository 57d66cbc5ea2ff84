import Sift

/// One value as a table, box, line or markdown cell: its text on one line (control characters
/// escaped), the cells it takes on a terminal, and whether it is a number (right-aligned) or
/// nil (shown as `.nullvalue`, dimmed on a terminal).
struct RenderCell {
    var text: String
    var width: Int
    let isNumber: Bool
    let isNull: Bool

    /// A value's cell: strings as they are, numbers as in JSON, dates in ISO 8601, data in
    /// base64, arrays and dictionaries as compact JSON (``CellText``), nil as `nullValue`.
    init(_ value: Value, nullValue: String, markdown: Bool = false) {
        isNull = value.isNull
        isNumber = CellText.isNumber(value)
        var text = TerminalText.printable(isNull ? nullValue : CellText.text(value))
        if markdown { text = Self.markdownEscaped(text) }
        self.text = text
        width = TerminalWidth.of(text)
    }

    /// A heading's cell.
    init(heading: String, markdown: Bool = false) {
        isNull = false
        isNumber = false
        var text = TerminalText.printable(heading)
        if markdown { text = Self.markdownEscaped(text) }
        self.text = text
        width = TerminalWidth.of(text)
    }

    /// The cell cut with `…` to at most `width` cells; a number is never cut (a column is
    /// made as wide as its numbers: ``GridLayout``).
    func cut(to width: Int) -> RenderCell {
        guard self.width > width, !isNumber else { return self }
        var cut = self
        cut.text = TerminalText.cut(text, to: width)
        cut.width = TerminalWidth.of(cut.text)
        return cut
    }

    /// `|` escaped as `\|`, so it does not end a Markdown table's cell.
    static func markdownEscaped(_ text: String) -> String {
        text.contains("|") ? text.replacingOccurrences(of: "|", with: "\\|") : text
    }
}
