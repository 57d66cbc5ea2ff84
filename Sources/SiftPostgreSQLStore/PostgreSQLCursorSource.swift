import Foundation
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftStore

/// A fetch's objects streamed from the plan's query, for a plan that sorts nothing in memory:
/// iterating reads them from one server-side cursor (``PostgreSQLCursorRows``) through the SQL
/// stores' object stream (``SQLObjectStream``), `FETCH` by `FETCH`, decoding each row once, the
/// residual predicate (if any) and then the offset and limit applied as they come
/// (``SQLObjectSelection``) — one pass over the rows instead of a scan for their keys followed by
/// reading the objects again by key. An error (of the server, or of the predicate on a later row)
/// ends the iteration there, the objects before it returned first, as the SQLite store's streams
/// do; it is kept in ``failure``.
///
/// The count, the IDs and access by position need every key: they are read once, on first need,
/// as the key list a fetch that runs in memory makes (``PostgreSQLKeyListSource``); iteration does
/// not need them.
final class PostgreSQLCursorSource: FetchedObjectSource, @unchecked Sendable {
    let store: PostgreSQLStore
    let plan: PostgreSQLFetchPlan
    /// What is loaded with each batch.
    let prefetch: SQLBatchPrefetch
    let failure: ReadFailure? = ReadFailure()
    /// The results as keys, read on first need. Guarded by `store.lock`.
    private var keyList: PostgreSQLKeyListSource?

    init(store: PostgreSQLStore, plan: PostgreSQLFetchPlan) {
        self.store = store
        self.plan = plan
        prefetch = SQLBatchPrefetch(plan.request)
    }

    /// The results as a key list, read once (an error reading them is kept in ``failure``, and
    /// the list is then empty).
    private func keys() -> PostgreSQLKeyListSource {
        store.lock.lock(); defer { store.lock.unlock() }
        if let keyList { return keyList }
        var keys: [(key: Int64, id: ObjectID)] = []
        do {
            keys = try PostgreSQLFetchExecutor(store: store).matchingKeys(plan)
        } catch {
            failure?.record(error)
        }
        let list = PostgreSQLKeyListSource(store: store, keys: keys, layout: plan.layout, request: plan.request)
        keyList = list
        return list
    }

    var count: Int { keys().count }
    func objectID(at index: Int) -> ObjectID { keys().objectID(at: index) }

    func object(at index: Int) -> ManagedObject {
        let list = keys()
        let object = list.object(at: index)
        if let error = list.failure?.error { failure?.record(error) }
        return object
    }

    func makeCursor() -> any FetchedObjectCursor { Cursor(source: self) }

    /// Which candidate rows the stream returns: with a residual predicate, its matches, paged
    /// when the server does not page (nil: every row).
    var selection: SQLObjectSelection? {
        guard let residual = plan.residual else { return nil }
        let request = plan.request
        let pages = plan.pagesInMemory
        return SQLObjectSelection(residual: residual, offset: pages ? request.fetchOffset : 0,
                                  limit: pages && request.fetchLimit > 0 ? request.fetchLimit : nil)
    }

    /// One iteration: at the first batch asked for, the core's stream over a cursor
    /// (``PostgreSQLCursorRows``); or, inside the write transaction, where a cursor's error would
    /// end the transaction and lose the changes, the two-pass reading of a fetch that runs in
    /// memory: the keys first (in a savepoint), then the objects by key. (The store's own type
    /// around the core's stream, so that the stream's loop is specialized for its rows.) The
    /// rows close their cursor when the last copy of this goes away.
    struct Cursor: FetchedObjectCursor {
        let source: PostgreSQLCursorSource
        private var stream: SQLObjectStream<PostgreSQLCursorRows>?
        private var keys: PostgreSQLKeyListSource.Cursor?

        init(source: PostgreSQLCursorSource) {
            self.source = source
        }

        mutating func next(_ count: Int) throws -> [ManagedObject] {
            var objects: [ManagedObject] = []
            try next(count, appendingTo: &objects)
            return objects
        }

        mutating func next(_ count: Int, appendingTo objects: inout [ManagedObject]) throws {
            guard count > 0 else { return }
            if stream == nil && keys == nil { try start() }
            if keys != nil {
                objects += try keys!.next(count)
                return
            }
            try stream!.next(count, appendingTo: &objects)
        }

        /// Declares the cursor; or, inside the write transaction, falls back to the key list.
        private mutating func start() throws {
            let store = source.store
            store.lock.lock(); defer { store.lock.unlock() }
            if store.writing || (store.connection.isInTransaction && !store.streams.holdsTransaction) {
                keys = try source.keyListCursor()
                return
            }
            let rows = PostgreSQLCursorRows(source: source)
            do {
                try rows.declare()
                stream = SQLObjectStream(driver: rows, selection: source.selection)
            } catch {
                stream = SQLObjectStream(driver: rows, failure: error)
            }
        }
    }

    /// The stream's source as a key list, for a stream that cannot hold a cursor (see
    /// ``Cursor``): the two-pass reading of a fetch that runs in memory.
    func keyListCursor() throws -> PostgreSQLKeyListSource.Cursor {
        let list = keys()
        if let error = failure?.error { throw error }
        return PostgreSQLKeyListSource.Cursor(source: list)
    }
}

/// The rows of a ``PostgreSQLCursorSource``'s query for the core's object stream
/// (``SQLObjectStream``): a server-side cursor,
///
///     BEGIN READ ONLY                                   -- unless another stream's is open
///     DECLARE "sift_stream_7" NO SCROLL CURSOR FOR SELECT … ORDER BY "t0"."_pk"
///     FETCH 1000 FROM "sift_stream_7"                   -- as iteration asks, and so on
///     CLOSE "sift_stream_7"
///     COMMIT                                            -- when the last stream ends
///
/// declared at the first batch asked for and closed after the last row, when the stream needs
/// no more (its limit reached), when iteration is abandoned (the rows go away), or at an error.
/// A `FETCH` asks for the rows the stream still wants (``willRead(batch:)``), within
/// ``smallestFetch`` and ``largestFetch``, and the next is sent as soon as its rows came (the
/// server reads them while these are decoded). Between batches the connection is free:
/// relationships, other fetches and other streams run in the same read-only transaction, which
/// the streams share (``PostgreSQLStreams``); each stream sees the rows as they were when its
/// cursor was declared.
///
/// The first change made while streams are open (the store's write transaction beginning) first
/// reads the rest of every open stream into memory (`FETCH ALL`) and ends their transaction
/// (``PostgreSQLStore/endStreams()``); those streams then go on from memory, their rows as they
/// were.
///
/// Every method runs under the store's lock. (A class: the store's streams are told of a change
/// or an error through it, and the stream's loop holds one reference.)
final class PostgreSQLCursorRows: SQLRowStreamDriver, @unchecked Sendable {
    let source: PostgreSQLCursorSource
    private var store: PostgreSQLStore { source.store }

    private enum State {
        /// No cursor declared yet.
        case ready
        /// The cursor is open.
        case streaming(cursor: String)
        /// No cursor: what is left is at hand.
        case buffered
        /// Stopped by an error: the next row asked for throws it, then there are none.
        case failed(any Error)
        case finished
    }

    private var state = State.ready
    /// The result rows are read from, its columns' decodings, the next of its rows and its count.
    private var current: PostgreSQLResult?
    private var decodings: [PostgreSQLRowLayout.ColumnDecoding] = []
    private var nextRowIndex = 0
    private var currentCount = 0
    /// Results fetched after ``current`` (when a change reads the rest), oldest first.
    private var queued: [PostgreSQLResult] = []
    /// The rows of ``queued``.
    private var queuedCount = 0
    /// The next `FETCH`, sent as soon as the last one's rows came, and the rows it asks for.
    private var ahead: (statement: PostgreSQLAheadStatement, size: Int)?
    /// The rows the stream still wants (``willRead(batch:)``, less the rows handed out since).
    private var wanted = 0

    /// The fewest and most rows one `FETCH` asks for, whatever the batch size asked: a round trip
    /// per thousand rows costs little; a bound keeps memory flat when everything is asked at once.
    static let smallestFetch = 1000
    static let largestFetch = 10_000

    init(source: PostgreSQLCursorSource) {
        self.source = source
    }

    deinit {
        store.lock.lock(); defer { store.lock.unlock() }
        endRows()
    }

    // MARK: The core's driver hooks

    var lock: NSRecursiveLock { store.lock }
    var decoder: SQLRowDecoder { source.plan.layout.decoder }
    var prefetches: Bool { !source.prefetch.isEmpty }
    var rowsAtHand: Int { currentCount &- nextRowIndex &+ queuedCount }

    func willRead(batch: Int) {
        wanted = batch
    }

    func nextRow() throws -> PostgreSQLRowLayout.BatchRow? {
        while true {
            if nextRowIndex < currentCount, let current {
                defer { nextRowIndex &+= 1 }
                wanted &-= 1
                return PostgreSQLRowLayout.BatchRow(result: current, row: nextRowIndex, decodings: decodings)
            }
            if !queued.isEmpty {
                let result = queued.removeFirst()
                queuedCount &-= result.count
                read(result)
                continue
            }
            current = nil
            switch state {
            case .streaming(let cursor):
                try fetch(from: cursor)
            case .failed(let error):
                state = .finished
                throw error
            case .ready, .buffered, .finished:
                state = .finished
                return nil
            }
        }
    }

    func endRows() {
        closeCursor()
        dropRowsAtHand()
        state = .finished
    }

    func object(_ row: consuming SQLDecodedRow, values: ArraySlice<Value>) throws(StoreError) -> ManagedObject {
        try source.plan.layout.decodedObject(row, values: values)
    }

    func prefetch(_ objects: ArraySlice<ManagedObject>) throws {
        try store.prefetch(source.prefetch, of: Array(objects))
    }

    /// (The relationships the residual predicate reads: what the scan of a fetch that runs in
    /// memory loads for its rows.)
    func prefetchCandidates(_ objects: ArraySlice<ManagedObject>) throws {
        try store.prefetch(source.plan.scanPrefetch, of: Array(objects))
    }

    // MARK: The cursor

    /// Declares the cursor (beginning the streams' read-only transaction unless it is open); at an
    /// error the rows fail with it (see ``fail(_:)``), which this throws.
    func declare() throws {
        let connection = store.connection
        store.cursorCounter += 1
        let cursor = q("sift_stream_\(store.cursorCounter)")
        do {
            if !connection.isInTransaction {
                try connection.execute("BEGIN READ ONLY")
                store.streams.holdsTransaction = true
            }
            _ = try connection.run("DECLARE \(cursor) NO SCROLL CURSOR FOR \(source.plan.sql)", source.plan.parameters)
        } catch {
            throw fail(error)
        }
        store.streams.insert(self)
        state = .streaming(cursor: cursor)
    }

    /// Reads the next rows from the cursor (the `FETCH` sent ahead, or one sized by the rows
    /// wanted), and sends the next `FETCH` ahead; closes the cursor after its last rows.
    private func fetch(from cursor: String) throws {
        let connection = store.connection
        var size = Swift.min(Swift.max(wanted, Self.smallestFetch), Self.largestFetch)
        do {
            let result: PostgreSQLResult
            if let ahead {
                self.ahead = nil
                size = ahead.size
                result = try connection.receive(ahead.statement)
            } else {
                result = try connection.query("FETCH \(size) FROM \(cursor)")
            }
            read(result)
            if currentCount < size {
                // The last rows: the cursor is done with.
                closeCursor()
            } else {
                ahead = (try connection.sendAhead("FETCH \(size) FROM \(cursor)"), size)
            }
        } catch {
            throw fail(error)
        }
    }

    /// Makes `result` the one rows are read from.
    private func read(_ result: PostgreSQLResult) {
        assert(nextRowIndex >= currentCount, "a result read before the last one's rows were handed out")
        current = result
        decodings = source.plan.layout.columnDecodings(result)
        nextRowIndex = 0
        currentCount = result.count
    }

    /// Ends the rows at an error: the transaction the streams share has failed with it, so every
    /// open stream stops (each throws the error at its next row) and it is rolled back. Returns
    /// the error as the store reports it.
    private func fail(_ error: any Error) -> any Error {
        let reported = PostgreSQLStore.storeError(error)
        ahead = nil
        store.streams.remove(self)
        state = .failed(reported)
        dropRowsAtHand()
        store.abortStreams(reported)
        return reported
    }

    /// Closes the cursor (its rows already fetched stay at hand); the last stream to close ends
    /// the streams' transaction.
    private func closeCursor() {
        guard case .streaming(let cursor) = state else { return }
        state = .buffered
        store.streams.remove(self)
        let connection = store.connection
        if let ahead {
            // Its rows are not wanted.
            self.ahead = nil
            _ = try? connection.receive(ahead.statement)
        }
        if !connection.isInFailedTransaction { try? connection.execute("CLOSE \(cursor)") }
        store.endStreamTransactionIfUnused()
    }

    /// Lets go the rows fetched and not handed out.
    private func dropRowsAtHand() {
        current = nil
        currentCount = 0
        nextRowIndex = 0
        queued = []
        queuedCount = 0
    }

    /// Reads the rest of the cursor's rows into memory and closes it (see
    /// ``PostgreSQLStore/endStreams()``); at an error the stream fails with it.
    fileprivate func readRest() throws {
        guard case .streaming(let cursor) = state else { return }
        if let ahead {
            self.ahead = nil
            enqueue(try store.connection.receive(ahead.statement))
        }
        enqueue(try store.connection.query("FETCH ALL FROM \(cursor)"))
        state = .buffered
        try? store.connection.execute("CLOSE \(cursor)")
    }

    /// Queues `result`'s rows after those at hand.
    private func enqueue(_ result: PostgreSQLResult) {
        queued.append(result)
        queuedCount &+= result.count
    }

    /// Stops the stream with `error`, which it throws at its next row (another stream failed, so
    /// its cursor is gone with the transaction).
    fileprivate func abort(_ error: any Error) {
        guard case .streaming = state else { return }
        state = .failed(error)
        dropRowsAtHand()
        ahead = nil
    }
}

/// The streams of a store holding a cursor, and whether the open transaction is theirs (the
/// read-only one the first began). Guarded by the store's lock.
final class PostgreSQLStreams: @unchecked Sendable {
    private struct Entry {
        weak var stream: PostgreSQLCursorRows?
    }

    private var open: [ObjectIdentifier: Entry] = [:]
    /// Whether the open transaction is the streams' read-only one.
    var holdsTransaction = false

    init() {}

    var isEmpty: Bool { open.isEmpty }
    var streams: [PostgreSQLCursorRows] { open.values.compactMap(\.stream) }

    func insert(_ stream: PostgreSQLCursorRows) { open[ObjectIdentifier(stream)] = Entry(stream: stream) }
    func remove(_ stream: PostgreSQLCursorRows) { open[ObjectIdentifier(stream)] = nil }
    func removeAll() { open = [:] }
}

extension PostgreSQLStore {
    /// Ends the streams' read-only transaction when no stream holds a cursor in it any more:
    /// `COMMIT`, or `ROLLBACK` when a statement in it failed.
    func endStreamTransactionIfUnused() {
        guard streams.holdsTransaction, streams.isEmpty else { return }
        streams.holdsTransaction = false
        guard connection.isInTransaction else { return }
        try? connection.execute(connection.isInFailedTransaction ? "ROLLBACK" : "COMMIT")
    }

    /// Before the write transaction begins: every open stream reads the rest of its rows into
    /// memory and closes its cursor, and the streams' transaction ends, so the changes get a
    /// transaction of their own. A stream that cannot read its rest fails (it throws at its next
    /// batch); the write goes on either way.
    func endStreams() {
        guard streams.holdsTransaction else { return }
        let open = streams.streams
        streams.removeAll()
        var failure: (any Error)?
        for stream in open {
            if let failure {
                stream.abort(failure)
                continue
            }
            do {
                try stream.readRest()
            } catch {
                failure = Self.storeError(error)
                stream.abort(Self.storeError(error))
            }
        }
        endStreamTransactionIfUnused()
    }

    /// Every open stream stops with `error` (a statement in their shared transaction failed), and
    /// the transaction is rolled back.
    func abortStreams(_ error: any Error) {
        let open = streams.streams
        streams.removeAll()
        for stream in open { stream.abort(error) }
        endStreamTransactionIfUnused()
    }
}
