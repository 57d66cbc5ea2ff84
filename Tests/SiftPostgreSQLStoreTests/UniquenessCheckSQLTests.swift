@testable import SiftPostgreSQLStore
@testable import SiftSQL
@testable import SiftSQLStore
@testable import SiftSQLiteStore
import Testing

/// The PostgreSQL store's uniqueness check, golden: one statement per constraint (a semi-join of
/// the rows sharing a changed row's values, a window numbering each group by key), never a
/// subquery per row (issue 30).
@Suite struct UniquenessCheckSQLTests {
    @Test func aConstraintIsCheckedInOneSetBasedStatement() {
        let sql = SQLRowObjects<PostgreSQLRowDatabase>.setBasedUniquenessCheck(
            table: #""Item""#, columns: [#""kind""#, #""code""#], changed: #""b"."_pk" >= $1"#,
            present: #""b"."kind" IS NOT NULL AND "b"."code" IS NOT NULL AND "b"."_entity" = ANY($2)"#,
            memberFilter: #" AND "a"."_entity" = ANY($2)"#)
        #expect(sql == #"SELECT "p1", "p2" FROM (SELECT min("a"."_pk") OVER "w" AS "p1", "a"."_pk" AS "p2", row_number() OVER ("w" ORDER BY "a"."_pk") AS "n" FROM "Item" AS "a" WHERE ("a"."kind", "a"."code") IN (SELECT "b"."kind", "b"."code" FROM "Item" AS "b" WHERE ("b"."_pk" >= $1) AND "b"."kind" IS NOT NULL AND "b"."code" IS NOT NULL AND "b"."_entity" = ANY($2)) AND "a"."_entity" = ANY($2) WINDOW "w" AS (PARTITION BY "a"."kind", "a"."code")) AS "u" WHERE "n" = 2 ORDER BY "p2" LIMIT 1"#)
    }
}
