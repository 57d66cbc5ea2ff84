/// Names as `sqlite3`'s `.tables` and `.indexes` print them: those matching a LIKE pattern,
/// sorted, in as many columns as fit 80 cells (each as wide as the longest name, two spaces
/// apart), filled column by column:
///
///     Album          Employee       InvoiceLine    PlaylistTrack
///     Artist         Genre          MediaType      Track
///     Customer       Invoice        Playlist
enum NameColumns {
    /// The width `sqlite3` lays names out in, whatever the terminal's.
    static let lineWidth = 80

    /// The lines of `names` laid out in columns (none for no names), without trailing spaces.
    static func lines(_ names: [String]) -> [String] {
        let names = names.sorted()
        guard !names.isEmpty else { return [] }
        let width = names.map { TerminalWidth.of($0) }.max() ?? 0
        let columns = max(1, lineWidth / (width + 2))
        let rows = (names.count + columns - 1) / columns
        return (0..<rows).map { row in
            var line = GridLine()
            for index in stride(from: row, to: names.count, by: rows) {
                if index >= rows { line.pad(2) }
                line.cell(RenderCell(heading: names[index]), width: width, rightAligned: false, styled: names[index])
            }
            return line.text
        }
    }

    /// Whether `name` matches a SQL LIKE pattern as SQLite matches it: `%` any run of
    /// characters, `_` any one, ASCII letters in either case.
    static func matches(_ name: String, like pattern: String) -> Bool {
        func folded(_ text: String) -> [Character] { text.map { $0.isASCII ? Character($0.lowercased()) : $0 } }
        let name = folded(name), pattern = folded(pattern)
        // matched[j]: whether the name so far matches pattern[..<j].
        var matched = [true] + Array(repeating: false, count: pattern.count)
        for j in pattern.indices where pattern[j] == "%" { matched[j + 1] = matched[j] }
        for character in name {
            var next = [false] + Array(repeating: false, count: pattern.count)
            for (j, symbol) in pattern.enumerated() {
                switch symbol {
                case "%": next[j + 1] = next[j] || matched[j + 1]
                case "_": next[j + 1] = matched[j]
                default: next[j + 1] = matched[j] && symbol == character
                }
            }
            matched = next
        }
        return matched[pattern.count]
    }
}
