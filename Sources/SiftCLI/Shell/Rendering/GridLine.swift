/// A line of a table built from padding and styled text: padding is only written when text
/// follows it, so a line ends without trailing spaces.
struct GridLine {
    private(set) var text = ""
    private var spaces = 0

    /// Padding of `count` cells.
    mutating func pad(_ count: Int) {
        spaces += max(0, count)
    }

    /// Text, after the padding before it.
    mutating func append(_ piece: String) {
        guard !piece.isEmpty else { return }
        text += String(repeating: " ", count: spaces)
        spaces = 0
        text += piece
    }

    /// A cell padded to `width` cells, on the left when it is right-aligned (`styled` is its
    /// text as printed, with any colour).
    mutating func cell(_ cell: RenderCell, width: Int, rightAligned: Bool, styled: String) {
        let padding = max(0, width - cell.width)
        if rightAligned { pad(padding) }
        append(styled)
        if !rightAligned { pad(padding) }
    }
}
