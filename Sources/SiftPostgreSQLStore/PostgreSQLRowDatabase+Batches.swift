import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// An entity's rows waiting to be inserted (``PostgreSQLRowDatabase/pending``): each row's
/// parameters, as its one-row INSERT binds them, one after another.
struct PostgreSQLPendingInserts {
    let sql: RowWriteSQL
    /// Parameters a row.
    let width: Int
    var parameters: [PostgreSQLValue] = []
    var ids: [ObjectID] = []
    var entityNames: [String] = []
    var count: Int { ids.count }

    /// The parameters of `rows` rows from row `start`, one row's after another.
    func parameters(from start: Int, rows: Int) -> [PostgreSQLValue] {
        Array(parameters[(start * width)..<((start + rows) * width)])
    }
}

/// A multi-row INSERT sent without waiting for its result (``PostgreSQLRowDatabase/inFlight``),
/// with what writing its rows again one by one needs.
struct PostgreSQLBatchInFlight {
    let batch: PostgreSQLPendingInserts
    let start: Int
    let rows: Int
    let statement: PostgreSQLAheadStatement
}

/// An import's rows go in many a statement: `INSERT … VALUES (…), (…), …` of up to
/// ``rowsPerStatement`` rows (one round trip and one execution instead of one a row: an import
/// of 100,000 rows spent most of its time there). Only rows into a table the transaction found
/// empty wait, so a duplicate ID is found as its row comes (among the IDs the transaction gave,
/// by hash, then by the table's index), and the row's error is the one it always was; any other
/// statement writes the waiting rows first. A batch the server refuses (another writer's row)
/// is written again row by row, to name the row it refused.
extension PostgreSQLRowDatabase {
    /// The most rows one INSERT writes (fewer where their parameters would pass the protocol's
    /// 65,535).
    static let rowsPerStatement = 1000

    enum InsertedIDCheck { case duplicate, batchable, immediate }

    /// Notes that a row with `id` goes into `table`; whether the table holds that ID already
    /// (found only where the row may wait), and whether the row may wait.
    func noteInsertedID(_ id: ObjectID, into table: String) throws(StoreError) -> InsertedIDCheck {
        if insertedIDs[table] == nil {
            if tablesHeldRows.contains(table) { return .immediate }
            try flushInserts()
            let rows: Int64
            do {
                rows = try connection.query("SELECT count(*) FROM (SELECT 1 FROM \(q(table)) LIMIT 1) AS \"s\"").first?[0].int64Value ?? 1
            } catch { throw PostgreSQLStore.storeError(error) }
            if rows > 0 {
                tablesHeldRows.insert(table)
                return .immediate
            }
            insertedIDs[table] = []
        }
        let hash = id.rawValue.hashValue
        if insertedIDs[table]!.contains(hash) {
            // Given before in this transaction, or another ID of the same hash: the index says.
            try flushInserts()
            let found: Int
            do {
                found = try connection.query("SELECT 1 FROM \(q(table)) WHERE \(q(SQLSchema.idColumn)) = $1 LIMIT 1", [.text(id.rawValue)]).count
            } catch { throw PostgreSQLStore.storeError(error) }
            if found > 0 { return .duplicate }
        } else {
            insertedIDs[table, default: []].insert(hash)
        }
        return .batchable
    }

    /// Keeps a row to be inserted with the next batch of its entity's rows.
    func pend(_ parameters: [PostgreSQLValue], id: ObjectID, entityName: String, sql: RowWriteSQL) throws(StoreError) {
        if pending.last?.sql !== sql { pending.append(PostgreSQLPendingInserts(sql: sql, width: parameters.count)) }
        let last = pending.count - 1
        assert(pending[last].width == parameters.count, "every row of an entity binds as many parameters")
        pending[last].parameters.append(contentsOf: parameters)
        pending[last].ids.append(id)
        pending[last].entityNames.append(entityName)
        pendingRows += 1
        if pendingRows >= Self.rowsPerStatement { try flushInserts(sendingLastAhead: true) }
    }

    /// Writes the rows waiting to be inserted, and waits for the server to take them all.
    func flushInserts() throws(StoreError) {
        try flushInserts(sendingLastAhead: false)
    }

    /// Writes the rows waiting to be inserted. With `sendingLastAhead`, the last statement goes
    /// without waiting for its result (``inFlight``): the server inserts those rows while the
    /// importer reads and encodes the next ones (on two cores, the two no longer take turns).
    /// Whatever comes next settles it first: the next batch here, any other statement through
    /// ``flushInserts()``.
    private func flushInserts(sendingLastAhead: Bool) throws(StoreError) {
        try settleInFlight()
        guard !pending.isEmpty else { return }
        let batches = pending
        pending = []
        pendingRows = 0
        for (index, batch) in batches.enumerated() {
            let most = max(1, min(Self.rowsPerStatement, Int(UInt16.max) / max(1, batch.width)))
            var start = 0
            while start < batch.count {
                let left = batch.count - start
                // Full statements, then powers of two: few statements to prepare and keep.
                let size = left >= most ? most : 1 << (Int.bitWidth - 1 - left.leadingZeroBitCount)
                let isLast = index == batches.count - 1 && start + size == batch.count
                if sendingLastAhead && isLast && size > 1 {
                    try send(batch, from: start, rows: size)
                } else {
                    try write(batch, from: start, rows: size)
                }
                start += size
            }
        }
    }

    /// Discards the rows waiting (their transaction or savepoint was rolled back), and the
    /// batch sent ahead (the connection collects its result before its next statement).
    func discardInserts() {
        pending = []
        pendingRows = 0
        inFlight = nil
    }

    /// The transaction ended: what it knew of its tables goes.
    func transactionEnded() {
        discardInserts()
        insertedIDs = [:]
        tablesHeldRows = []
    }

    private func write(_ batch: PostgreSQLPendingInserts, from start: Int, rows: Int) throws(StoreError) {
        guard rows > 1 else {
            try writeRow(batch, start)
            return
        }
        let sql = statement(batch.sql, rows: rows, width: batch.width)
        do {
            try connection.execute("SAVEPOINT sift_batch")
            _ = try connection.run(sql, batch.parameters(from: start, rows: rows))
            try connection.execute("RELEASE SAVEPOINT sift_batch")
        } catch {
            try writeRowByRow(batch, from: start, rows: rows, refused: error)
        }
    }

    /// Sends the multi-row INSERT of `rows` rows of `batch` from `start` without waiting for
    /// its result, in a savepoint of its own as ``write(_:from:rows:)`` runs it.
    private func send(_ batch: PostgreSQLPendingInserts, from start: Int, rows: Int) throws(StoreError) {
        assert(inFlight == nil, "one batch is sent ahead at a time")
        let sql = statement(batch.sql, rows: rows, width: batch.width)
        do {
            try connection.execute("SAVEPOINT sift_batch")
            let sent = try connection.sendAhead(sql, batch.parameters(from: start, rows: rows))
            inFlight = PostgreSQLBatchInFlight(batch: batch, start: start, rows: rows, statement: sent)
        } catch {
            throw PostgreSQLStore.storeError(error)
        }
    }

    /// Waits for the batch sent ahead, if any: its savepoint released when the server took its
    /// rows, else its rows written again one by one, to name the row refused.
    func settleInFlight() throws(StoreError) {
        guard let sent = inFlight else { return }
        inFlight = nil
        do {
            _ = try connection.receive(sent.statement)
            try connection.execute("RELEASE SAVEPOINT sift_batch")
        } catch {
            try writeRowByRow(sent.batch, from: sent.start, rows: sent.rows, refused: error)
        }
    }

    /// After the server refused a batch (`refused`): its savepoint rolled back, then its rows
    /// one statement each, so the error is the refused row's own.
    private func writeRowByRow(_ batch: PostgreSQLPendingInserts, from start: Int, rows: Int, refused: PostgreSQLError) throws(StoreError) {
        guard connection.isInTransaction, (try? connection.execute("ROLLBACK TO SAVEPOINT sift_batch; RELEASE SAVEPOINT sift_batch")) != nil else {
            throw PostgreSQLStore.storeError(refused)
        }
        for row in start..<(start + rows) { try writeRow(batch, row) }
    }

    private func writeRow(_ batch: PostgreSQLPendingInserts, _ row: Int) throws(StoreError) {
        do {
            _ = try connection.run(batch.sql.insert, batch.parameters(from: row, rows: 1))
        } catch let error where error.sqlState == "23505" {
            throw PostgreSQLRowObjects.duplicateID(batch.ids[row], entity: batch.entityNames[row])
        } catch {
            throw PostgreSQLStore.storeError(error)
        }
    }

    /// The entity's INSERT of `rows` rows.
    private func statement(_ sql: RowWriteSQL, rows: Int, width: Int) -> String {
        let key = "\(ObjectIdentifier(sql).hashValue):\(rows)"
        if let made = batchStatements[key] { return made }
        let head = sql.insert[..<sql.insert.range(of: " VALUES (")!.lowerBound]
        var text = String(head) + " VALUES "
        for row in 0..<rows {
            if row > 0 { text += ", " }
            text += "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ", ") + ")"
        }
        batchStatements[key] = text
        return text
    }
}
