import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// The SQLite connection's side of the compiler's neutral values: binding them and reading
/// columns back as them, without a second copy of each value.
extension SQLiteStatement {
    /// Binds `values` to parameters 1…n, as `bind(_:)` of SQLite's own values does (each
    /// converted as it is bound: no second array per bound row).
    func bind(sqlValues values: [SQLValue]) throws(SQLiteError) {
        try bind(count: values.count) { SQLiteValue(values[$0]) }
    }

    /// Column `index` as a neutral value of its own storage class.
    func neutralValue(_ index: Int32) -> SQLValue {
        switch columnType(index) {
        case .integer: .integer(int64(index))
        case .real: .real(double(index))
        case .text: .text(text(index))
        case .blob: .blob(blob(index))
        case .null: .null
        }
    }
}

extension SQLiteValue {
    /// The neutral value as SQLite binds it.
    package init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let i): self = .integer(i)
        case .real(let d): self = .real(d)
        case .text(let s): self = .text(s)
        case .blob(let b): self = .blob(b)
        }
    }
}

extension SQLValue {
    /// SQLite's value as the compiler's neutral one.
    package init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let i): self = .integer(i)
        case .real(let d): self = .real(d)
        case .text(let s): self = .text(s)
        case .blob(let b): self = .blob(b)
        }
    }
}

extension ColumnCodec {
    /// A value as stored, in SQLite's own type (what Sift's registered functions return).
    static func sqliteEncoded(_ value: Value) -> SQLiteValue {
        SQLiteValue(encode(value))
    }

    /// A value SQLite handed a registered function, read back as an attribute of `type`.
    static func decode(_ stored: SQLiteValue, as type: AttributeType?) -> Value {
        decode(SQLValue(stored), as: type)
    }

    /// Column `column` of the statement's current row, as `decode(_:as:)` reads it (without
    /// making a `SQLValue` of text first).
    static func decode(_ statement: SQLiteStatement, column: Int32, as type: AttributeType?) -> Value {
        switch statement.columnType(column) {
        case .null: .null
        // (The common cases without a `SQLValue`; the rest as `decode(_:as:)` has them.)
        case .integer:
            switch type {
            case .boolean?, .date?, .decimal?, .double?, .float?: decode(SQLValue.integer(statement.int64(column)), as: type)
            default: .int(statement.int64(column))
            }
        case .real:
            switch type {
            case .date?: .date(Date(timeIntervalSinceReferenceDate: statement.double(column)))
            case .decimal?: decode(SQLValue.real(statement.double(column)), as: type)
            default: .double(statement.double(column))
            }
        case .text: type == .decimal ? decode(SQLValue.text(statement.text(column)), as: type) : .string(statement.text(column))
        case .blob: decode(SQLValue.blob(statement.blob(column)), as: type)
        }
    }
}
