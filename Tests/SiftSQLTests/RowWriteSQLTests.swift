import Foundation
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// The exact statements the SQLite and PostgreSQL stores write rows with (``RowWriteSQL``, one
/// builder in two dialects): the same text but for placeholders, PostgreSQL's `::bigint` where a
/// key has no other type, `INSERT OR IGNORE` / `ON CONFLICT DO NOTHING`, and the folded columns
/// of searchable attributes, which only the SQLite store has.
@Suite struct RowWriteSQLTests {
    static let json = #"""
    {
      "name": "Shelf",
      "entities": [
        {"name": "List",
         "attributes": [{"name": "title", "type": "String", "searchable": true}],
         "relationships": [
           {"name": "items", "destination": "Item", "toMany": true, "ordered": true, "inverse": "lists"},
           {"name": "owner", "destination": "Person"}
         ]},
        {"name": "Item",
         "attributes": [{"name": "name", "type": "String"}],
         "relationships": [{"name": "lists", "destination": "List", "toMany": true, "inverse": "items"}]},
        {"name": "Person", "attributes": [{"name": "name", "type": "String"}]}
      ]
    }
    """#

    static func statements(_ entity: String, _ dialect: RowWriteDialect) throws -> RowWriteSQL {
        let schema = try SQLSchema.forModel(try JSONModelFormat.read(Data(json.utf8)))
        let table = try #require(schema.table(for: entity))
        return RowWriteSQL(entity: table.entity, table: table, schema: schema, dialect: dialect)
    }

    static func relationship(_ name: String, of entity: String, _ dialect: RowWriteDialect) throws -> RelationshipWriteSQL {
        let sql = try statements(entity, dialect)
        let schema = try SQLSchema.forModel(try JSONModelFormat.read(Data(json.utf8)))
        let slot = try #require(schema.table(for: entity)?.entity.relationships.firstIndex { $0.name == name })
        return sql.relationships[slot]
    }

    @Test func insertAndUpdate() throws {
        let sqlite = try Self.statements("List", .sqlite), postgres = try Self.statements("List", .postgreSQL)
        #expect(sqlite.insert == #"INSERT INTO "List" ("_pk", "_id", "_entity", "title", "_cd_title", "_c_title") VALUES (?1, ?2, ?3, ?4, ?5, ?6)"#)
        // (PostgreSQL's hidden columns add localizedStandardCompare's sort key.)
        #expect(postgres.insert == #"INSERT INTO "List" ("_pk", "_id", "_entity", "title", "_cd_title", "_c_title", "_s_title") VALUES ($1, $2, $3, $4, $5, $6, $7)"#)
        #expect(sqlite.update(["title", "_cd_title"]) == #"UPDATE "List" SET "title" = ?1, "_cd_title" = ?2 WHERE "_pk" = ?3"#)
        #expect(postgres.update(["title"]) == #"UPDATE "List" SET "title" = $1 WHERE "_pk" = $2"#)
        #expect(sqlite.objectID == #"SELECT "_id" FROM "List" WHERE "_pk" = ?1"#)
        #expect(postgres.objectID == #"SELECT "_id" FROM "List" WHERE "_pk" = $1"#)
    }

    @Test func orderedJoinTable() throws {
        let sqlite = try Self.relationship("items", of: "List", .sqlite), postgres = try Self.relationship("items", of: "List", .postgreSQL)
        #expect(sqlite.add == #"INSERT INTO "List.items" ("_owner", "_target", "_position") SELECT ?1, ?2, (SELECT coalesce(max("_position") + 1, 0) FROM "List.items" WHERE "_owner" = ?1) WHERE NOT EXISTS (SELECT 1 FROM "List.items" WHERE "_owner" = ?1 AND "_target" = ?2)"#)
        #expect(postgres.add == #"INSERT INTO "List.items" ("_owner", "_target", "_position") SELECT $1::bigint, $2::bigint, (SELECT coalesce(max("_position") + 1, 0) FROM "List.items" WHERE "_owner" = $1) WHERE NOT EXISTS (SELECT 1 FROM "List.items" WHERE "_owner" = $1 AND "_target" = $2)"#)
        #expect(postgres.insertAt == #"INSERT INTO "List.items" ("_owner", "_target", "_position") VALUES ($1, $2, $3)"#)
        #expect(sqlite.destinations == #"SELECT "d"."_pk", "d"."_entity" FROM "List.items" AS "j" JOIN "Item" AS "d" ON "d"."_pk" = "j"."_target" WHERE "j"."_owner" = ?1 ORDER BY "j"."_position""#)
    }

    @Test func unorderedJoinTable() throws {
        let sqlite = try Self.relationship("lists", of: "Item", .sqlite), postgres = try Self.relationship("lists", of: "Item", .postgreSQL)
        #expect(sqlite.add == #"INSERT OR IGNORE INTO "Item.lists" ("_owner", "_target", "_position") VALUES (?1, ?2, ?2)"#)
        #expect(postgres.add == #"INSERT INTO "Item.lists" ("_owner", "_target", "_position") VALUES ($1, $2, $2) ON CONFLICT DO NOTHING"#)
        #expect(postgres.clear == #"DELETE FROM "Item.lists" WHERE "_owner" = $1"#)
    }

    @Test func toOneAndDroppedReferences() throws {
        let sqlite = try Self.relationship("owner", of: "List", .sqlite), postgres = try Self.relationship("owner", of: "List", .postgreSQL)
        #expect(sqlite.remove == #"UPDATE "List" SET "owner" = NULL WHERE "_pk" = ?1 AND "owner" = ?2"#)
        #expect(postgres.add == #"UPDATE "List" SET "owner" = $2 WHERE "_pk" = $1"#)
        let dropped = try #require(postgres.droppingReferences(keys: "= ANY($1)"))
        #expect(dropped.owners == #"SELECT "_pk", "_entity" FROM "List" WHERE "owner" = ANY($1)"#)
        #expect(dropped.change == #"UPDATE "List" SET "owner" = NULL WHERE "owner" = ANY($1)"#)
        let join = try #require(try Self.relationship("lists", of: "Item", .sqlite).droppingReferences(keys: "IN (?1, ?2)"))
        #expect(join.owners == #"SELECT DISTINCT "o"."_pk", "o"."_entity" FROM "Item.lists" AS "j" JOIN "Item" AS "o" ON "o"."_pk" = "j"."_owner" WHERE "j"."_target" IN (?1, ?2)"#)
        #expect(join.change == #"DELETE FROM "Item.lists" WHERE "_target" IN (?1, ?2)"#)
    }

    @Test func tableStatements() {
        #expect(RowWriteSQL.objectLookup(in: ["List", "Item"], dialect: .sqlite)
                == #"SELECT "_pk", "_entity" FROM "List" WHERE "_id" = ?1 UNION ALL SELECT "_pk", "_entity" FROM "Item" WHERE "_id" = ?1 LIMIT 1"#)
        #expect(RowWriteSQL.objectLookup(in: ["List", "Item"], dialect: .postgreSQL)
                == #"(SELECT "_pk", "_entity" FROM "List" WHERE "_id" = $1) UNION ALL (SELECT "_pk", "_entity" FROM "Item" WHERE "_id" = $1) LIMIT 1"#)
        #expect(RowWriteSQL.largestKey(in: "List") == #"SELECT max("_pk") FROM "List""#)
    }
}
