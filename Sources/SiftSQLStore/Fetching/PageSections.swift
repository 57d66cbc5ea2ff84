import SiftStore

/// When a sectioned fetch's sections are grouped from the rows it fetches rather than by a
/// query of their own: when a limit keeps it to a page (`… SORT BY city SECTION BY city LIMIT
/// 20`, the first page of a sectioned list). The page's query is then the only one over the
/// table — the engine keeps the first rows in order as it reads, without sorting the rest —
/// where the sections' query would sort or group every matching row again to place a page of
/// them. Both SQL stores decide by this, and `sift sql` says so ("sections grouped from the
/// page's rows").
package enum PageSections {
    /// The largest page grouped from its rows.
    package static let rowLimit = 1_000

    /// The reason `sift sql` and `sift explain` show for such a fetch.
    package static let reason = "sections grouped from the page's rows"

    /// Whether `request`'s sections are grouped from its rows.
    package static func areGroupedFromRows(_ request: FetchRequest) -> Bool {
        request.sectionNameKeyPath != nil && request.resultType == .objects
            && request.fetchLimit > 0 && request.fetchLimit <= rowLimit
    }
}
