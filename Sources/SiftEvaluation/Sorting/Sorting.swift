import SiftLanguage

/// Sorting values by sort keys (FETCH.md §3): nil first ascending and last descending; values
/// of different kinds never tie (they order by kind); strings by the key's comparator; ties
/// keep input order, so results and pages are deterministic.
public enum Sorting {
    /// Parses `"key [ASC|DESC] [USING comparator], ..."` (keywords case-insensitive), as
    /// `sift filter --sort` and `SORT BY` take it. A key is written as in a format string
    /// (`#2B`, `#size`, `address.city`); the sort key holds the key path it names (`2B`).
    public static func parseSortKeys(_ text: String) throws(SortSpecificationError) -> [SortKey] {
        var keys: [SortKey] = []
        var offset = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let column = offset + 1
            offset += part.count + 1
            let words = part.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = words.first else {
                throw SortSpecificationError(message: "expected a key path", column: column)
            }
            let keyPath = String(first)
            let pathKeys: [String]
            do {
                let expression = try ExpressionNode(format: keyPath)
                guard case .keyPath(let base, let parsedKeys) = expression.kind, base == nil || base?.kind == .evaluatedObject else {
                    throw SortSpecificationError(message: "'\(keyPath)' is not a key path", column: column)
                }
                pathKeys = parsedKeys
            } catch let error as ParseError {
                throw SortSpecificationError(message: "'\(keyPath)': \(error.message)", column: column)
            } catch let error as SortSpecificationError {
                throw error
            } catch {
                throw SortSpecificationError(message: "'\(keyPath)' is not a key path", column: column)
            }
            var key = SortKey(pathKeys.joined(separator: "."))
            var rest = words.dropFirst()
            if let direction = rest.first?.uppercased(), direction == "ASC" || direction == "DESC" {
                key.ascending = direction == "ASC"
                rest = rest.dropFirst()
            }
            if let using = rest.first, using.uppercased() == "USING" {
                rest = rest.dropFirst()
                guard let name = rest.first else {
                    throw SortSpecificationError(message: "expected a comparator after USING (\(StringComparator.allCases.map(\.rawValue).joined(separator: ", ")))", column: column)
                }
                guard let comparator = StringComparator.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                    let suggestion = Suggestions.closest(to: String(name), in: StringComparator.allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" } ?? ""
                    throw SortSpecificationError(message: "unknown comparator '\(name)' (\(StringComparator.allCases.map(\.rawValue).joined(separator: ", ")))\(suggestion)", column: column)
                }
                key.comparator = comparator
                rest = rest.dropFirst()
            }
            if let extra = rest.first {
                throw SortSpecificationError(message: "unexpected '\(extra)' (expected ASC, DESC, USING or ',')", column: column)
            }
            keys.append(key)
        }
        return keys
    }

    /// The positions of `values` in sorted order.
    public static func sortedIndices(_ values: [Value], by keys: [SortKey]) throws(EvaluationError) -> [Int] {
        try sortedIndices(values, by: keys, reading: keys.map(\.expression))
    }

    /// The positions of `values` in sorted order, each sort key's value read by the expression
    /// at its position in `expressions` (a result property named by an alias, a result key that
    /// holds a dot) with the key's direction and comparator.
    package static func sortedIndices(_ values: [Value], by keys: [SortKey], reading expressions: [ExpressionNode]) throws(EvaluationError) -> [Int] {
        precondition(keys.count == expressions.count, "one expression per sort key")
        guard !keys.isEmpty else { return Array(values.indices) }
        // A column of values per key and the positions twice (sorting copies them), counted
        // once against the memory limit.
        var tally = MemoryTally()
        let (bytes, overflow) = values.count.multipliedReportingOverflow(by: MemoryLayout<Value>.stride * keys.count + 2 * MemoryLayout<Int>.stride)
        guard tally.hold(overflow ? .max : bytes) else {
            throw tally.error("sorting \(values.count.formatted()) results by \(keys.count) key\(keys.count == 1 ? "" : "s") would", progress: nil,
                              advice: "narrow the fetch with a predicate, or fetch from a SQLite store, which sorts in SQL")
        }
        // Read every sort key of every value once.
        var columns: [[Value]] = []
        for node in expressions {
            let expression = try CompiledExpression(node)
            var column: [Value] = []
            column.reserveCapacity(values.count)
            for value in values { column.append(try expression.evaluate(value)) }
            columns.append(column)
        }
        return Array(values.indices).sorted { a, b in
            for (k, key) in keys.enumerated() {
                let order = compare(columns[k][a], columns[k][b], comparator: key.comparator)
                if order != 0 { return key.ascending ? order < 0 : order > 0 }
            }
            return a < b
        }
    }

    /// Sorts values themselves.
    public static func sorted(_ values: [Value], by keys: [SortKey]) throws(EvaluationError) -> [Value] {
        try sortedIndices(values, by: keys).map { values[$0] }
    }

    /// The sort order of two key values (-1, 0, 1): nil first; strings by the comparator;
    /// numbers, dates numerically; other kinds by kind.
    public static func compare(_ a: Value, _ b: Value, comparator: StringComparator) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case let (.string(x), .string(y)): return comparator.compare(x, y)
        default:
            if let order = ValueComparison.order(a, b) { return order }
            let (ra, rb) = (kindRank(a), kindRank(b))
            if ra != rb { return ra < rb ? -1 : 1 }
            switch (a, b) {
            case let (.data(x), .data(y)): return x.lexicographicallyPrecedes(y) ? -1 : (x == y ? 0 : 1)
            case let (.uuid(x), .uuid(y)): return x.uuidString < y.uuidString ? -1 : (x == y ? 0 : 1)
            default: return 0
            }
        }
    }

    /// Kinds in sort order, for values of different kinds.
    private static func kindRank(_ value: Value) -> Int {
        switch value {
        case .null: 0
        case .bool, .int, .double, .decimal: 1
        case .string: 2
        case .date: 3
        case .data: 4
        case .uuid: 5
        case .array, .set: 6
        case .dictionary: 7
        case .object: 8
        }
    }
}
