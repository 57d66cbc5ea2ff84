import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftStore
import Testing

/// The core's object stream with a selection (`SQLObjectStream` over a `SQLObjectSelection`),
/// checked without an engine: a driver whose rows come a "fetch" of ten at a time, as a
/// PostgreSQL cursor's do. The residual predicate filters, the offset and limit count the
/// matches, the kept beyond a batch wait for the next, the rows end at the limit, and an error
/// comes after the objects before it.
@Suite struct SQLObjectSelectionTests {
    /// Notes `0`, `1`, … titled by their key, ten rows at hand after each "fetch".
    final class FetchingRows: SQLRowStreamDriver {
        let lock = NSRecursiveLock()
        let decoder: SQLRowDecoder
        let plan: SQLRowLayoutPlan
        let count: Int
        /// The row whose "fetch" fails (nil: none).
        let failingAt: Int?
        var next = 0
        var fetched = 0
        /// What the stream said it wants before each read, the runs prefetched, the rows ended.
        var hints: [Int] = []
        var runs: [Int] = []
        var ended = 0

        init(count: Int, failingAt: Int? = nil) throws {
            let schema = try SQLStoreCoreTests.schema()
            let table = try #require(schema.table(for: "Note"))
            plan = SQLRowLayoutPlan(table: table, schema: schema, readsEntityColumn: { _ in true })
            decoder = SQLRowDecoder(plan: plan, decodingType: { $0 }, store: try SQLStoreCoreTests.CountingStore())
            self.count = count
            self.failingAt = failingAt
        }

        var prefetches: Bool { false }
        var rowsAtHand: Int { fetched - next }
        func willRead(batch: Int) { hints.append(batch) }

        func nextRow() throws -> SQLStoreCoreTests.FakeRow? {
            if next == fetched {
                if next == failingAt { throw StoreError(.corruptStore, "fetch failed") }
                fetched = Swift.min(next + 10, count)
            }
            guard next < count else { return nil }
            defer { next += 1 }
            var values = [Value](repeating: .null, count: plan.columns.count)
            values[0] = .int(Int64(next))
            values[plan.idIndex!] = .string("N\(next)")
            values[plan.entityIndex!] = .string("Note")
            values[plan.entities["Note"]!.columns[0]] = .string("\(next)")
            return SQLStoreCoreTests.FakeRow(values: values)
        }

        func endRows() {
            ended += 1
            next = count
            fetched = count
        }

        func object(_ row: consuming SQLDecodedRow, values: ArraySlice<Value>) throws(StoreError) -> ManagedObject {
            ManagedObject(objectID: row.id, shape: row.entity.shape!, values: values, storageKey: row.key)
        }

        func prefetch(_ objects: ArraySlice<ManagedObject>) {}
        func prefetchCandidates(_ objects: ArraySlice<ManagedObject>) { runs.append(objects.count) }
    }

    static func stream(_ rows: FetchingRows, _ format: String, offset: Int = 0, limit: Int? = nil) throws -> SQLObjectStream<FetchingRows> {
        SQLObjectStream(driver: rows, selection: SQLObjectSelection(residual: try CompiledPredicate(format: format), offset: offset, limit: limit))
    }

    static func ids(_ objects: [ManagedObject]) -> [String] { objects.map(\.objectID.rawValue) }

    /// The offset skips matches, the limit ends the rows: the candidates a run at a time (the
    /// rows at hand), each run's wants told before it.
    @Test func offsetAndLimitCountTheMatches() throws {
        let rows = try FetchingRows(count: 40)
        var stream = try Self.stream(rows, "title ENDSWITH '7'", offset: 1, limit: 2)
        #expect(Self.ids(try stream.next(1)) == ["N17"])
        #expect(Self.ids(try stream.next(1)) == ["N27"])
        #expect(rows.ended == 1)
        #expect(try stream.next(1).isEmpty)
        #expect(rows.runs == [10, 10, 10])
        #expect(rows.hints == [1, 1, 1])
    }

    /// Matches beyond a batch are returned by the next, before more rows are read.
    @Test func matchesBeyondABatchWaitForTheNext() throws {
        let rows = try FetchingRows(count: 30)
        var stream = try Self.stream(rows, "title BEGINSWITH '1'")
        var batches: [[String]] = []
        while true {
            let batch = Self.ids(try stream.next(3))
            if batch.isEmpty { break }
            batches.append(batch)
        }
        #expect(batches == [["N1", "N10", "N11"], ["N12", "N13", "N14"], ["N15", "N16", "N17"], ["N18", "N19"]])
        #expect(rows.runs == [10, 10, 10])
        #expect(rows.ended == 0)
    }

    /// An error reading a row ends the stream: the batch's objects before it first, the error
    /// at the next batch, then nothing.
    @Test func anErrorComesAfterTheObjectsBeforeIt() throws {
        let rows = try FetchingRows(count: 30, failingAt: 10)
        var stream = try Self.stream(rows, "title != 'x'")
        #expect(try stream.next(15).count == 10)
        #expect(throws: StoreError.self) { try stream.next(15) }
        #expect(try stream.next(15).isEmpty)
        #expect(rows.ended == 1)
    }
}
