import Foundation
import SiftEvaluation

/// Rows read and checked on a thread of their own while the store inserts the rows before them:
/// on two cores an import then takes about as long as the slower of reading and inserting, not
/// their sum. Rows travel in batches; at most ``capacity`` batches wait, so memory stays flat
/// however long the input is.
///
/// The reader ends the stream with `.end`, or with `.failed` at the first line it cannot read
/// (after every row before it), so errors come in file order. The consumer that stops early
/// calls ``cancel()``, which makes the reader's next `put` return false.
final class ImportPipeline<Row: Sendable>: @unchecked Sendable {
    enum Item: Sendable {
        case rows([Row])
        case failed(StoreError)
        case end
    }

    /// Rows a batch holds.
    static var batchSize: Int { 512 }

    private let condition = NSCondition()
    private var queue: [Item] = []
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int = 4) {
        self.capacity = max(1, capacity)
    }

    /// Hands an item to the consumer, waiting while ``capacity`` items wait; false once the
    /// consumer has cancelled (the reader should stop).
    func put(_ item: Item) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while queue.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        queue.append(item)
        condition.broadcast()
        return true
    }

    /// The next item, waiting for the reader.
    func take() -> Item {
        condition.lock(); defer { condition.unlock() }
        while queue.isEmpty { condition.wait() }
        let item = queue.removeFirst()
        condition.broadcast()
        return item
    }

    /// The consumer stops: the reader's waiting or next `put` returns false.
    func cancel() {
        condition.lock(); defer { condition.unlock() }
        cancelled = true
        queue.removeAll()
        condition.broadcast()
    }

    /// Runs `read` on a new thread, feeding this pipeline, and `consume` here; returns when both
    /// are done. `read` gets a `send` that returns false once it should stop.
    func run(read: @escaping @Sendable (_ send: (Item) -> Bool) -> Void, consume: (ImportPipeline) throws(StoreError) -> Void) throws(StoreError) {
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            read { self.put($0) }
            finished.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
        defer {
            cancel()
            finished.wait()
        }
        try consume(self)
    }
}
