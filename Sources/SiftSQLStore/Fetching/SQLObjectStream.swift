import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// What a SQL store gives the core's ``SQLObjectStream``: the rows of a fetch's query one at a
/// time, as the engine streams them (a SQLite statement stepped; a PostgreSQL cursor fetched),
/// each handed to the core as ``SQLRowReading``; the object of a decoded row; and a batch's
/// prefetching. The driver owns its statement or cursor: it ends it at the last row, at an
/// error, when the stream asks (``endRows()``), or when the stream goes away.
@_spi(SQLStoreCore) public protocol SQLRowStreamDriver {
    /// A row as the driver's statement or result holds it (valid until the next row is asked).
    associatedtype Row: SQLRowReading

    /// The store's lock, held while a batch is read.
    var lock: NSRecursiveLock { get }
    /// How the rows decode.
    var decoder: SQLRowDecoder { get }
    /// Whether a batch's relationships are prefetched (``prefetch(_:)`` is then called).
    var prefetches: Bool { get }
    /// How many rows the driver holds read from the engine and not yet handed out, which
    /// ``nextRow()`` returns without a round trip (a PostgreSQL `FETCH`'s rest; a SQLite
    /// statement holds none). A stream with a ``SQLObjectSelection`` decodes its candidates a
    /// run at a time: a row, then the rows at hand.
    var rowsAtHand: Int { get }

    /// Told before the stream asks for rows: how many objects it still wants (a batch's; with a
    /// selection, what a run of candidates is still to find). A driver whose rows come a round
    /// trip at a time sizes the next one by it.
    mutating func willRead(batch: Int)
    /// The next row; nil at the end (the driver has then ended its statement or cursor). Throws
    /// the store's error, in words; the stream then ends.
    mutating func nextRow() throws -> Row?
    /// No more rows are wanted (a selection's limit is reached, or an error ended the stream):
    /// the driver ends its statement or cursor and lets go the rows at hand.
    mutating func endRows()
    /// The object of a decoded row whose values are `values`.
    func object(_ row: consuming SQLDecodedRow, values: ArraySlice<Value>) throws(StoreError) -> ManagedObject
    /// Loads the prefetched relationships (and counts) of a batch's objects, replacing the
    /// previous batch's.
    func prefetch(_ objects: ArraySlice<ManagedObject>) throws
    /// Loads what a selection's predicate reads (its relationships) for a run of candidates,
    /// before it is evaluated on each.
    func prefetchCandidates(_ objects: ArraySlice<ManagedObject>) throws
}

extension SQLRowStreamDriver {
    /// (None: each row is read from the engine when asked.)
    @inlinable
    public var rowsAtHand: Int { 0 }
    /// (Nothing to size.)
    @inlinable
    public mutating func willRead(batch: Int) {}
    /// (Nothing to load.)
    @inlinable
    public func prefetchCandidates(_ objects: ArraySlice<ManagedObject>) throws {}
}

/// Which of a stream's objects it returns when the engine's query leaves part of the fetch to the
/// evaluator: the residual predicate, checked on each candidate, then the request's offset and
/// limit counted over the objects it keeps — what the core's residual scan
/// (``SQLFetchDriver/matchingKeys(_:)``) does, one pass instead of the keys first.
@_spi(SQLStoreCore) public struct SQLObjectSelection {
    /// The predicate a candidate must match.
    @usableFromInline let residual: CompiledPredicate
    /// Matches still to skip (the offset).
    @usableFromInline var toSkip: Int
    /// Matches still to return (the limit; nil: no limit).
    @usableFromInline var toReturn: Int?

    /// The candidates matching `residual`, the first `offset` of them skipped, at most `limit`
    /// kept (nil: no limit).
    public init(residual: CompiledPredicate, offset: Int, limit: Int?) {
        precondition(offset >= 0 && (limit ?? 1) > 0, "a selection's offset is negative or its limit not positive")
        self.residual = residual
        self.toSkip = offset
        self.toReturn = limit
    }

    /// Whether the limit is reached: no more candidates are wanted.
    @inlinable
    var isComplete: Bool { toReturn == 0 }

    /// Whether `object` is returned: it matches, is past the offset and within the limit (each
    /// counted).
    @inlinable
    mutating func keeps(_ object: ManagedObject) throws -> Bool {
        guard toReturn != 0, try residual.evaluate(.object(object)) else { return false }
        if toSkip > 0 {
            toSkip &-= 1
            return false
        }
        if let limit = toReturn { toReturn = limit &- 1 }
        return true
    }
}

/// A fetch's objects streamed a batch at a time from a driver's rows, the same for every SQL
/// store: each batch decodes only the rows asked for (into one buffer of values its objects
/// share), makes their objects, then loads the batch's prefetched relationships. An error met
/// after some objects of a batch is thrown at the next batch, the objects before it returned
/// first.
///
/// With a ``SQLObjectSelection`` (the engine's query leaves a residual predicate, and the paging
/// after it, to the evaluator), the rows are candidates: decoded a run at a time (a row and the
/// driver's rows at hand), the run's objects made, what the predicate reads loaded for them
/// (``SQLRowStreamDriver/prefetchCandidates(_:)``), then each kept or dropped; the kept beyond
/// a batch wait for the next, and the stream ends at the limit.
///
/// (`@inlinable` SPI, as the row decoder is: a store wraps the stream over its driver in a
/// cursor of its own, so that the loop is specialized for its rows; see ``SQLRowReading``.)
@_spi(SQLStoreCore) public struct SQLObjectStream<Driver: SQLRowStreamDriver> {
    @usableFromInline var driver: Driver
    /// Whether rows may follow (false at the end, or after an error).
    @usableFromInline var isOpen: Bool
    /// The error to throw at the next batch: one met after some objects of a batch, or in
    /// starting the stream.
    @usableFromInline var pending: (any Error)?
    /// The batch's decoded rows and values, kept for the next batch.
    @usableFromInline var rows = SQLDecodedRows()
    @usableFromInline var values: [Value] = []
    /// Which candidates are returned (nil: every row's object).
    @usableFromInline var selection: SQLObjectSelection?
    /// Objects a selection kept beyond the last batch, returned first by the next.
    @usableFromInline var kept: ArraySlice<ManagedObject> = []

    /// The stream of `driver`'s rows, the objects `selection` keeps (nil: all); or, when the
    /// driver could not start (`failure`), a stream that throws it at the first batch.
    @inlinable
    public init(driver: Driver, selection: SQLObjectSelection? = nil, failure: (any Error)? = nil) {
        self.driver = driver
        self.selection = selection
        self.isOpen = failure == nil
        self.pending = failure
    }

    /// Up to `count` more objects appended to `objects` (``FetchedObjectCursor``'s).
    @inlinable
    public mutating func next(_ count: Int, appendingTo objects: inout [ManagedObject]) throws {
        if selection != nil { return try nextSelected(count, appendingTo: &objects) }
        if let pending {
            self.pending = nil
            throw pending
        }
        guard isOpen else { return }
        let lock = driver.lock
        lock.lock(); defer { lock.unlock() }
        let decoder = driver.decoder
        driver.willRead(batch: count)
        // The batch's rows decode into one buffer of values, which its objects share. The
        // buffers are the stream's, kept from batch to batch: once the previous batch's objects
        // are gone the values buffer is this stream's alone and is emptied in place, so a batch
        // allocates (and frees) no large block. (A kept object keeps its batch's buffer, and
        // this batch gets a new one.)
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(Swift.min(count, 4096) &* decoder.widestRow)
        let start = objects.count
        // The previous row's entity, to tell the next row's without a look-up (kept without
        // counting a reference per row).
        var previous: SQLRowDecoder.Entity?
        while rows.count < count {
            let next: Driver.Row?
            do {
                next = try driver.nextRow()
            } catch {
                isOpen = false
                // The objects read before the failure first; the error at the next call.
                guard rows.isEmpty else {
                    pending = error
                    break
                }
                throw error
            }
            guard let row = next else {
                isOpen = false
                break
            }
            let decoded = decoder.decode(row, previous: previous, appendingTo: &values)
            if decoded.entity !== previous { previous = decoded.entity }
            rows.append(decoded)
        }
        objects.reserveCapacity(objects.count &+ rows.count)
        let driver = self.driver
        try rows.moveAll { (row) throws(StoreError) in objects.append(try driver.object(row, values: values[row.values])) }
        if driver.prefetches, objects.count > start { try driver.prefetch(objects[start...]) }
        if !isOpen {
            // The last batch: what it decoded lives in its objects only.
            rows = SQLDecodedRows()
            values = []
        }
    }

    /// Up to `count` more objects (``FetchedObjectCursor``'s).
    @inlinable
    public mutating func next(_ count: Int) throws -> [ManagedObject] {
        var objects: [ManagedObject] = []
        try next(count, appendingTo: &objects)
        return objects
    }

    /// ``next(_:appendingTo:)`` with a selection: the objects kept before first, then runs of
    /// candidates until the batch is full or the rows end. An error (reading a row, making an
    /// object, evaluating the predicate) ends the stream; the batch's objects before it are
    /// returned first.
    @inlinable
    mutating func nextSelected(_ count: Int, appendingTo objects: inout [ManagedObject]) throws {
        let lock = driver.lock
        lock.lock(); defer { lock.unlock() }
        let start = objects.count
        if !kept.isEmpty {
            let taken = kept.prefix(count)
            objects += taken
            kept = taken.count < kept.count ? kept.dropFirst(taken.count) : []
        }
        // (An error is thrown once the objects kept before it are returned.)
        if objects.count == start, let pending {
            self.pending = nil
            throw pending
        }
        while isOpen, objects.count &- start < count {
            driver.willRead(batch: count &- (objects.count &- start))
            do {
                try selectRun(wanting: count &- (objects.count &- start), appendingTo: &objects)
            } catch {
                isOpen = false
                driver.endRows()
                guard objects.count == start else {
                    pending = error
                    break
                }
                throw error
            }
        }
        if !isOpen { rows = SQLDecodedRows() }
        if driver.prefetches, objects.count > start { try driver.prefetch(objects[start...]) }
    }

    /// Decodes a run of candidates (the next row and the driver's rows at hand), makes their
    /// objects, loads what the predicate reads, and keeps the matches: up to `wanted` appended to
    /// `objects`, the rest in ``kept``. At the limit the driver's rows are ended.
    @inlinable
    mutating func selectRun(wanting wanted: Int, appendingTo objects: inout [ManagedObject]) throws {
        let decoder = driver.decoder
        var previous: SQLRowDecoder.Entity?
        defer { rows.moveAll { _ in } }
        repeat {
            guard let row = try driver.nextRow() else {
                isOpen = false
                break
            }
            // A buffer of values per run (the driver's rows at hand are known once it has the
            // first): the objects kept hold it.
            if rows.isEmpty { values.reserveCapacity((driver.rowsAtHand &+ 1) &* decoder.widestRow) }
            let decoded = decoder.decode(row, previous: previous, appendingTo: &values)
            if decoded.entity !== previous { previous = decoded.entity }
            rows.append(decoded)
        } while driver.rowsAtHand > 0
        var candidates: [ManagedObject] = []
        candidates.reserveCapacity(rows.count)
        let driver = self.driver
        try rows.moveAll { (row) throws(StoreError) in candidates.append(try driver.object(row, values: values[row.values])) }
        // (The run's buffer is its objects' alone now.)
        values = []
        guard !candidates.isEmpty else { return }
        try driver.prefetchCandidates(candidates[...])
        var found = 0
        for object in candidates where try selection!.keeps(object) {
            if found < wanted {
                objects.append(object)
            } else {
                kept.append(object)
            }
            found &+= 1
            if selection!.isComplete { break }
        }
        if selection!.isComplete, isOpen {
            // The limit is reached: nothing more is read.
            isOpen = false
            self.driver.endRows()
        }
    }
}

/// A batch's decoded rows, kept by a stream from batch to batch: rows are appended as they are
/// decoded and moved (not copied) into their objects, so a row's ID and entity are not counted
/// and released again, and no row is destroyed twice.
@_spi(SQLStoreCore) public final class SQLDecodedRows {
    @usableFromInline var base: UnsafeMutablePointer<SQLDecodedRow>?
    @usableFromInline var capacity = 0
    @usableFromInline var count = 0

    @inlinable
    public init() {}

    @inlinable
    var isEmpty: Bool { count == 0 }

    @inlinable
    func append(_ row: consuming SQLDecodedRow) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: row)
        count &+= 1
    }

    @usableFromInline
    func grow() {
        let grown = Swift.max(16, capacity &* 2)
        let new = UnsafeMutablePointer<SQLDecodedRow>.allocate(capacity: grown)
        if let base {
            new.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = new
        capacity = grown
    }

    /// Moves every row, in order, into `body`, leaving none (when `body` throws, the rows after
    /// the one it threw at are destroyed).
    @inlinable
    func moveAll<E: Error>(_ body: (consuming SQLDecodedRow) throws(E) -> Void) throws(E) {
        guard let base else { return }
        let rows = count
        count = 0
        var index = 0
        defer { if index < rows { (base + index).deinitialize(count: rows &- index) } }
        while index < rows {
            let row = (base + index).move()
            index &+= 1
            try body(row)
        }
    }

    deinit {
        base?.deinitialize(count: count)
        base?.deallocate()
    }
}
