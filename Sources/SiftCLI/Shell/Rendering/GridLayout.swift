import Sift

/// The columns of a table (table, box and markdown modes) and their widths in cells: measured
/// on the headings and a first batch of records, set by `.width`, and cut to fit a terminal.
///
/// A number is never cut: a column is always at least as wide as the widest number measured in
/// it, whatever `.width` or the terminal say. Markdown is never cut at all: its columns are at
/// least as wide as their values, and a Markdown table is not fitted to a terminal.
struct GridLayout {
    let columns: [String]
    /// Each column's width in cells.
    private(set) var widths: [Int]
    /// Columns whose measured values are all numbers (or nil): Markdown's rule aligns them
    /// right (`--:`), and their headings are right-aligned unless the options say otherwise.
    let numeric: [Bool]
    /// Headings right-aligned: over numeric columns, unless ``RenderOptions/alignsHeadingsWithNumbers``
    /// is off.
    let rightAlignedHeadings: [Bool]
    /// The headings' cells; nil with `.headers off`.
    let headings: [RenderCell]?
    /// Columns whose width `.width` set.
    private let fixed: [Bool]
    /// Each column's narrowest width: its widest number (0 when it has none).
    private let floors: [Int]

    /// Columns are never cut narrower than this to fit a terminal (unless their values are).
    static let narrowest = 4

    /// The widest `.width` may set a column (its padding is made of this many spaces).
    static let widest = 10_000

    /// Measures `records` (the first batch) under `columns`: each column as wide as its heading
    /// and widest value (at least ``RenderOptions/narrowestColumn``), or as `.width` sets it
    /// (`widths[i]` > 0; longer cells are cut, but never a number, and nothing in Markdown).
    init(columns: [String], records: [Value], context: RenderContext, markdown: Bool) {
        let rows = records.map { record in
            columns.map { RenderCell(ColumnSet.cell(record, $0), nullValue: context.options.nullValue, markdown: markdown) }
        }
        self.init(columns: columns, rows: rows, context: context, markdown: markdown)
    }

    /// Measures the cells of a first batch's records (`rows`, a cell per column each) under
    /// `columns`, as ``init(columns:records:context:markdown:)`` measures the records.
    init(columns: [String], rows: [[RenderCell]], context: RenderContext, markdown: Bool) {
        self.columns = columns
        let headings = columns.map { RenderCell(heading: $0, markdown: markdown) }
        self.headings = context.options.headers ? headings : nil
        var widths = context.options.headers ? headings.map(\.width) : Array(repeating: 0, count: columns.count)
        var floors = Array(repeating: 0, count: columns.count)
        var numbers = Array(repeating: 0, count: columns.count)
        var others = Array(repeating: 0, count: columns.count)
        for row in rows {
            for (c, cell) in row.enumerated() {
                widths[c] = max(widths[c], cell.width)
                if cell.isNumber {
                    numbers[c] += 1
                    floors[c] = max(floors[c], cell.width)
                } else if !cell.isNull {
                    others[c] += 1
                }
            }
        }
        if markdown { floors = widths }
        var fixed = Array(repeating: false, count: columns.count)
        for (c, width) in context.options.widths.prefix(columns.count).enumerated() where width > 0 {
            widths[c] = max(width, floors[c])
            fixed[c] = true
        }
        self.fixed = fixed
        self.floors = floors
        let narrowest = context.options.narrowestColumn
        self.widths = widths.map { max($0, narrowest) }
        let numeric = zip(numbers, others).map { $0 > 0 && $1 == 0 }
        self.numeric = numeric
        rightAlignedHeadings = context.options.alignsHeadingsWithNumbers ? numeric : numeric.map { _ in false }
    }

    /// Makes every column at least as wide as in `earlier` (a batch printed before), unless
    /// `.width` fixed it.
    mutating func widen(toAtLeast earlier: [Int]) {
        for (c, width) in earlier.enumerated() where c < widths.count && !fixed[c] { widths[c] = max(widths[c], width) }
    }

    /// Cuts the widest columns until the sum of the widths is at most `available` cells: every
    /// column wider than some limit is cut to it (the largest limit that fits, never below
    /// ``narrowest`` nor below the column's widest number), and cells left over widen the cut
    /// columns one each, left to right. When even that is too wide, the table is wider than
    /// `available`.
    mutating func fit(into available: Int) {
        guard widths.reduce(0, +) > available else { return }
        let floors = self.floors
        func cut(_ c: Int, _ limit: Int) -> Int { max(min(widths[c], limit), floors[c]) }
        func total(_ limit: Int) -> Int { widths.indices.reduce(0) { $0 + cut($1, limit) } }
        var low = Self.narrowest
        var high = widths.max() ?? Self.narrowest
        guard total(low) <= available else {
            widths = widths.indices.map { cut($0, low) }
            return
        }
        while low < high {  // the largest limit whose total fits
            let middle = (low + high + 1) / 2
            if total(middle) <= available { low = middle } else { high = middle - 1 }
        }
        var spare = available - total(low)
        widths = widths.indices.map { c in
            let width = widths[c]
            guard width > low, floors[c] < width else { return width }
            guard floors[c] <= low else { return floors[c] }
            guard spare > 0 else { return low }
            spare -= 1
            return low + 1
        }
    }
}
