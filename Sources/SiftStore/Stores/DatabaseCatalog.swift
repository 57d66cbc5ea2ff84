/// What a database Sift did not create declares beyond the model Sift reads it as: its indexes
/// and the columns it declares NOT NULL — what `sqlite3`'s `.indexes` and `.schema` show, for
/// the REPL's `.indexes` and `.describe` (``PersistentStore/databaseCatalog()``).
public struct DatabaseCatalog: Sendable, Hashable {
    /// An index as the database names it.
    public struct Index: Sendable, Hashable {
        /// Its name (`IFK_InvoiceCustomerId`; an index the database made for a PRIMARY KEY or
        /// UNIQUE constraint has the database's own name, `sqlite_autoindex_Teams_1`).
        public let name: String
        /// The table it indexes.
        public let table: String
        /// The columns it indexes, in order (an expression is shown as `<expression>`).
        public let columns: [String]
        /// Whether it is UNIQUE (a PRIMARY KEY's or UNIQUE constraint's index included).
        public let isUnique: Bool

        public init(name: String, table: String, columns: [String], isUnique: Bool) {
            self.name = name
            self.table = table
            self.columns = columns
            self.isUnique = isUnique
        }
    }

    /// Every index, sorted by name, as `sqlite3`'s `.indexes` lists them.
    public let indexes: [Index]
    /// For each entity, the attributes and to-one relationships whose columns the database
    /// declares NOT NULL (or that are its INTEGER PRIMARY KEY, which is never NULL).
    public let requiredProperties: [String: Set<String>]

    public init(indexes: [Index], requiredProperties: [String: Set<String>]) {
        self.indexes = indexes.sorted { $0.name < $1.name }
        self.requiredProperties = requiredProperties
    }

    /// The indexes of one table, sorted by name.
    public func indexes(of table: String) -> [Index] {
        indexes.filter { $0.table == table }
    }
}
