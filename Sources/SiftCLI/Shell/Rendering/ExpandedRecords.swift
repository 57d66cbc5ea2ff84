import Sift

/// Records printed vertically (`.x on`, or `.x auto`, the default, when a table would be wider
/// than the terminal), as psql's expanded display prints them: a numbered rule, then one
/// `key | value` line per column, keys left-aligned:
///
///     -[ RECORD 1 ]----------
///     @entity | Note
///     @id     | N1
///     title   | My First Note
///
/// The rule is as wide as the keys and the widest value of the first batch of records (as
/// psql measures each FETCH_COUNT batch); `+` marks where the `|` column runs when the label
/// leaves room for it. On a terminal, text longer than the line is cut with `…` (a number
/// never is).
struct ExpandedRecords {
    let context: RenderContext
    /// The widest value measured (cut to the terminal).
    private let valueWidth: Int
    private(set) var count = 0

    /// Vertical records whose rule fits the values of `records` (the first batch).
    init(context: RenderContext, columns: [String], records: [Value]) {
        self.context = context
        var widest = 0
        for record in records {
            for column in columns {
                widest = max(widest, RenderCell(ColumnSet.cell(record, column), nullValue: context.options.nullValue).width)
            }
        }
        let keyWidth = columns.map { RenderCell(heading: $0).width }.max() ?? 0
        valueWidth = min(widest, Self.room(for: keyWidth, context) ?? widest)
    }

    /// The cells left for values on a terminal's line after the keys and ` | `.
    private static func room(for keyWidth: Int, _ context: RenderContext) -> Int? {
        context.terminalWidth.map { max($0 - keyWidth - 3, GridLayout.narrowest) }
    }

    mutating func write(_ record: Value, columns: [String]) {
        count += 1
        let style = context.style
        let keys = columns.map { RenderCell(heading: $0) }
        let keyWidth = keys.map(\.width).max() ?? 0
        var cells = columns.map { RenderCell(ColumnSet.cell(record, $0), nullValue: context.options.nullValue) }
        if let room = Self.room(for: keyWidth, context) { cells = cells.map { $0.cut(to: room) } }
        var text = style.rule(rule(keyWidth: keyWidth)) + "\n"
        for (key, cell) in zip(keys, cells) {
            var line = GridLine()
            line.cell(key, width: keyWidth, rightAligned: false, styled: style.heading(key.text))
            line.pad(1)
            line.append(style.rule("|"))
            line.pad(1)
            line.append(style.cell(cell))
            text += line.text + "\n"
        }
        context.output.write(text)
    }

    /// `-[ RECORD 3 ]---+------`: the label, then dashes over the keys, `+` over the `|`, and
    /// dashes over the values; a label longer than the keys is followed by dashes only.
    private func rule(keyWidth: Int) -> String {
        let label = "-[ RECORD \(count) ]"
        let length = label.count
        if length <= keyWidth + 1 {
            return label + String(repeating: "-", count: keyWidth + 1 - length) + "+" + String(repeating: "-", count: valueWidth + 1)
        }
        return label + String(repeating: "-", count: max(0, keyWidth + 3 + valueWidth - length))
    }
}
