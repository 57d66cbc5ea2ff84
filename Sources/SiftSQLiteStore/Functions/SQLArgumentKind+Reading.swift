import SiftEvaluation
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLArgumentKind {
    /// The attribute type whose columns hold values of this kind (nil: read as stored).
    private var attributeType: AttributeType? {
        switch self {
        case .integer: .integer64
        case .boolean: .boolean
        case .real: .double
        case .decimal: .decimal
        case .mixed, .null: nil
        case .string: .string
        case .date: .date
        case .data: .binary
        case .uuid: .uuid
        }
    }

    /// A SQLite value of this kind as the evaluator's value (``ColumnCodec/decode(_:as:)``).
    func value(of stored: SQLiteValue) -> Value {
        ColumnCodec.decode(stored, as: attributeType)
    }
}
