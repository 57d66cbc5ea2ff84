import SiftPostgreSQL
import SiftSQL
import SiftStore

/// Statistics for the tables a large import filled: the planner plans the save's checks (and
/// every later fetch) with the sizes the tables have, not those of the empty tables they were.
///
/// A table gets `ANALYZE` when the transaction inserted at least 1,000 rows into it and at least
/// a tenth of what its statistics counted before (autovacuum's own rule, applied at once rather
/// than a minute after the commit). It runs inside the write transaction, before the checks,
/// and sees the rows inserted; if the save fails, the statistics roll back with it.
extension PostgreSQLStore {
    /// The fewest rows inserted into a table that make it worth analysing.
    static let analyzeThreshold = 1000

    func analyzeFilledTables() throws(StoreError) {
        let inserted = rows.insertedKeys
        guard inserted.count >= Self.analyzeThreshold else { return }
        for (table, key) in filledTableCandidates() {
            // (-1 for a table never analysed.)
            guard let counted = try query("SELECT reltuples::bigint FROM pg_catalog.pg_class WHERE oid = to_regclass($1)",
                                          [.text(q(table))]).first?[0].int64Value else { continue }
            let enough = max(Int64(Self.analyzeThreshold), max(0, counted) / 10)
            let found = try query("SELECT count(*) FROM (SELECT 1 FROM \(q(table)) WHERE \(q(key)) >= $1 LIMIT $2) AS \"s\"",
                                  [.int64(inserted.lowerBound), .int64(enough)]).first?[0].int64Value ?? 0
            if found >= enough { try execute("ANALYZE \(q(table))") }
        }
    }

    /// Each table of the store with the column holding the key of the rows a transaction
    /// inserted: `"_pk"` in an entity's table, `"_owner"` in a join table.
    private func filledTableCandidates() -> [(table: String, key: String)] {
        var tables: Set<String> = [], joinTables: Set<String> = []
        for table in schema.tables.values {
            tables.insert(table.table)
            for case .joinTable(let name, _, _) in table.relationships.values { joinTables.insert(name) }
        }
        return tables.sorted().map { ($0, SQLSchema.primaryKeyColumn) } + joinTables.sorted().map { ($0, SQLSchema.ownerColumn) }
    }
}
