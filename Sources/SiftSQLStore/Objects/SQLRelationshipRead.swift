import SiftSQL
import SiftStore

/// The query reading a relationship's destinations, for every SQL store: of one owner (an
/// object's relationship read when asked) or of many at once (a batch's prefetch), each owner's
/// destinations in the relationship's order.
///
/// The core's part is the query's text: which tables are joined (the owner's, the destination's,
/// a join table), how (the owner's key column, or the column the destination's key column
/// refers to in a database Sift did not create; a Core Data one-to-one kept on the other side
/// only), which rows of a table shared by a hierarchy are the destination's, and the order. The
/// driver's part is its destination layout (the columns selected, aliased `"d"`, and its root
/// table), how its engine spells "one of these keys", binding the keys, running the query and
/// decoding the rows:
///
///     -- a to-one (this row's column holds the destination's key)
///     SELECT <destination columns>, "s"."_pk" FROM "Book" AS "s"
///       JOIN "Author" AS "d" ON "d"."_pk" = "s"."author" WHERE "s"."_pk" IN (?1, ?2, …)
///     -- a to-many held by the destination's to-one column
///     SELECT <destination columns>, "d"."author" FROM "Book" AS "d"
///       WHERE "d"."author" = ANY($1) ORDER BY "d"."_pk"
///     -- (… whose column holds another column than the key, in a database Sift did not create)
///     SELECT <destination columns>, "s"."_pk" FROM "Artist" AS "s"
///       JOIN "Album" AS "d" ON "d"."ArtistCode" = "s"."Code" WHERE "s"."_pk" IN (?1, …) ORDER BY "d"."_pk"
///     -- a to-many held in a join table
///     SELECT <destination columns>, "j"."_owner" FROM "Book.tags" AS "j"
///       JOIN "Tag" AS "d" ON "d"."_pk" = "j"."_target" WHERE "j"."_owner" IN (?1, ?2, …)
///       ORDER BY "j"."_owner", "j"."_position"
///
/// One owner's query is the same without the owner's key column and its place in the order,
/// the key compared with the dialect's first placeholder (`= ?1`).
package struct SQLRelationshipRead: Sendable {
    /// Whose destinations the query reads.
    package enum Owners: Sendable {
        /// One owner's, its key bound as the dialect's first parameter.
        case one
        /// Those whose keys pass `keys`, the driver's test following a key column
        /// (`IN (?1, ?2, …)`, `= ANY($1)`); each row ends with its owner's key.
        case many(keys: String)
    }

    /// The query's text.
    package let sql: String
    /// The column holding each row's owner's key, after the destination's columns (many
    /// owners); nil for one owner's.
    package let ownerColumn: Int?

    /// The query reading `relationship`'s destinations for rows of `table`, which holds it as
    /// `held`: `columns` are the driver's destination layout's selected columns (aliased `"d"`),
    /// `root` the table whose rows they decode (the destination's hierarchy's root, whose key
    /// orders destinations kept in no other order); `dialect` spells the one owner's placeholder
    /// and Core Data's one-to-one key.
    package init(_ relationship: RelationshipDescription, of table: EntityTable, held: RelationshipStorage, destination root: EntityTable,
                 selecting columns: [String], owners: Owners, schema: SQLSchema, dialect: some SQLDialect) {
        let keys: String
        switch owners {
        case .one: keys = "= " + dialect.placeholder(1)
        case .many(let test): keys = test
        }
        let joined = Joined(relationship, of: table, held: held, destination: root, keys: keys, schema: schema, dialect: dialect)
        var selected = columns
        var ordering = joined.order
        switch owners {
        case .one:
            ownerColumn = nil
        case .many:
            ownerColumn = selected.count
            selected.append(joined.owner)
            if joined.orderedByOwner { ordering.insert(joined.owner, at: 0) }
        }
        sql = "SELECT \(selected.joined(separator: ", ")) FROM \(joined.from)" + (ordering.isEmpty ? "" : " ORDER BY \(ordering.joined(separator: ", "))")
    }

    /// The query counting the destinations of the owners whose keys pass `keys` (a to-many
    /// relationship's, as ``Owners/many(keys:)``): rows of owner key and count, for the owners
    /// with any; the rows the read of many owners reads, counted. Nil for a to-one (held in the
    /// owner's own column), and for a join table when the destination has no table (`root`).
    ///
    ///     -- held by the destination's to-one column
    ///     SELECT "d"."author", count(*) FROM "Book" AS "d" WHERE "d"."author" IN (?1, ?2, …) GROUP BY "d"."author"
    ///     -- (… whose column holds another column than the key)
    ///     SELECT "s"."_pk", count(*) FROM "Artist" AS "s" JOIN "Album" AS "d" ON "d"."ArtistCode" = "s"."Code"
    ///       WHERE "s"."_pk" IN (?1, …) GROUP BY "s"."_pk"
    ///     -- held in a join table
    ///     SELECT "j"."_owner", count(*) FROM "Book.tags" AS "j" JOIN "Tag" AS "d" ON "d"."_pk" = "j"."_target"
    ///       WHERE "j"."_owner" IN (?1, ?2, …) GROUP BY "j"."_owner"
    package static func countSQL(_ relationship: RelationshipDescription, of table: EntityTable, held: RelationshipStorage,
                                 destination root: EntityTable?, keys: String, schema: SQLSchema, dialect: some SQLDialect) -> String? {
        switch held {
        case .foreignKey: return nil
        case .inverseForeignKey: break
        case .joinTable: if root == nil { return nil }
        }
        // (The root's key orders the rows read, not those counted: any table's stands in.)
        let joined = Joined(relationship, of: table, held: held, destination: root ?? table, keys: keys, schema: schema, dialect: dialect)
        return "SELECT \(joined.owner), count(*) FROM \(joined.from) GROUP BY \(joined.owner)"
    }

    /// The tables a relationship's destinations are read from, joined, and their order.
    private struct Joined {
        /// The owner's key column, qualified.
        let owner: String
        /// The tables, joined, and the WHERE clause choosing the owners' destinations.
        let from: String
        /// The order of one owner's destinations.
        let order: [String]
        /// Whether many owners' rows are ordered by owner first (a join table's order is the owner's own).
        let orderedByOwner: Bool

        init(_ relationship: RelationshipDescription, of table: EntityTable, held: RelationshipStorage, destination root: EntityTable,
             keys: String, schema: SQLSchema, dialect: some SQLDialect) {
            assert(table.relationships[relationship.name] == held, "the relationship is held as the table says")
            let destinationKey = SQLIdentifier.qualified("d", root.primaryKey)
            let ownerKey = SQLIdentifier.qualified("s", table.primaryKey)
            let source = "\(SQLIdentifier.quoted(table.table)) AS \"s\""
            switch held {
            case .foreignKey(let column, let destinationTable, let key):
                // (A one-to-one Core Data kept on the other side is read from there too.)
                let held = schema.toOneKeySQL(of: relationship.name, in: table, column: column, alias: "s", dialect: dialect)
                owner = ownerKey
                from = "\(source) JOIN \(SQLIdentifier.quoted(destinationTable)) AS \"d\" ON \(SQLIdentifier.qualified("d", key)) = \(held) WHERE \(owner) \(keys)"
                order = []
                orderedByOwner = false
            case .inverseForeignKey(let column, let destinationTable, let sourceKey, let position):
                // (Only the destination's rows: other entities' may hold keys in the same column.)
                let test = schema.table(for: relationship.destination).map { schema.inverseEntityTestSQL(column: column, destination: $0, alias: "d") } ?? ""
                let foreignKey = SQLIdentifier.qualified("d", column)
                let destinations = "\(SQLIdentifier.quoted(destinationTable)) AS \"d\""
                if sourceKey == table.primaryKey {
                    owner = foreignKey
                    from = "\(destinations) WHERE \(owner) \(keys)\(test)"
                } else {
                    // (A database Sift did not create: the column holds another of the owner's columns.)
                    owner = ownerKey
                    from = "\(source) JOIN \(destinations) ON \(foreignKey) = \(SQLIdentifier.qualified("s", sourceKey))\(test) WHERE \(owner) \(keys)"
                }
                order = (position.map { [SQLIdentifier.qualified("d", $0)] } ?? []) + [destinationKey]
                orderedByOwner = false
            case .joinTable(let name, let destinationTable, let join):
                owner = SQLIdentifier.qualified("j", join.owner)
                from = "\(SQLIdentifier.quoted(name)) AS \"j\" JOIN \(SQLIdentifier.quoted(destinationTable)) AS \"d\" ON \(destinationKey) = \(SQLIdentifier.qualified("j", join.target)) WHERE \(owner) \(keys)"
                order = [SQLIdentifier.qualified("j", join.order)]
                orderedByOwner = true
            }
        }
    }
}
