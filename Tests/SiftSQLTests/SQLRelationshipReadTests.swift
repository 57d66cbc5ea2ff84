import Foundation
import SiftPostgreSQLStore
import SiftSQL
import SiftSQLStore
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// The query every SQL store reads a relationship's destinations with (``SQLRelationshipRead``):
/// for each way a relationship is held (a to-one's key column, a to-many through its inverse's
/// column, a join table; in Sift's layout, a database Sift did not create, Core Data's), the
/// text for one owner and for many, as SQLite and PostgreSQL spell their owners' keys, and the
/// count of each owner's destinations.
@Suite struct SQLRelationshipReadTests {
    /// The destination layout's columns, as the driver would select them.
    static let columns = ["<columns>"]

    static let siftModel = #"""
    {"entities": [
      {"name": "Author", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "author"}]},
      {"name": "Book", "attributes": [{"name": "title", "type": "String"}],
       "relationships": [{"name": "author", "destination": "Author", "inverse": "books"},
                         {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books"}]},
      {"name": "Tag", "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags"}]},
      {"name": "Person", "relationships": [{"name": "cats", "destination": "Cat", "toMany": true, "inverse": "owner"},
                                           {"name": "dogs", "destination": "Dog", "toMany": true, "inverse": "owner"}]},
      {"name": "Animal", "attributes": [{"name": "name", "type": "String"}]},
      {"name": "Cat", "parent": "Animal", "relationships": [{"name": "owner", "destination": "Person", "inverse": "cats"}]},
      {"name": "Dog", "parent": "Animal", "relationships": [{"name": "owner", "destination": "Person", "inverse": "dogs"}]}
    ]}
    """#

    static func siftSchema() throws -> SQLSchema {
        try SQLSchema.forModel(try JSONModelFormat.read(Data(siftModel.utf8)))
    }

    /// Artist's albums are read through `Album.ArtistCode`, which holds `Artist.Code` (not its key).
    static func foreignSchema() throws -> SQLSchema {
        try IntrospectedSchema.schema(of: [
            IntrospectedTable(name: "Artist", primaryKey: "ArtistId", columns: [("ArtistId", .integer64), ("Code", .string)],
                              foreignKeys: [], collatedColumns: []),
            IntrospectedTable(name: "Album", primaryKey: "AlbumId", columns: [("AlbumId", .integer64), ("ArtistCode", .string)],
                              foreignKeys: [IntrospectedTable.ForeignKey(column: "ArtistCode", destinationTable: "Artist", destinationColumn: "Code")],
                              collatedColumns: []),
        ], name: "Music")
    }

    /// An ordered to-many through its inverse (`Z_FOK_FOLDER`) and a one-to-one Core Data keeps
    /// in both tables' columns (read from the other side's when its own is NULL).
    static func coreDataSchema() throws -> SQLSchema {
        let model = try DataModel(entities: [
            EntityDescription(name: "Folder", relationships: [RelationshipDescription(name: "notes", destination: "Note", isToMany: true, inverse: "folder", isOrdered: true)]),
            EntityDescription(name: "Note", relationships: [RelationshipDescription(name: "folder", destination: "Folder", inverse: "notes"),
                                                            RelationshipDescription(name: "body", destination: "NoteBody", inverse: "note")]),
            EntityDescription(name: "NoteBody", relationships: [RelationshipDescription(name: "note", destination: "Note", inverse: "body")]),
        ])
        var omitted: [String] = []
        return SQLSchema.forCoreData(model, layout: CoreDataLayout(model), storeUUID: "U", omitted: &omitted)
    }

    /// The read of `entity`'s relationship `name` in `schema`, for `owners`, in `dialect`.
    static func read(_ name: String, of entity: String, in schema: SQLSchema, _ owners: SQLRelationshipRead.Owners,
                     dialect: some SQLDialect = SQLiteDialect()) throws -> SQLRelationshipRead {
        let table = try #require(schema.table(for: entity))
        let relationship = try #require(table.entity.relationship(named: name))
        let held = try #require(table.relationships[name])
        let destination = try #require(schema.table(for: relationship.destination))
        let root = try #require(schema.table(for: destination.entity.rootEntity))
        return SQLRelationshipRead(relationship, of: table, held: held, destination: root, selecting: columns, owners: owners, schema: schema, dialect: dialect)
    }

    /// The count of `entity`'s relationship `name`'s destinations for the owners `IN (?1, ?2)`.
    static func count(_ name: String, of entity: String, in schema: SQLSchema) throws -> String? {
        let table = try #require(schema.table(for: entity))
        let relationship = try #require(table.entity.relationship(named: name))
        let destination = schema.table(for: relationship.destination)
        return SQLRelationshipRead.countSQL(relationship, of: table, held: try #require(table.relationships[name]),
                                            destination: destination.flatMap { schema.table(for: $0.entity.rootEntity) },
                                            keys: "IN (?1, ?2)", schema: schema, dialect: SQLiteDialect())
    }

    enum Layout: String, Sendable {
        case sift = "Sift", foreign, coreData = "Core Data"

        func schema() throws -> SQLSchema {
            switch self {
            case .sift: try SQLRelationshipReadTests.siftSchema()
            case .foreign: try SQLRelationshipReadTests.foreignSchema()
            case .coreData: try SQLRelationshipReadTests.coreDataSchema()
            }
        }
    }

    /// A relationship (`Entity.name`) of a layout, and its queries: one owner's (SQLite: `?1`),
    /// many owners' (SQLite: `IN (?1, ?2)`; the owner's key last), and many owners' count (nil:
    /// a to-one, never counted).
    struct Case: Sendable, CustomTestStringConvertible {
        let layout: Layout
        let path: String
        let sql: (one: String, many: String, count: String?)
        var testDescription: String { "\(layout.rawValue) \(path)" }
        var entity: String { String(path.split(separator: ".")[0]) }
        var relationship: String { String(path.split(separator: ".")[1]) }

        init(_ layout: Layout, _ path: String, one: String, many: String, count: String?) {
            self.layout = layout
            self.path = path
            sql = (one, many, count)
        }
    }

    static let cases: [Case] = [
        Case(.sift, "Book.author",
             one: #"SELECT <columns> FROM "Book" AS "s" JOIN "Author" AS "d" ON "d"."_pk" = "s"."author" WHERE "s"."_pk" = ?1"#,
             many: #"SELECT <columns>, "s"."_pk" FROM "Book" AS "s" JOIN "Author" AS "d" ON "d"."_pk" = "s"."author" WHERE "s"."_pk" IN (?1, ?2)"#,
             count: nil),
        Case(.sift, "Author.books",
             one: #"SELECT <columns> FROM "Book" AS "d" WHERE "d"."author" = ?1 ORDER BY "d"."_pk""#,
             many: #"SELECT <columns>, "d"."author" FROM "Book" AS "d" WHERE "d"."author" IN (?1, ?2) ORDER BY "d"."_pk""#,
             count: #"SELECT "d"."author", count(*) FROM "Book" AS "d" WHERE "d"."author" IN (?1, ?2) GROUP BY "d"."author""#),
        Case(.sift, "Book.tags",
             one: #"SELECT <columns> FROM "Book.tags" AS "j" JOIN "Tag" AS "d" ON "d"."_pk" = "j"."_target" WHERE "j"."_owner" = ?1 ORDER BY "j"."_position""#,
             many: #"SELECT <columns>, "j"."_owner" FROM "Book.tags" AS "j" JOIN "Tag" AS "d" ON "d"."_pk" = "j"."_target" WHERE "j"."_owner" IN (?1, ?2) ORDER BY "j"."_owner", "j"."_position""#,
             count: #"SELECT "j"."_owner", count(*) FROM "Book.tags" AS "j" JOIN "Tag" AS "d" ON "d"."_pk" = "j"."_target" WHERE "j"."_owner" IN (?1, ?2) GROUP BY "j"."_owner""#),
        // (Cat and Dog keep their owners in one column of Animal's table: only cats are a person's cats.)
        Case(.sift, "Person.cats",
             one: #"SELECT <columns> FROM "Animal" AS "d" WHERE "d"."owner" = ?1 AND "d"."_entity" IN ('Cat') ORDER BY "d"."_pk""#,
             many: #"SELECT <columns>, "d"."owner" FROM "Animal" AS "d" WHERE "d"."owner" IN (?1, ?2) AND "d"."_entity" IN ('Cat') ORDER BY "d"."_pk""#,
             count: #"SELECT "d"."owner", count(*) FROM "Animal" AS "d" WHERE "d"."owner" IN (?1, ?2) AND "d"."_entity" IN ('Cat') GROUP BY "d"."owner""#),
        Case(.foreign, "Album.ArtistCode",
             one: #"SELECT <columns> FROM "Album" AS "s" JOIN "Artist" AS "d" ON "d"."Code" = "s"."ArtistCode" WHERE "s"."AlbumId" = ?1"#,
             many: #"SELECT <columns>, "s"."AlbumId" FROM "Album" AS "s" JOIN "Artist" AS "d" ON "d"."Code" = "s"."ArtistCode" WHERE "s"."AlbumId" IN (?1, ?2)"#,
             count: nil),
        Case(.foreign, "Artist.albums",
             one: #"SELECT <columns> FROM "Artist" AS "s" JOIN "Album" AS "d" ON "d"."ArtistCode" = "s"."Code" WHERE "s"."ArtistId" = ?1 ORDER BY "d"."AlbumId""#,
             many: #"SELECT <columns>, "s"."ArtistId" FROM "Artist" AS "s" JOIN "Album" AS "d" ON "d"."ArtistCode" = "s"."Code" WHERE "s"."ArtistId" IN (?1, ?2) ORDER BY "d"."AlbumId""#,
             count: #"SELECT "s"."ArtistId", count(*) FROM "Artist" AS "s" JOIN "Album" AS "d" ON "d"."ArtistCode" = "s"."Code" WHERE "s"."ArtistId" IN (?1, ?2) GROUP BY "s"."ArtistId""#),
        Case(.coreData, "Folder.notes",
             one: #"SELECT <columns> FROM "ZNOTE" AS "d" WHERE "d"."ZFOLDER" = ?1 ORDER BY "d"."Z_FOK_FOLDER", "d"."Z_PK""#,
             many: #"SELECT <columns>, "d"."ZFOLDER" FROM "ZNOTE" AS "d" WHERE "d"."ZFOLDER" IN (?1, ?2) ORDER BY "d"."Z_FOK_FOLDER", "d"."Z_PK""#,
             count: #"SELECT "d"."ZFOLDER", count(*) FROM "ZNOTE" AS "d" WHERE "d"."ZFOLDER" IN (?1, ?2) GROUP BY "d"."ZFOLDER""#),
        Case(.coreData, "Note.body",
             one: #"SELECT <columns> FROM "ZNOTE" AS "s" JOIN "ZNOTEBODY" AS "d" ON "d"."Z_PK" = coalesce("s"."ZBODY", (SELECT "i"."Z_PK" FROM "ZNOTEBODY" AS "i" WHERE "i"."ZNOTE" = "s"."Z_PK" ORDER BY "i"."Z_PK" LIMIT 1)) WHERE "s"."Z_PK" = ?1"#,
             many: #"SELECT <columns>, "s"."Z_PK" FROM "ZNOTE" AS "s" JOIN "ZNOTEBODY" AS "d" ON "d"."Z_PK" = coalesce("s"."ZBODY", (SELECT "i"."Z_PK" FROM "ZNOTEBODY" AS "i" WHERE "i"."ZNOTE" = "s"."Z_PK" ORDER BY "i"."Z_PK" LIMIT 1)) WHERE "s"."Z_PK" IN (?1, ?2)"#,
             count: nil),
    ]

    @Test(arguments: cases)
    func readsAndCounts(_ expected: Case) throws {
        let schema = try expected.layout.schema()
        let one = try Self.read(expected.relationship, of: expected.entity, in: schema, .one)
        #expect(one.sql == expected.sql.one)
        #expect(one.ownerColumn == nil)
        let many = try Self.read(expected.relationship, of: expected.entity, in: schema, .many(keys: "IN (?1, ?2)"))
        #expect(many.sql == expected.sql.many)
        #expect(many.ownerColumn == Self.columns.count)
        #expect(try Self.count(expected.relationship, of: expected.entity, in: schema) == expected.sql.count)
    }

    /// PostgreSQL's read of many owners: its array of keys, `= ANY($1)`, and its placeholder for one.
    @Test func postgreSQLSpellsItsOwners() throws {
        let schema = try Self.siftSchema()
        let dialect = PostgreSQLDialect()
        #expect(try Self.read("books", of: "Author", in: schema, .many(keys: "= ANY($1)"), dialect: dialect).sql
            == #"SELECT <columns>, "d"."author" FROM "Book" AS "d" WHERE "d"."author" = ANY($1) ORDER BY "d"."_pk""#)
        #expect(try Self.read("author", of: "Book", in: schema, .many(keys: "= ANY($1)"), dialect: dialect).sql
            == #"SELECT <columns>, "s"."_pk" FROM "Book" AS "s" JOIN "Author" AS "d" ON "d"."_pk" = "s"."author" WHERE "s"."_pk" = ANY($1)"#)
        #expect(try Self.read("tags", of: "Book", in: schema, .one, dialect: dialect).sql
            == #"SELECT <columns> FROM "Book.tags" AS "j" JOIN "Tag" AS "d" ON "d"."_pk" = "j"."_target" WHERE "j"."_owner" = $1 ORDER BY "j"."_position""#)
    }
}
