import Sift

/// The columns of tabular output (csv and tables, in the commands and the REPL) as records
/// arrive: the union of their top-level keys, in the order first seen. A record that is not a
/// dictionary (a number in a JSON array of numbers) is shown in a `SELF` column.
struct ColumnSet {
    static let selfColumn = "SELF"
    private(set) var names: [String] = []
    private var seen: Set<String> = []

    init() {}

    /// The columns of all of `records`.
    init(_ records: some Sequence<Value>) {
        for record in records { add(record) }
    }

    /// Adds a record's keys; returns whether any was new.
    @discardableResult
    mutating func add(_ record: Value) -> Bool {
        var added = false
        if case .dictionary(let dictionary) = record {
            for key in dictionary.keys where seen.insert(key).inserted {
                names.append(key)
                added = true
            }
        } else if seen.insert(Self.selfColumn).inserted {
            names.append(Self.selfColumn)
            added = true
        }
        return added
    }

    /// A record's value in a column (nil where it has no such key).
    static func cell(_ record: Value, _ column: String) -> Value {
        if case .dictionary(let dictionary) = record { return dictionary[column] ?? .null }
        return column == Self.selfColumn ? record : .null
    }
}
