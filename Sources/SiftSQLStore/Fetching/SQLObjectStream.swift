import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// What a SQL store gives the core's ``SQLObjectStream``: the rows of a fetch's query one at a
/// time, as the engine streams them (a SQLite statement stepped; a PostgreSQL cursor fetched),
/// each handed to the core as ``SQLRowReading``; the object of a decoded row; and a batch's
/// prefetching. The driver owns its statement or cursor: it ends it at the last row, at an
/// error, or when the stream goes away.
@_spi(SQLStoreCore) public protocol SQLRowStreamDriver {
    /// A row as the driver's statement or result holds it (valid until the next row is asked).
    associatedtype Row: SQLRowReading

    /// The store's lock, held while a batch is read.
    var lock: NSRecursiveLock { get }
    /// How the rows decode.
    var decoder: SQLRowDecoder { get }
    /// Whether a batch's relationships are prefetched (``prefetch(_:)`` is then called).
    var prefetches: Bool { get }

    /// The next row; nil at the end (the driver has then ended its statement or cursor). Throws
    /// the store's error, in words; the stream then ends.
    mutating func nextRow() throws -> Row?
    /// The object of a decoded row whose values are `values`.
    func object(_ row: consuming SQLDecodedRow, values: ArraySlice<Value>) throws(StoreError) -> ManagedObject
    /// Loads the prefetched relationships (and counts) of a batch's objects, replacing the
    /// previous batch's.
    func prefetch(_ objects: ArraySlice<ManagedObject>) throws
}

/// A fetch's objects streamed a batch at a time from a driver's rows, the same for every SQL
/// store: each batch decodes only the rows asked for (into one buffer of values its objects
/// share), makes their objects, then loads the batch's prefetched relationships. An error met
/// after some objects of a batch is thrown at the next batch, the objects before it returned
/// first.
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

    /// The stream of `driver`'s rows; or, when the driver could not start (`failure`), a stream
    /// that throws it at the first batch.
    @inlinable
    public init(driver: Driver, failure: (any Error)? = nil) {
        self.driver = driver
        self.isOpen = failure == nil
        self.pending = failure
    }

    /// Up to `count` more objects appended to `objects` (``FetchedObjectCursor``'s).
    @inlinable
    public mutating func next(_ count: Int, appendingTo objects: inout [ManagedObject]) throws {
        if let pending {
            self.pending = nil
            throw pending
        }
        guard isOpen else { return }
        let lock = driver.lock
        lock.lock(); defer { lock.unlock() }
        let decoder = driver.decoder
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
