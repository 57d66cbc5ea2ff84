import SiftEvaluation
import SiftLanguage
import SiftStore

/// One section as a GROUP BY query of ``SectionSQL`` describes it: its name, the stored values
/// of its rows, its size, and its first and last places in the results (1-based).
///
/// Both stores make them from the rows of the same queries: SQLite's statement and
/// PostgreSQL's result, their values in SQLite's form.
package struct SectionSpan: Sendable {
    package let name: String
    package var values: [SQLValue]
    package var count: Int64
    package var first: Int64
    package var last: Int64

    /// Sections from the rows of the summary query (``SectionSQL/summaryQuery()``: value, size,
    /// first place, last place), in order of their first place; values of one
    /// ``SectionIdentity`` (nil and `""`, `0` and `0.0`) make one section, named by the first.
    package static func fromSummary(_ rows: [(value: SQLValue, count: Int64, first: Int64, last: Int64)], type: AttributeType?) -> [SectionSpan] {
        var merged: [SectionSpan] = []
        var indexByKey: [String: Int] = [:]
        for row in rows {
            let value = ColumnCodec.decode(row.value, as: type)
            let key = SectionIdentity.key(of: value)
            if let index = indexByKey[key] {
                merged[index].values.append(row.value)
                merged[index].count += row.count
                merged[index].first = min(merged[index].first, row.first)
                merged[index].last = max(merged[index].last, row.last)
            } else {
                indexByKey[key] = merged.count
                merged.append(SectionSpan(name: ValueText.text(value), values: [row.value], count: row.count, first: row.first, last: row.last))
            }
        }
        merged.sort { $0.first < $1.first }
        return merged
    }

    /// Sections from the rows of the runs query (``SectionSQL/runsQuery()``: least and
    /// greatest value, how many rows have one, size), in result order: each run one stored
    /// value (or only nils), placed after the runs before it from `firstPlace`, and consecutive
    /// runs of one ``SectionIdentity`` one section. Nil when a run holds several values, or a
    /// section's runs are apart: the summary query must say then.
    package static func fromRuns(_ rows: [(least: SQLValue, greatest: SQLValue, valued: Int64, count: Int64)], type: AttributeType?,
                                 firstPlace: Int64) -> [SectionSpan]? {
        var merged: [SectionSpan] = []
        var seen: Set<String> = []
        var lastKey: String?
        var place = firstPlace
        for row in rows {
            let stored: SQLValue
            if row.valued == 0 {
                stored = .null
            } else if row.valued == row.count, row.least == row.greatest {
                stored = row.least
            } else {
                return nil
            }
            let (next, overflow) = place.addingReportingOverflow(row.count)
            guard !overflow else { return nil }
            let value = ColumnCodec.decode(stored, as: type)
            let key = SectionIdentity.key(of: value)
            if key == lastKey, let index = merged.indices.last {
                if !merged[index].values.contains(stored) { merged[index].values.append(stored) }
                merged[index].count += row.count
                merged[index].last = next - 1
            } else {
                guard seen.insert(key).inserted else { return nil }
                merged.append(SectionSpan(name: ValueText.text(value), values: [stored], count: row.count, first: place, last: next - 1))
            }
            lastKey = key
            place = next
        }
        return merged
    }

    /// Whether every section fills its span (no other section's rows between its first and last).
    package static func areContiguous(_ spans: [SectionSpan]) -> Bool {
        spans.allSatisfy { $0.last - $0.first + 1 == $0.count }
    }
}
