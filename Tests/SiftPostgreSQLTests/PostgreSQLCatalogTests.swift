import PostgreSQLTestSupport
import SiftPostgreSQL
import Testing

/// `catalogTables()` on a database of its own: a small shop schema with primary, composite and
/// foreign keys, indexes (one on an expression) and a view.
@Suite struct PostgreSQLCatalogTests {
    static let schema = """
        CREATE SCHEMA shop;
        CREATE TABLE shop.customer (
            id bigint PRIMARY KEY,
            email text NOT NULL UNIQUE,
            name varchar(40),
            created timestamptz DEFAULT now()
        );
        CREATE TABLE shop."order" (
            id bigint GENERATED ALWAYS AS IDENTITY,
            customer_id bigint NOT NULL REFERENCES shop.customer (id) ON DELETE CASCADE,
            total numeric(10,2),
            PRIMARY KEY (id)
        );
        CREATE INDEX order_customer ON shop."order" (customer_id, total);
        CREATE INDEX customer_lower_email ON shop.customer (lower(email));
        CREATE TABLE pair (a int, b int, PRIMARY KEY (b, a));
        CREATE TABLE pair_ref (x int, y int, CONSTRAINT pair_ref_pair FOREIGN KEY (x, y) REFERENCES pair (b, a) ON UPDATE SET NULL);
        CREATE VIEW big_orders AS SELECT * FROM shop."order" WHERE total > 100;
        CREATE TEMP TABLE scratch (x int);
        """

    @Test func readsTablesColumnsKeysAndIndexes() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("catalog")
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute(Self.schema)
        let tables = try connection.catalogTables()
        #expect(tables.map { "\($0.schema).\($0.name)" } == [
            "public.big_orders", "public.pair", "public.pair_ref", "shop.customer", "shop.order",
        ])
        let byName = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) })

        let customer = try #require(byName["customer"])
        #expect(customer.kind == .table)
        #expect(customer.qualifiedName == #""shop"."customer""#)
        #expect(customer.columns == [
            PostgreSQLTableColumn(name: "id", typeName: "bigint", type: .int8, isNullable: false, defaultExpression: nil, isIdentity: false),
            PostgreSQLTableColumn(name: "email", typeName: "text", type: .text, isNullable: false, defaultExpression: nil, isIdentity: false),
            PostgreSQLTableColumn(name: "name", typeName: "character varying(40)", type: .varchar, isNullable: true, defaultExpression: nil, isIdentity: false),
            PostgreSQLTableColumn(name: "created", typeName: "timestamp with time zone", type: .timestamptz, isNullable: true, defaultExpression: "now()", isIdentity: false),
        ])
        #expect(customer.primaryKey == ["id"])
        #expect(customer.foreignKeys.isEmpty)
        #expect(customer.indexes.map(\.name) == ["customer_email_key", "customer_lower_email", "customer_pkey"])
        #expect(customer.indexes.map(\.columns) == [["email"], [nil], ["id"]])
        #expect(customer.indexes.map(\.isUnique) == [true, false, true])
        #expect(customer.indexes.map(\.isPrimaryKey) == [false, false, true])
        #expect(customer.indexes[1].definition.contains("lower(email)"))

        let order = try #require(byName["order"])
        #expect(order.columns.map(\.name) == ["id", "customer_id", "total"])
        #expect(order.columns[0].isIdentity)
        #expect(order.columns[2].typeName == "numeric(10,2)")
        #expect(order.columns[2].type == .numeric)
        #expect(order.primaryKey == ["id"])
        #expect(order.foreignKeys == [PostgreSQLForeignKey(
            name: "order_customer_id_fkey", columns: ["customer_id"], referencedSchema: "shop",
            referencedTable: "customer", referencedColumns: ["id"], onDelete: .cascade, onUpdate: .noAction)])
        #expect(order.indexes.first { $0.name == "order_customer" }?.columns == ["customer_id", "total"])

        // Composite keys keep their order.
        #expect(byName["pair"]?.primaryKey == ["b", "a"])
        #expect(byName["pair_ref"]?.foreignKeys == [PostgreSQLForeignKey(
            name: "pair_ref_pair", columns: ["x", "y"], referencedSchema: "public",
            referencedTable: "pair", referencedColumns: ["b", "a"], onDelete: .noAction, onUpdate: .setNull)])

        let view = try #require(byName["big_orders"])
        #expect(view.kind == .view)
        #expect(view.columns.map(\.name) == ["id", "customer_id", "total"])
        #expect(view.primaryKey.isEmpty && view.indexes.isEmpty)
    }

    @Test func anEmptyDatabaseHasNoTables() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("empty")
        defer { database.drop() }
        #expect(try database.connect().catalogTables().isEmpty)
    }
}
