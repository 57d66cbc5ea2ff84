/// Sorting values by sort keys (being written).
public enum Sorting {
    /// Parses `"key [ASC|DESC] [USING comparator], ..."` (keywords case-insensitive).
    public static func parseSortKeys(_ text: String) throws(SortSpecificationError) -> [SortKey] {
        throw SortSpecificationError(message: "not written yet", column: 1)
    }

    /// The positions of `values` in sorted order. Ties keep input order; nil sorts first
    /// ascending and last descending.
    public static func sortedIndices(_ values: [Value], by keys: [SortKey]) throws(EvaluationError) -> [Int] {
        throw EvaluationError(.unsupported, "sorting is not written yet")
    }
}
