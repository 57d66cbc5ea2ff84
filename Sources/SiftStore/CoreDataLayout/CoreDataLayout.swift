/// The tables and columns Core Data's SQLite store lays out for a model, computed from the model
/// alone (no database): one table `Z<ROOT>` per inheritance root holding the rows of every
/// entity below it, the entity numbers `Z_ENT` (as `Z_PRIMARYKEY` lists them), a column per
/// attribute and to-one relationship, and a join table per many-to-many relationship.
///
/// Every column says which entity and property it stores (``Column/Role``), and
/// ``mapping(entity:property:)`` says where a property lives, so a SQL compiler can turn key
/// paths into columns. docs/COREDATA-STORES.md ("The layout, as found in the fixtures") gives the
/// rules and how the fixture stores confirm them.
///
///     let layout = CoreDataLayout(coreDataModel)
///     layout.entity(named: "Note")?.number   // its Z_ENT
///     layout.mapping(entity: "Note", property: "title")   // .attribute(table: "ZNOTE", column: "ZTITLE")
public struct CoreDataLayout: Sendable {
    /// The model's entities, in Core Data's numbering order (``Entity/number`` 1, 2, ...).
    public private(set) var entities: [Entity]
    /// The tables: each root entity's table followed by the join tables its entities own, in
    /// the order Core Data creates them.
    public private(set) var tables: [Table]
    private var entityIndex: [String: Int]
    private var tableIndex: [String: Int]
    private var mappings: [String: [String: PropertyMapping]]

    /// An entity: its number, its place in the inheritance tree and its table.
    public struct Entity: Sendable, Equatable {
        public var name: String
        /// Its `Z_ENT` value (and its `Z_PRIMARYKEY.Z_ENT`), from 1.
        public var number: Int
        /// The parent entity's name; nil for a root.
        public var parent: String?
        /// The parent's number, 0 for a root (`Z_PRIMARYKEY.Z_SUPER`).
        public var superNumber: Int
        /// The inheritance root whose table holds this entity's rows.
        public var root: String
        /// That table's name, `Z` + the root's name upper-cased.
        public var table: String
        /// The numbers of this entity and every entity below it, ascending: the `Z_ENT` values of
        /// its rows (`Z_ENT IN (...)` selects its objects, sub-entities included).
        public var kindNumbers: [Int]
        /// Whether other entities inherit from it (a to-one to it then also stores `Z<n>_NAME`).
        public var hasSubentities: Bool { kindNumbers.count > 1 }
    }

    /// A table: an entity table or a many-to-many join table.
    public struct Table: Sendable, Equatable {
        public var name: String
        public var kind: Kind
        /// Its columns, in Core Data's order.
        public var columns: [Column]

        public enum Kind: Sendable, Equatable {
            /// The rows of an inheritance root and every entity below it.
            case entity(root: String)
            /// The pairs of a many-to-many relationship (`entity`'s `relationship`, and its inverse).
            case join(entity: String, relationship: String)
        }

        /// The column named `name` (case-insensitively, as SQLite matches names).
        public func column(named name: String) -> Column? {
            let folded = name.uppercased()
            return columns.first { $0.name.uppercased() == folded }
        }
    }

    /// A column: its name, the type Core Data declares for it, and what it stores.
    public struct Column: Sendable, Equatable {
        public var name: String
        /// The declared type in `CREATE TABLE`: `INTEGER`, `FLOAT`, `TIMESTAMP`, `VARCHAR`,
        /// `BLOB`, `DECIMAL` (``CoreDataLayout/declaredType(of:)``).
        public var declaredType: String
        public var role: Role

        /// What a column stores.
        public enum Role: Sendable, Equatable {
            /// `Z_PK`, the row's key.
            case primaryKey
            /// `Z_ENT`, the number of the row's entity.
            case entityNumber
            /// `Z_OPT`, the row's version (optimistic locking).
            case version
            /// An attribute of `entity` (which declares it), of Core Data type `type`.
            case attribute(entity: String, name: String, type: AttributeType)
            /// A to-one relationship's foreign key: the destination row's `Z_PK`.
            case toOne(entity: String, relationship: String, destination: String)
            /// `Z<n>_NAME`: the destination row's `Z_ENT`, for a to-one whose destination has
            /// sub-entities (n is the destination's number).
            case toOneEntity(entity: String, relationship: String)
            /// `Z_FOK_NAME`: this row's position in the ordered to-many that is the inverse of
            /// the to-one `relationship` of `entity`.
            case toOneOrder(entity: String, relationship: String)
            /// In a join table: the `Z_PK` of `entity`'s object, the owner of `relationship`.
            case joinOwner(entity: String, relationship: String)
            /// In a join table: the `Z_PK` of a destination of `entity`'s `relationship`.
            case joinDestination(entity: String, relationship: String)
            /// In a join table: the destination's position in `entity`'s ordered `relationship`.
            case joinOrder(entity: String, relationship: String)
        }
    }

    /// Where a property's value lives.
    public enum PropertyMapping: Sendable, Equatable {
        /// An attribute: a column of the entity's table.
        case attribute(table: String, column: String)
        /// A to-one relationship: the foreign key column (the destination's `Z_PK`), the entity
        /// column when the destination has sub-entities, and the order column when the inverse
        /// is an ordered to-many.
        case toOne(table: String, column: String, entityColumn: String?, orderColumn: String?)
        /// A to-many relationship whose inverse is a to-one: the destination table's foreign key
        /// column pointing back (and its order column, for an ordered relationship).
        case toManyThroughInverse(table: String, column: String, orderColumn: String?)
        /// A many-to-many relationship (or a to-many without an inverse): a join table, the column
        /// holding the owner's `Z_PK`, the column holding the destination's, and the order column
        /// of an ordered relationship.
        case joinTable(table: String, ownerColumn: String, destinationColumn: String, orderColumn: String?)
    }

    /// The entity named `name`.
    public func entity(named name: String) -> Entity? { entityIndex[name].map { entities[$0] } }

    /// The entity numbered `number` (a `Z_ENT` value).
    public func entity(number: Int) -> Entity? {
        guard number >= 1, number <= entities.count else { return nil }
        return entities[number - 1]
    }

    /// The table named `name` (case-insensitively).
    public func table(named name: String) -> Table? { tableIndex[name.uppercased()].map { tables[$0] } }

    /// Where `entity`'s `property` (its own or inherited) is stored; nil for an unknown entity or
    /// property.
    public func mapping(entity: String, property: String) -> PropertyMapping? {
        var current: String? = entity
        var steps = 0
        while let name = current, steps <= entities.count {
            if let found = mappings[name]?[property] { return found }
            current = self.entity(named: name)?.parent
            steps += 1
        }
        return nil
    }

    init(entities: [Entity], tables: [Table], mappings: [String: [String: PropertyMapping]]) {
        self.entities = entities
        self.tables = tables
        self.mappings = mappings
        self.entityIndex = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.tableIndex = Dictionary(tables.enumerated().map { ($1.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
    }
}
