/// What a real database says of itself, in words that need no SQLite: its tables with their
/// columns and declared types, its indexes, and the rows of Core Data's `Z_PRIMARYKEY`.
///
/// The store that opens a file fills it in (`PRAGMA table_info`, `PRAGMA index_list`, `SELECT
/// * FROM Z_PRIMARYKEY`); ``CoreDataLayout/check(_:)`` compares a model's layout with it, and
/// ``CoreDataSchemaModel`` makes a model from it when the store has none.
public struct CoreDataStoreSchema: Sendable, Equatable {
    /// The tables, in the database's order.
    public var tables: [Table]
    /// The indexes, by name (Core Data's name some properties: `Z_InstalledApp_bundleIdentifier`).
    public var indexes: [Index]
    /// The rows of `Z_PRIMARYKEY`, in `Z_ENT` order.
    public var primaryKeys: [PrimaryKeyRow]

    public init(tables: [Table], indexes: [Index] = [], primaryKeys: [PrimaryKeyRow]) {
        self.tables = tables
        self.indexes = indexes
        self.primaryKeys = primaryKeys
    }

    /// A table and its columns, in their order.
    public struct Table: Sendable, Equatable {
        public var name: String
        public var columns: [Column]
        public init(name: String, columns: [Column]) {
            self.name = name
            self.columns = columns
        }
    }

    /// A column and its declared type (empty when the column has none).
    public struct Column: Sendable, Equatable {
        public var name: String
        public var declaredType: String
        public init(name: String, declaredType: String) {
            self.name = name
            self.declaredType = declaredType
        }
    }

    /// An index: its name, its table and the columns it covers, in order.
    public struct Index: Sendable, Equatable {
        public var name: String
        public var table: String
        public var columns: [String]
        public var isUnique: Bool
        public init(name: String, table: String, columns: [String], isUnique: Bool = false) {
            self.name = name
            self.table = table
            self.columns = columns
            self.isUnique = isUnique
        }
    }

    /// A row of `Z_PRIMARYKEY`: an entity's number, name, parent's number (0 for none) and the
    /// last `Z_PK` it used.
    public struct PrimaryKeyRow: Sendable, Equatable {
        public var number: Int
        public var name: String
        public var superNumber: Int
        public var maximumKey: Int64
        public init(number: Int, name: String, superNumber: Int, maximumKey: Int64 = 0) {
            self.number = number
            self.name = name
            self.superNumber = superNumber
            self.maximumKey = maximumKey
        }
    }

    /// The table named `name`, case-insensitively (as SQLite matches names).
    public func table(named name: String) -> Table? {
        let folded = name.uppercased()
        return tables.first { $0.name.uppercased() == folded }
    }

    /// Whether the table named `table` exists and has every one of `columns` (names compared
    /// case-insensitively, as SQLite compares them).
    public func has(_ columns: [String], in table: String) -> Bool {
        guard let found = self.table(named: table) else { return false }
        let names = Set(found.columns.map { $0.name.uppercased() })
        return columns.allSatisfy { names.contains($0.uppercased()) }
    }

    /// Entity numbers from this one up belong to Core Data's persistent history (`CHANGE`,
    /// `TRANSACTION`, `TRANSACTIONSTRING` in tables `ACHANGE`, ...), not to the model.
    public static let firstHistoryEntityNumber = 16000

    /// The tables every Core Data store has besides its entities'.
    public static let bookkeepingTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]
}
