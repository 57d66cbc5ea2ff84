/// One row of a `PostgreSQLResult`, which it keeps alive. Its values are decoded when read.
public struct PostgreSQLRow: Sendable, RandomAccessCollection {
    /// The result the row belongs to.
    public let result: PostgreSQLResult
    let index: Int32

    public var startIndex: Int { 0 }
    /// The number of columns.
    public var endIndex: Int { result.columnCount }

    /// The value in column `column` (0-based), decoded by its type; `.null` past the last column.
    public subscript(column: Int) -> PostgreSQLValue {
        result.value(row: index, column: Int32(truncatingIfNeeded: column))
    }

    /// The value in the first column named `name`; nil when no column has that name.
    public subscript(name: String) -> PostgreSQLValue? {
        guard let column = result.columns.firstIndex(where: { $0.name == name }) else { return nil }
        return self[column]
    }

    /// Every value of the row, in column order.
    public var values: [PostgreSQLValue] { Array(self) }
}
