import Foundation
import SiftStore

/// An open unit of changes (`performChanges(_:)`): its savepoint (nil when it began without one,
/// or once a save or rollback inside it ended the transaction and its savepoint with it), whether
/// changes were pending when it began, and the driver's mark of where its changes began (the
/// SQLite store's journal length, the PostgreSQL store's next row key).
@_spi(SQLStoreCore) public struct SQLChangeUnit<Mark> {
    public var savepoint: String?
    public var hadChanges: Bool
    public var mark: Mark

    @inlinable
    public init(savepoint: String?, hadChanges: Bool, mark: Mark) {
        self.savepoint = savepoint
        self.hadChanges = hadChanges
        self.mark = mark
    }
}

/// A SQL store's changes as the core runs them, whatever the engine (the extension below): the
/// transaction shell of `save()`, `rollback()`, `performChanges(_:)` and of each change, written
/// once for every engine.
///
/// The core's part: the store's lock around each, beginning the transaction when a change needs
/// it, one savepoint per change that asks for one (`sift_change`) and per unit that takes one,
/// undoing a change or a unit that threw back to its savepoint, rolling back the transaction a
/// first change or unit leaves empty, the pending-changes flag and the rows' generation,
/// validating and committing (with the last interrupt check before `COMMIT`), each open unit
/// starting afresh once a save or rollback ended the transaction, and the save's notification
/// (``StoreChangeCenter``, posted once the lock is released).
///
/// (`@inlinable` SPI, as the row decoder and the object stream are: each store's calls of the
/// shell are specialized for it, so its reads of the store are direct, not witness calls; see
/// ``SQLRowReading``.)
///
/// The driver's part: how the transaction begins (its lock, its layout's migration), how its
/// statements run and how their errors read, which units take a savepoint and its name, its
/// mark of where a unit began and how to go back to it, what it holds back or records beside the
/// rows (the PostgreSQL store's held-back inserts, the SQLite store's journal), what a first
/// change that failed leaves, what a save checks before `COMMIT` and what a failed `COMMIT`
/// means, what a commit reports, and what the end of the transaction resets.
@_spi(SQLStoreCore) public protocol SQLChangeDriver: AnyObject {
    /// Where a unit's changes began, as the driver marks it.
    associatedtype UnitMark

    /// The store's lock, held through each change, unit, save and rollback.
    var lock: NSRecursiveLock { get }
    /// Throws when `interrupt()` stopped the store's work: checked once more before `COMMIT`.
    func checkInterruption() throws(StoreError)
    /// Where each save's changes are posted.
    var changeCenter: StoreChangeCenter { get }
    /// Whether changes are pending (`PersistentStore.hasChanges`).
    var hasChanges: Bool { get }
    /// Sets whether changes are pending.
    func setHasChanges(_ pending: Bool)
    /// Changes whenever the rows may change under fetched objects (a change, a rollback).
    var generation: UInt64 { get set }
    /// The open units, innermost last.
    var units: [SQLChangeUnit<UnitMark>] { get set }
    /// Whether the connection is inside a transaction.
    var isInTransaction: Bool { get }

    /// Begins the write transaction, unless it is open.
    func beginChanges() throws(StoreError)
    /// Runs a transaction statement as a change runs it (its error as a change's error).
    func execute(_ sql: String) throws(StoreError)
    /// Runs a transaction statement on the connection itself, for undoing: nothing sent first,
    /// its error as the connection's.
    func executeDirectly(_ sql: String) throws

    /// The savepoint a unit beginning at `depth` (the units open) takes, if any.
    func unitSavepoint(depth: Int) -> String?
    /// Where a unit beginning now starts.
    var unitMark: UnitMark { get }
    /// A unit began with its savepoint.
    func unitBegan()
    /// A unit that began with a savepoint was released: its changes are the enclosing
    /// transaction's.
    func unitReleased(_ unit: SQLChangeUnit<UnitMark>)
    /// Goes back to `mark` after a rollback to the savepoint of a change or a unit.
    func rewindChanges(to mark: UnitMark)
    /// Whether a unit's savepoint counts as held though the transaction is gone (SQLite rolled
    /// it back on its own and could not make it again): the SQLite store then still releases
    /// it, or undoes the unit as if it held; the PostgreSQL store treats the unit as ended.
    var unitOutlivesLostTransaction: Bool { get }
    /// Drops what the driver holds back of the changes (before a rollback to a savepoint).
    func discardHeldChanges()
    /// The first change of a transaction failed: what is left of the transaction is ended.
    func endFailedFirstChange()
    /// A change's error as the store reports it (after its savepoint was rolled back).
    func failedChangeError(_ error: StoreError) -> StoreError

    /// What must pass before `COMMIT`: the changed objects' validation (and anything held back,
    /// sent).
    func prepareCommit() throws(StoreError)
    /// A `COMMIT` that failed, as the store reports it.
    func commitError(_ error: any Error) -> StoreError
    /// What the committed transaction changed, to post (nil: nothing to post).
    func committedChanges() -> StoreChanges?
    /// The transaction was committed: the driver's state of it is reset.
    func transactionCommitted()
    /// Rolls the transaction back (if one is open) and resets the driver's state of it.
    func rollBackTransaction()
}

extension SQLChangeDriver {
    /// `PersistentStore.save()`: validates the objects the transaction changed and commits; on
    /// any error nothing is committed and the changes stay pending.
    @_spi(SQLStoreCore) @inlinable
    public func saveChanges() throws(StoreError) {
        // Posted once the store's lock is released (``ChangeReportingStore``).
        if let changes = try commitChanges() { changeCenter.post(changes) }
    }

    /// Validates and commits; what the transaction changed, to post.
    @inlinable
    func commitChanges() throws(StoreError) -> StoreChanges? {
        lock.lock(); defer { lock.unlock() }
        guard hasChanges else { return nil }
        try prepareCommit()
        // The last point where an interrupt (of a change under way) leaves the store as it was.
        try checkInterruption()
        do {
            try executeDirectly("COMMIT")
        } catch {
            throw commitError(error)
        }
        let committed = committedChanges()
        transactionCommitted()
        pendingChangesEnded()
        return committed
    }

    /// `PersistentStore.rollback()`: discards the changes since the last save.
    @_spi(SQLStoreCore) @inlinable
    public func rollbackChanges() {
        lock.lock(); defer { lock.unlock() }
        generation &+= 1
        rollBackTransaction()
        pendingChangesEnded()
    }

    /// The transaction ended (committed, rolled back, or lost with a failed `COMMIT`): no change
    /// is pending, and each open unit now starts from here (undoing one rolls back what came
    /// after).
    @_spi(SQLStoreCore) @inlinable
    public func pendingChangesEnded() {
        setHasChanges(false)
        for index in units.indices {
            units[index].savepoint = nil
            units[index].hadChanges = false
        }
    }

    /// `PersistentStore.performChanges(_:)`: runs `body` as one unit; if it throws, every change
    /// it made is undone (changes made before it stay pending).
    @_spi(SQLStoreCore) @inlinable
    public func performChangeUnit<T>(_ body: () throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        try beginChanges()
        let savepoint = unitSavepoint(depth: units.count)
        let mark = unitMark
        if let savepoint {
            try execute("SAVEPOINT \(savepoint)")
            unitBegan()
        }
        units.append(SQLChangeUnit(savepoint: savepoint, hadChanges: hasChanges, mark: mark))
        let result: T
        do {
            result = try body()
        } catch {
            let unit = units.removeLast()
            discardHeldChanges()
            if let savepoint = unit.savepoint, isInTransaction || unitOutlivesLostTransaction {
                if isInTransaction { try? executeDirectly("ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)") }
                rewindChanges(to: unit.mark)
                setHasChanges(unit.hadChanges)
                if !hasChanges && units.isEmpty { rollbackChanges() }
            } else {
                // Began without a savepoint (nothing pending: undoing it is rolling back), or a
                // save or rollback inside it ended its transaction: what came after goes.
                rollbackChanges()
            }
            generation &+= 1
            throw error
        }
        let unit = units.removeLast()
        if let savepoint = unit.savepoint, isInTransaction || unitOutlivesLostTransaction {
            try execute("RELEASE SAVEPOINT \(savepoint)")
            unitReleased(unit)
        }
        if !hasChanges && units.isEmpty && isInTransaction { rollbackChanges() }
        return result
    }

    /// Runs one change, beginning the transaction if needed; in a savepoint (`inSavepoint`) an
    /// error half-way leaves nothing of it. A first change that fails leaves no transaction
    /// holding the write lock.
    @discardableResult
    @_spi(SQLStoreCore) @inlinable
    public func changeRows<T>(inSavepoint savepoint: Bool, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock(); defer { lock.unlock() }
        return try changeRowsHoldingLock(inSavepoint: savepoint, body)
    }

    /// ``changeRows(inSavepoint:_:)`` for a caller that holds the store's lock already (the
    /// SQLite store, which journals the change under the same lock): the lock is not taken
    /// again.
    @discardableResult
    @_spi(SQLStoreCore) @inlinable
    public func changeRowsHoldingLock<T>(inSavepoint savepoint: Bool, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try beginChanges()
        generation &+= 1
        let mark = unitMark
        if savepoint { try execute("SAVEPOINT sift_change") }
        do throws(StoreError) {
            let result = try body()
            if savepoint { try execute("RELEASE SAVEPOINT sift_change") }
            setHasChanges(true)
            return result
        } catch {
            discardHeldChanges()
            if savepoint, isInTransaction {
                try? executeDirectly("ROLLBACK TO SAVEPOINT sift_change; RELEASE SAVEPOINT sift_change")
            }
            rewindChanges(to: mark)
            if !hasChanges && units.isEmpty { endFailedFirstChange() }
            throw failedChangeError(error)
        }
    }
}
