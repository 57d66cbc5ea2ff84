import SiftPostgreSQL
import SiftSQL
import SiftStore

/// The server's refusals of a role, in words: what the role lacks and what would do, with the
/// SQLSTATE kept (`42501: permission denied for table sift.metadata` alone names neither the role,
/// nor the schema, nor the GRANT).
extension PostgreSQLStore {
    /// The store error for `error`, as ``storeError(_:)`` makes it, with a refusal of privileges
    /// (`42501`) or of a schema to create in (`3F000`) told in words, read from `connection`'s
    /// role, schema and privileges (the connection must be usable: outside a failed transaction).
    static func storeError(_ error: any Error, on connection: PostgreSQLConnection) -> StoreError {
        guard let error = error as? PostgreSQLError, ["42501", "3F000"].contains(error.sqlState),
              let described = try? permissionError(error, on: connection)
        else { return storeError(error) }
        return described
    }

    private static func permissionError(_ error: PostgreSQLError, on connection: PostgreSQLConnection) throws -> StoreError? {
        let text = "PostgreSQL \(error.sqlState): \(error.message)"
        let facts = try connection.query("""
            SELECT current_user::text, current_schema()::text, current_database()::text, current_setting('search_path'),
                   (SELECT string_agg(quote_ident(nspname), ', ' ORDER BY nspname) FROM pg_catalog.pg_namespace
                     WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
                       AND has_schema_privilege(oid, 'CREATE'))
            """)
        guard let row = facts.first, let role = row[0].stringValue else { return nil }
        let schema = row[1].stringValue
        let database = row[2].stringValue ?? connection.database
        let searchPath = row[3].stringValue ?? ""
        let creatable = row[4].stringValue
        let quotedRole = sqlName(role)

        if error.sqlState == "3F000" {
            let elsewhere = creatable.map { "schemas role \(role) may create in: \($0)" } ?? "role \(role) may create in no schema of it"
            return StoreError(.readOnly, "\(text): the search_path (\(searchPath)) names no schema of database \(database) that exists, "
                + "so there is nowhere to make the store's tables (\(elsewhere)); set search_path to one "
                + "(options=-csearch_path=NAME in the connection string), or have the database's owner run "
                + "CREATE SCHEMA \(quotedRole) AUTHORIZATION \(quotedRole) (then \"$user\" in the search_path names it)")
        }
        guard let schema else { return nil }
        let quotedSchema = sqlName(schema)
        if error.message.hasPrefix("permission denied for schema") {
            let elsewhere = creatable.map { "schemas role \(role) may create in: \($0)" } ?? "role \(role) may create in no schema of database \(database)"
            let owner = try connection.scalar("SELECT pg_get_userbyid(nspowner)::text FROM pg_catalog.pg_namespace WHERE nspname = $1",
                                              [.text(schema)]).stringValue
            return StoreError(.readOnly, "\(text): role \(role) may not create tables in schema \(schema) of database \(database) "
                + "(\(elsewhere)); GRANT CREATE ON SCHEMA \(quotedSchema) TO \(quotedRole)"
                + (owner.map { " (as \($0), its owner)" } ?? "")
                + ", make the store in a schema it may create in (options=-csearch_path=NAME in the connection string), "
                + "or connect as the schema's owner")
        }
        guard error.message.hasPrefix("permission denied for table") || error.message.hasPrefix("permission denied for relation") else {
            return nil
        }
        let metadata = q(SQLSchema.metadataTable)
        let reads = try connection.scalar("SELECT has_table_privilege(to_regclass($1), 'SELECT')", [.text(metadata)]).boolValue ?? false
        let owner = try connection.scalar("SELECT pg_get_userbyid(relowner)::text FROM pg_catalog.pg_class WHERE oid = to_regclass($1)",
                                          [.text(metadata)]).stringValue
        let asOwner = owner.map { " (as \($0), the tables' owner)" } ?? ""
        let ownerRole = owner.map { "connect as \($0), the owner" } ?? "connect as the tables' owner"
        if reads {
            return StoreError(.readOnly, "\(text): role \(role) may read but not change the store's tables in schema \(schema) "
                + "of database \(database); GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(quotedSchema) TO \(quotedRole)"
                + asOwner + ", or \(ownerRole)")
        }
        return StoreError(.readOnly, "\(text): role \(role) may not read the store's tables in schema \(schema) of database \(database); "
            + "GRANT SELECT ON ALL TABLES IN SCHEMA \(quotedSchema) TO \(quotedRole)" + asOwner
            + " (and INSERT, UPDATE, DELETE to change them), or \(ownerRole)")
    }

    /// A name as SQL to copy takes it: bare when it is a plain lower-case identifier (`public`,
    /// `reader`), quoted otherwise (`"Reader"`, `"user"`, a reserved word).
    static func sqlName(_ name: String) -> String {
        let plain = name.unicodeScalars.first.map { $0 == "_" || ("a"..."z").contains($0) } == true
            && name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        return plain && !reservedWords.contains(name) ? name : PostgreSQLIdentifier.quoted(name)
    }

    /// PostgreSQL's reserved key words (which a role or schema name must quote).
    private static let reservedWords: Set<String> = [
        "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization", "binary", "both", "case", "cast",
        "check", "collate", "collation", "column", "concurrently", "constraint", "create", "cross", "current_catalog", "current_date",
        "current_role", "current_schema", "current_time", "current_timestamp", "current_user", "default", "deferrable", "desc", "distinct",
        "do", "else", "end", "except", "false", "fetch", "for", "foreign", "freeze", "from", "full", "grant", "group", "having", "ilike",
        "in", "initially", "inner", "intersect", "into", "is", "isnull", "join", "lateral", "leading", "left", "like", "limit",
        "localtime", "localtimestamp", "natural", "not", "notnull", "null", "offset", "on", "only", "or", "order", "outer", "overlaps",
        "placing", "primary", "references", "returning", "right", "select", "session_user", "similar", "some", "symmetric",
        "system_user", "table", "tablesample", "then", "to", "trailing", "true", "union", "unique", "user", "using", "variadic",
        "verbose", "when", "where", "window", "with",
    ]
}
