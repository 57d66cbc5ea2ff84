import Sift

/// The sections and records held while a first batch sets the columns (csv's header, a
/// table's widths), in order, to be printed once they are known: ``RenderOptions/measuredRecords``
/// records make a batch (all of them when nil).
struct HeldBatch {
    enum Item {
        case section(RecordSection)
        case record(Value)
    }

    let measuredRecords: Int?
    private(set) var items: [Item] = []
    private var recordCount = 0

    init(measuredRecords: Int?) { self.measuredRecords = measuredRecords }

    var isEmpty: Bool { items.isEmpty }

    mutating func hold(_ section: RecordSection) {
        items.append(.section(section))
    }

    /// Holds a record; returns whether the batch is full.
    mutating func hold(_ record: Value) -> Bool {
        items.append(.record(record))
        recordCount += 1
        return measuredRecords.map { recordCount >= $0 } ?? false
    }

    /// What is held, in order; nothing is held after.
    mutating func take() -> [Item] {
        defer {
            items = []
            recordCount = 0
        }
        return items
    }
}
