/// A table (or view) of a database as its catalog describes it: what opening any existing
/// database needs to read it. `PostgreSQLConnection.catalogTables()` reads them.
public struct PostgreSQLTable: Hashable, Sendable {
    /// What kind of relation it is (`pg_class.relkind`).
    public enum Kind: String, Hashable, Sendable {
        case table, partitionedTable, view, materializedView, foreignTable
    }

    public let schema: String
    public let name: String
    public let kind: Kind
    /// The columns in their order (dropped ones left out).
    public var columns: [PostgreSQLTableColumn] = []
    /// The primary key's columns in key order; empty when there is none.
    public var primaryKey: [String] = []
    /// The foreign keys, by name.
    public var foreignKeys: [PostgreSQLForeignKey] = []
    /// The indexes, by name (the primary key's and unique constraints' too).
    public var indexes: [PostgreSQLIndex] = []

    public init(schema: String, name: String, kind: Kind) {
        self.schema = schema
        self.name = name
        self.kind = kind
    }

    /// `"schema"."name"`, for SQL text.
    public var qualifiedName: String { PostgreSQLIdentifier.qualified(schema: schema, name: name) }
}

/// A column of a table.
public struct PostgreSQLTableColumn: Hashable, Sendable {
    public let name: String
    /// The type as SQL writes it, with its modifiers: `integer`, `character varying(20)`,
    /// `numeric(10,2)`, `timestamp with time zone`, `text[]`.
    public let typeName: String
    /// The type's OID (what result columns of it report).
    public let type: PostgreSQLTypeOID
    /// Whether it may be NULL (no `NOT NULL`).
    public let isNullable: Bool
    /// The default's SQL (`nextval('t_id_seq'::regclass)`, `now()`); nil when there is none.
    public let defaultExpression: String?
    /// Whether it is an identity column (`GENERATED … AS IDENTITY`).
    public let isIdentity: Bool

    public init(name: String, typeName: String, type: PostgreSQLTypeOID, isNullable: Bool, defaultExpression: String?, isIdentity: Bool) {
        self.name = name
        self.typeName = typeName
        self.type = type
        self.isNullable = isNullable
        self.defaultExpression = defaultExpression
        self.isIdentity = isIdentity
    }
}

/// A foreign key: `columns` of its table reference `referencedColumns` of another (or the same).
public struct PostgreSQLForeignKey: Hashable, Sendable {
    /// What happens to the referencing rows when a referenced row is deleted or its key updated.
    public enum Action: String, Hashable, Sendable {
        case noAction, restrict, cascade, setNull, setDefault

        /// The action of `pg_constraint.confdeltype`/`confupdtype`'s letter.
        init(code: String) {
            switch code {
            case "r": self = .restrict
            case "c": self = .cascade
            case "n": self = .setNull
            case "d": self = .setDefault
            default: self = .noAction
            }
        }
    }

    /// The constraint's name.
    public let name: String
    public let columns: [String]
    public let referencedSchema: String
    public let referencedTable: String
    public let referencedColumns: [String]
    public let onDelete: Action
    public let onUpdate: Action

    public init(
        name: String, columns: [String], referencedSchema: String, referencedTable: String,
        referencedColumns: [String], onDelete: Action, onUpdate: Action
    ) {
        self.name = name
        self.columns = columns
        self.referencedSchema = referencedSchema
        self.referencedTable = referencedTable
        self.referencedColumns = referencedColumns
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }
}

/// An index of a table.
public struct PostgreSQLIndex: Hashable, Sendable {
    public let name: String
    /// The key columns in order; nil for a key that is an expression (`lower(name)`).
    /// `INCLUDE` columns are not keys and are left out.
    public let columns: [String?]
    public let isUnique: Bool
    /// Whether it is the primary key's index.
    public let isPrimaryKey: Bool
    /// `CREATE INDEX …` as the server writes it (`pg_get_indexdef`): expressions, a partial
    /// index's `WHERE`, the method, the sort order.
    public let definition: String

    public init(name: String, columns: [String?], isUnique: Bool, isPrimaryKey: Bool, definition: String) {
        self.name = name
        self.columns = columns
        self.isUnique = isUnique
        self.isPrimaryKey = isPrimaryKey
        self.definition = definition
    }
}
