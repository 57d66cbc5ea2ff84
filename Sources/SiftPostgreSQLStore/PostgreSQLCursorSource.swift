import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftStore

/// A fetch's objects streamed from the plan's query, for a plan that sorts nothing in memory:
/// iterating reads them from one server-side cursor (``PostgreSQLStream``), `FETCH` by `FETCH`,
/// decoding each row once, the residual predicate (if any) and then the offset and limit applied
/// as they come — one pass over the rows instead of a scan for their keys followed by reading the
/// objects again by key. An error of the predicate on a later row ends the iteration there (the
/// SQLite store's streams do the same), kept in ``failure``.
///
/// The count, the IDs and access by position need every key: they are read once, on first need,
/// as the key list a fetch that runs in memory makes (``PostgreSQLKeyListSource``); iteration does
/// not need them.
final class PostgreSQLCursorSource: FetchedObjectSource, @unchecked Sendable {
    let store: PostgreSQLStore
    let plan: PostgreSQLFetchPlan
    /// The relationship key paths prefetched for each batch.
    let prefetch: [String]
    let failure: ReadFailure? = ReadFailure()
    /// The results as keys, read on first need. Guarded by `store.lock`.
    private var keyList: PostgreSQLKeyListSource?

    init(store: PostgreSQLStore, plan: PostgreSQLFetchPlan) {
        self.store = store
        self.plan = plan
        prefetch = PostgreSQLKeyListDriver.prefetchedRelationships(plan.request)
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

    func makeCursor() -> any FetchedObjectCursor { Cursor(stream: PostgreSQLStream(source: self)) }

    /// Reads the stream; the stream closes its cursor when the last copy of this goes away.
    struct Cursor: FetchedObjectCursor {
        let stream: PostgreSQLStream

        mutating func next(_ count: Int) throws -> [ManagedObject] { try stream.next(count) }
    }

    /// The stream's source as a key list, for a stream that cannot hold a cursor (see
    /// ``PostgreSQLStream``): the two-pass reading of a fetch that runs in memory.
    func keyListCursor() throws -> PostgreSQLKeyListSource.Cursor {
        let list = keys()
        if let error = failure?.error { throw error }
        return PostgreSQLKeyListSource.Cursor(source: list)
    }
}

/// One iteration of a ``PostgreSQLCursorSource``: a server-side cursor over the plan's query,
///
///     BEGIN READ ONLY                                   -- unless another stream's is open
///     DECLARE "sift_stream_7" NO SCROLL CURSOR FOR SELECT … ORDER BY "t0"."_pk"
///     FETCH 1000 FROM "sift_stream_7"                   -- as iteration asks, and so on
///     CLOSE "sift_stream_7"
///     COMMIT                                            -- when the last stream ends
///
/// declared at the first batch asked for and closed after the last row, when iteration is
/// abandoned (the stream goes away), or at an error. Between batches the connection is free:
/// relationships, other fetches and other streams run in the same read-only transaction, which
/// the streams share (``PostgreSQLStreams``); each stream sees the rows as they were when its
/// cursor was declared.
///
/// The first change made while streams are open (the store's write transaction beginning) first
/// reads the rest of every open stream into memory (`FETCH ALL`) and ends their transaction
/// (``PostgreSQLStore/endStreams()``); those streams then go on from memory, their rows as they
/// were. A stream whose first batch is asked for inside the write transaction holds no cursor (an
/// error there would end the transaction and lose the changes): it reads as a fetch that runs in
/// memory does, the keys first (in a savepoint), then the objects by key.
///
/// Every method runs under the store's lock.
final class PostgreSQLStream: @unchecked Sendable {
    let source: PostgreSQLCursorSource
    private var store: PostgreSQLStore { source.store }

    private enum State {
        /// No batch asked for yet.
        case ready
        /// The cursor is open.
        case streaming(cursor: String)
        /// No cursor: what is left is in `buffered`.
        case buffered
        /// Reading the keys, then the objects by key.
        case keys(PostgreSQLKeyListSource.Cursor)
        /// Stopped by an error: the next batch asked for throws it, then the stream is empty.
        case failed(any Error)
        case finished
    }

    private var state = State.ready
    /// Rows fetched and not yet returned, oldest first, each with the position of its next row.
    private var buffered: [(result: PostgreSQLResult, next: Int)] = []
    /// The next `FETCH`, sent as soon as the last one's rows came (the server reads them while
    /// these are decoded), and the rows it asks for.
    private var ahead: (statement: PostgreSQLAheadStatement, size: Int)?
    /// With a residual predicate: the matches decoded and not yet returned, the matches still to
    /// skip (the offset) and to return (the limit; nil: no limit).
    private var matches: ArraySlice<ManagedObject> = []
    private var toSkip: Int
    private var toReturn: Int?

    /// The fewest and most rows one `FETCH` asks for, whatever the batch size asked: a round trip
    /// per thousand rows costs little; a bound keeps memory flat when everything is asked at once.
    static let smallestFetch = 1000
    static let largestFetch = 10_000

    init(source: PostgreSQLCursorSource) {
        self.source = source
        let request = source.plan.request
        let inMemory = source.plan.residual != nil && source.plan.pagesInMemory
        toSkip = inMemory ? request.fetchOffset : 0
        toReturn = inMemory && request.fetchLimit > 0 ? request.fetchLimit : nil
    }

    deinit {
        store.lock.lock(); defer { store.lock.unlock() }
        close()
    }

    /// Up to `count` more objects, in order; none at the end.
    func next(_ count: Int) throws -> [ManagedObject] {
        store.lock.lock(); defer { store.lock.unlock() }
        guard count > 0 else { return [] }
        if case .ready = state { try start() }
        switch state {
        case .keys(var cursor):
            let objects = try cursor.next(count)
            state = .keys(cursor)
            return objects
        case .failed(let error):
            state = .finished
            throw error
        case .finished:
            return []
        case .ready, .streaming, .buffered:
            break
        }
        var objects: [ManagedObject] = []
        while objects.count < count {
            if !matches.isEmpty {
                let taken = matches.prefix(count - objects.count)
                objects += taken
                matches = matches.dropFirst(taken.count)
                continue
            }
            if let residual = source.plan.residual, let first = buffered.first, first.next < first.result.count {
                buffered[0].next = first.result.count
                try filter(first.result, rows: first.next..<first.result.count, by: residual)
                continue
            }
            if let first = buffered.first, first.next < first.result.count {
                let end = first.next + Swift.min(first.result.count - first.next, count - objects.count)
                objects += try source.plan.layout.objects(first.result, rows: first.next..<end)
                buffered[0].next = end
                continue
            }
            if !buffered.isEmpty {
                buffered.removeFirst()
                continue
            }
            guard case .streaming(let cursor) = state else {
                state = .finished
                break
            }
            var size = Swift.min(Swift.max(count - objects.count, Self.smallestFetch), Self.largestFetch)
            let result: PostgreSQLResult
            do {
                if let ahead {
                    self.ahead = nil
                    size = ahead.size
                    result = try store.connection.receive(ahead.statement)
                } else {
                    result = try store.connection.query("FETCH \(size) FROM \(cursor)")
                }
                buffered.append((result, 0))
                if result.count < size {
                    // The last rows: the cursor is done with.
                    closeCursor()
                } else {
                    ahead = (try store.connection.sendAhead("FETCH \(size) FROM \(cursor)"), size)
                }
            } catch {
                throw fail(error)
            }
        }
        try store.prefetch(source.prefetch, of: objects)
        return objects
    }

    /// Keeps the rows of `result` that match the residual predicate in ``matches``, skipping the
    /// offset's and ending the stream at the limit's last: what the scan of a fetch that runs in
    /// memory does (the relationships the predicate reads prefetched for the rows first).
    private func filter(_ result: PostgreSQLResult, rows: Range<Int>, by residual: CompiledPredicate) throws {
        let plan = source.plan
        let candidates = try plan.layout.objects(result, rows: rows)
        try store.prefetch(plan.scanPrefetch, of: candidates)
        var kept: [ManagedObject] = []
        for object in candidates where toReturn != 0 {
            guard try residual.evaluate(.object(object)) else { continue }
            if toSkip > 0 {
                toSkip -= 1
                continue
            }
            kept.append(object)
            if let limit = toReturn { toReturn = limit - 1 }
        }
        matches = kept[...]
        if toReturn == 0 {
            // The limit is reached: nothing more is read.
            closeCursor()
            buffered = []
        }
    }

    /// Declares the cursor; or, inside the write transaction, falls back to the key list.
    private func start() throws {
        let connection = store.connection
        if store.writing || (connection.isInTransaction && !store.streams.holdsTransaction) {
            state = .keys(try source.keyListCursor())
            return
        }
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

    /// Ends the stream at an error: the transaction the streams share has failed with it, so every
    /// open stream stops (each throws the error at its next batch) and it is rolled back. Returns
    /// the error as the store reports it.
    private func fail(_ error: any Error) -> any Error {
        let reported = PostgreSQLStore.storeError(error)
        ahead = nil
        store.streams.remove(self)
        state = .failed(reported)
        buffered = []
        store.abortStreams(reported)
        return reported
    }

    /// Closes the cursor (its rows already fetched stay in `buffered`); the last stream to close
    /// ends the streams' transaction.
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

    /// Drops the stream: its cursor, its buffered rows.
    private func close() {
        closeCursor()
        buffered = []
        state = .finished
    }

    /// Reads the rest of the cursor's rows into memory and closes it (see
    /// ``PostgreSQLStore/endStreams()``); at an error the stream fails with it.
    fileprivate func readRest() throws {
        guard case .streaming(let cursor) = state else { return }
        if let ahead {
            self.ahead = nil
            buffered.append((try store.connection.receive(ahead.statement), 0))
        }
        let rest = try store.connection.query("FETCH ALL FROM \(cursor)")
        buffered.append((rest, 0))
        state = .buffered
        try? store.connection.execute("CLOSE \(cursor)")
    }

    /// Stops the stream with `error`, which it throws at its next batch (another stream failed, so
    /// its cursor is gone with the transaction).
    fileprivate func abort(_ error: any Error) {
        guard case .streaming = state else { return }
        state = .failed(error)
        buffered = []
        ahead = nil
    }
}

/// The streams of a store holding a cursor, and whether the open transaction is theirs (the
/// read-only one the first began). Guarded by the store's lock.
final class PostgreSQLStreams: @unchecked Sendable {
    private struct Entry {
        weak var stream: PostgreSQLStream?
    }

    private var open: [ObjectIdentifier: Entry] = [:]
    /// Whether the open transaction is the streams' read-only one.
    var holdsTransaction = false

    init() {}

    var isEmpty: Bool { open.isEmpty }
    var streams: [PostgreSQLStream] { open.values.compactMap(\.stream) }

    func insert(_ stream: PostgreSQLStream) { open[ObjectIdentifier(stream)] = Entry(stream: stream) }
    func remove(_ stream: PostgreSQLStream) { open[ObjectIdentifier(stream)] = nil }
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
