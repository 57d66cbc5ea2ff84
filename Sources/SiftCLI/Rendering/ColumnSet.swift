import Sift

/// The columns of tabular output as records arrive: the union of their top-level keys, in the
/// order first seen (a record that is not a dictionary is shown in a `SELF` column, as
/// ``Columns`` does for `sift query`).
struct ColumnSet {
    private(set) var names: [String] = []
    private var seen: Set<String> = []

    /// Adds a record's keys; returns whether any was new.
    @discardableResult
    mutating func add(_ record: Value) -> Bool {
        var added = false
        if case .dictionary(let dictionary) = record {
            for key in dictionary.keys where seen.insert(key).inserted {
                names.append(key)
                added = true
            }
        } else if seen.insert(Columns.selfColumn).inserted {
            names.append(Columns.selfColumn)
            added = true
        }
        return added
    }

    /// Whether every key of `record` is a column already.
    func covers(_ record: Value) -> Bool {
        if case .dictionary(let dictionary) = record { return dictionary.keys.allSatisfy(seen.contains) }
        return seen.contains(Columns.selfColumn)
    }

    /// A record's value in a column (nil where it has no such key).
    static func cell(_ record: Value, _ column: String) -> Value {
        if case .dictionary(let dictionary) = record { return dictionary[column] ?? .null }
        return column == Columns.selfColumn ? record : .null
    }
}
