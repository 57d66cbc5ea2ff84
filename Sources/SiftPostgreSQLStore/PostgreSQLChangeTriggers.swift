import SiftPostgreSQL
import SiftSQL
import SiftStore

/// The triggers through which a PostgreSQL store hears of other sessions' commits (live results,
/// docs/LIVE-RESULTS.md): on each of the store's tables, statement-level triggers that call
/// `sift_notify_changes()`, which sends one notification per statement on the channel
/// ``channel`` with a JSON payload —
///
///     {"schema": "public", "table": "Item", "op": "UPDATE", "rows": [["Item/7", ["rank"]]]}
///
/// `rows` is the inserted or deleted objects' IDs, or each updated object's ID with the columns
/// whose values changed; it is missing ("unknown") for a join table, a `TRUNCATE`, more than
/// ``rowLimit`` rows, or a payload longer than PostgreSQL's 8000 bytes. A statement that
/// changed no row sends nothing. PostgreSQL delivers the notifications of a transaction when
/// it commits, and none of one that rolls back.
enum PostgreSQLChangeTriggers {
    /// The channel the notifications go to (the payload names the schema and table).
    static let channel = "sift_changes"
    /// The function the triggers call (in the store's schema).
    static let function = "sift_notify_changes"
    /// The most rows one notification names; a statement that changed more is "unknown".
    static let rowLimit = 200
    /// The names of the triggers, which start so.
    static let triggerPrefix = "sift_notify_"

    /// The trigger function: `TG_ARGV[0]` names the ID column, `TG_ARGV[1]` the key column
    /// (none: a table whose rows are not objects, a join table).
    static let functionSQL = """
        CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $sift$
        DECLARE
          changed bigint;
          rows jsonb;
          payload text;
        BEGIN
          IF TG_OP = 'INSERT' THEN
            SELECT count(*) INTO changed FROM (SELECT 1 FROM sift_new LIMIT \(rowLimit + 1)) AS n;
          ELSIF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
            SELECT count(*) INTO changed FROM (SELECT 1 FROM sift_old LIMIT \(rowLimit + 1)) AS o;
          END IF;
          IF changed = 0 THEN
            RETURN NULL;
          END IF;
          IF TG_NARGS >= 2 AND changed <= \(rowLimit) THEN
            IF TG_OP = 'INSERT' THEN
              SELECT jsonb_agg(to_jsonb(n) -> TG_ARGV[0]) INTO rows FROM sift_new AS n;
            ELSIF TG_OP = 'DELETE' THEN
              SELECT jsonb_agg(to_jsonb(o) -> TG_ARGV[0]) INTO rows FROM sift_old AS o;
            ELSE
              SELECT jsonb_agg(jsonb_build_array(n.j -> TG_ARGV[0],
                       (SELECT coalesce(jsonb_agg(e.key), '[]'::jsonb) FROM jsonb_each(n.j) AS e
                         WHERE e.value IS DISTINCT FROM o.j -> e.key)))
                INTO rows
                FROM (SELECT to_jsonb(x) AS j FROM sift_new AS x) AS n
                JOIN (SELECT to_jsonb(y) AS j FROM sift_old AS y) AS o ON o.j -> TG_ARGV[1] = n.j -> TG_ARGV[1];
              IF coalesce(jsonb_array_length(rows), 0) <> changed THEN
                rows := NULL;
              END IF;
            END IF;
          END IF;
          payload := jsonb_build_object('schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'op', TG_OP, 'rows', rows)::text;
          IF octet_length(payload) > 7900 THEN
            payload := jsonb_build_object('schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'op', TG_OP)::text;
          END IF;
          PERFORM pg_notify('\(channel)', payload);
          RETURN NULL;
        END
        $sift$
        """

    /// The tables of a store: each entity hierarchy's table with its ID and key columns, and the
    /// join tables (no columns).
    static func tables(of schema: SQLSchema) -> [(table: String, idColumn: String?, keyColumn: String?)] {
        var seen: Set<String> = []
        var tables: [(String, String?, String?)] = []
        for name in schema.tables.keys.sorted() {
            guard let table = schema.tables[name] else { continue }
            if seen.insert(table.table).inserted, case .column(let idColumn) = table.objectID {
                tables.append((table.table, idColumn, table.primaryKey))
            }
            for storage in table.relationships.values {
                if case .joinTable(let join, _, _) = storage, seen.insert(join).inserted { tables.append((join, nil, nil)) }
            }
        }
        return tables
    }

    /// The statements creating the triggers of `table` (named ``triggerPrefix`` + the event).
    static func triggerSQL(table: String, idColumn: String?, keyColumn: String?) -> [String] {
        let on = "ON \(q(table))"
        let call = "EXECUTE PROCEDURE \(function)(\([idColumn, keyColumn].compactMap { $0 }.map(SQLStringLiteral.quoted).joined(separator: ", ")))"
        return [
            "CREATE TRIGGER \(triggerPrefix)insert AFTER INSERT \(on) REFERENCING NEW TABLE AS sift_new FOR EACH STATEMENT \(call)",
            "CREATE TRIGGER \(triggerPrefix)update AFTER UPDATE \(on) REFERENCING OLD TABLE AS sift_old NEW TABLE AS sift_new FOR EACH STATEMENT \(call)",
            "CREATE TRIGGER \(triggerPrefix)delete AFTER DELETE \(on) REFERENCING OLD TABLE AS sift_old FOR EACH STATEMENT \(call)",
            "CREATE TRIGGER \(triggerPrefix)truncate AFTER TRUNCATE \(on) FOR EACH STATEMENT EXECUTE PROCEDURE \(function)()",
        ]
    }

    /// Installs the function and every table's missing triggers through `connection` (in the
    /// store's schema, on its search path), in one transaction, waiting at most a second for a
    /// table's lock; throws when the role may not (it neither owns the tables nor has the
    /// `TRIGGER` privilege and `CREATE` on the schema) or a table stays locked.
    static func install(for schema: SQLSchema, through connection: PostgreSQLConnection) throws {
        let tables = tables(of: schema)
        try connection.transaction {
            try connection.execute("SET LOCAL lock_timeout = '1s'")
            var installed: Set<String> = []
            for row in try connection.query("""
                SELECT c.relname::text || '/' || t.tgname::text FROM pg_catalog.pg_trigger AS t
                  JOIN pg_catalog.pg_class AS c ON c.oid = t.tgrelid
                 WHERE c.relnamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = current_schema()) AND t.tgname LIKE 'sift\\_notify\\_%'
                """) {
                if let name = row[0].stringValue { installed.insert(name) }
            }
            let events = ["insert", "update", "delete", "truncate"]
            let missing = tables.filter { table in events.contains { !installed.contains("\(table.table)/\(triggerPrefix)\($0)") } }
            guard !missing.isEmpty else { return }
            try connection.execute(functionSQL)
            for table in missing {
                for event in events where !installed.contains("\(table.table)/\(triggerPrefix)\(event)") {
                    let statement = triggerSQL(table: table.table, idColumn: table.idColumn, keyColumn: table.keyColumn)
                        .first { $0.hasPrefix("CREATE TRIGGER \(triggerPrefix)\(event) ") }
                    if let statement { try connection.execute(statement) }
                }
            }
        }
    }
}
