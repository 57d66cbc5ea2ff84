import SiftPostgreSQL
import SiftSQL
import SiftStore

/// The attribute type of a column of a PostgreSQL database Sift did not create, and how it is
/// read: as it is, or in the form the compiler and the evaluator both read it.
///
/// | declared type | attribute type | read as |
/// |---|---|---|
/// | `smallint`, `integer`, `bigint` | Integer 16, 32, 64 | itself |
/// | `real` / `double precision` | Float / Double | itself |
/// | `numeric` | Decimal | itself |
/// | `boolean` | Boolean | itself (the compiler reads `::integer`) |
/// | `timestamptz` | Date | itself (the compiler reads seconds since 2001) |
/// | `timestamp`, `date` | Date | as a `timestamp` (a `date` at midnight), taken to be UTC |
/// | `bytea` | Binary | itself |
/// | `uuid` | UUID | itself |
/// | `text`, `varchar` | String | itself, compared `COLLATE "C"` (code-point order, as the evaluator) |
/// | `char(n)`, `name`, `citext`, `json`, `jsonb`, and any other type | String | `::text`, compared `COLLATE "C"` |
///
/// Reading other types as their text keeps the server and the evaluator on the same values:
/// `char(n)` keeps its padding out of comparisons in PostgreSQL only, and `citext` compares
/// without case in PostgreSQL only; as text, both compare as the evaluator does.
struct PostgreSQLForeignColumnType {
    let attributeType: AttributeType
    /// The column's type as the dialect and the row layout read it (`PostgreSQLDialect`'s
    /// `columnTypes`); nil: read as it is.
    let columnType: String?

    init(_ column: PostgreSQLTableColumn) {
        switch column.type {
        case .int2: (attributeType, columnType) = (.integer16, nil)
        case .int4: (attributeType, columnType) = (.integer32, nil)
        case .int8: (attributeType, columnType) = (.integer64, nil)
        case .float4: (attributeType, columnType) = (.float, nil)
        case .float8: (attributeType, columnType) = (.double, nil)
        case .numeric: (attributeType, columnType) = (.decimal, nil)
        case .bool: (attributeType, columnType) = (.boolean, "boolean")
        case .timestamptz: (attributeType, columnType) = (.date, "timestamptz")
        case .timestamp: (attributeType, columnType) = (.date, "timestamp")
        case .date: (attributeType, columnType) = (.date, "date")
        case .bytea: (attributeType, columnType) = (.binary, nil)
        case .uuid: (attributeType, columnType) = (.uuid, "uuid")
        case .text, .varchar: (attributeType, columnType) = (.string, nil)
        default: (attributeType, columnType) = (.string, PostgreSQLDialect.readAsText)
        }
    }

    /// The selected column `quoted` (`"t0"."c"`) of type `columnType`, as rows decode it: a
    /// `date` as a `timestamp`, a column read as text as its text; any other as it is.
    static func selected(_ quoted: String, columnType: String?) -> String {
        switch columnType {
        case "date"?: "(\(quoted)::timestamp)"
        case PostgreSQLDialect.readAsText?, PostgreSQLDialect.readAsTextInNFC?: "(\(quoted)::text)"
        default: quoted
        }
    }
}
