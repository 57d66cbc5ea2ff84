/// A to-many key path as a correlated subquery: `SELECT … FROM <from> WHERE <link>` yields one
/// row per element of the evaluator's collection, and `element` is the element's value in that
/// row.
///
/// A path may cross any number of to-many and to-one steps (`playlists.tracks.album.genre.name`):
/// the evaluator flattens the collections it meets (``KeyValueAccess``), so its collection is
/// one element per path — an object reached along two paths counts twice — and a to-one step
/// that reaches nil inside the collection gives one nil element, whatever steps follow. The
/// first to-many step is the subquery's FROM; every later step is joined to the one before:
///
///     SELECT 1 FROM "PlaylistTrack" AS "t1"
///       JOIN "Playlist" AS "t2" ON "t2"."PlaylistId" = "t1"."PlaylistId"                 -- to-one (no nil here: LEFT)
///       JOIN "PlaylistTrack" AS "t3" ON "t3"."PlaylistId" = "t2"."PlaylistId"            -- to-many
///     WHERE "t1"."TrackId" = "t0"."TrackId"
///
/// A to-one step is a LEFT JOIN, as at the top level, so a nil is a row of NULLs; a to-many step
/// after one is a LEFT JOIN too, kept only where its owner is that nil row or it has a row
/// (``conditions``): `("t2"."PlaylistId" IS NULL OR "t3"."rowid" IS NOT NULL)` — an empty
/// collection gives no element, a nil one nil element, as in the evaluator. Without a to-one
/// step between them, to-many steps are inner joins.
///
/// An existential test on such a path (ANY, ALL, NONE, implicit ANY, IN and CONTAINS
/// membership) is written as a chain of uncorrelated semi-joins rather than one EXISTS per row
/// (``exists(_:nilTest:)``): each step's set is computed once, so a path whose elements multiply
/// at each step costs the size of the tables, not the number of paths.
struct CollectionPath {
    /// The FROM clause, with the subquery's joins.
    var from: SQLFrom
    /// Ties the subquery to the row it belongs to.
    var link: SQLExpression
    /// The tests that keep one nil element for a nil to-one step before a later to-many step,
    /// and no element for an empty collection: `(<owner's key> IS NULL OR <element's key> IS NOT
    /// NULL)`, one per such to-many step.
    var conditions: [SQLExpression] = []
    var element: SQLFragment
    /// The element rows' scope, when the path ends at the relationship (for SUBQUERY).
    var elementScope: SQLScope?
    /// Where to-one steps come before the first to-many one (`owner.items.name`): SQL that
    /// holds when they reach nil (`"t1"."_pk" IS NULL`, on the last to-one's LEFT JOIN), where the
    /// evaluator's value is one nil rather than an empty collection (the subquery is then
    /// empty, as its link fails). Nil when the path starts with the to-many step.
    var missingOwner: SQLExpression?
    /// Whether to-one steps come before the first to-many one.
    var hasToOnePrefix: Bool { missingOwner != nil }
    /// The elements' order in the collection, as the stores read it, one term per to-many step:
    /// the join table's `_position`, or the destination's row key (insertion order) for a
    /// to-many held by the destination's foreign key. The evaluator's flattened collection is
    /// in the order of these terms, the first step's first.
    var order: [SQLOrdering]
    /// The to-many steps, in order (the first is the FROM; the others are among its joins).
    var hops: [CollectionHop]

    /// Whether a to-one step inside the path comes before a later to-many step, so that a path
    /// may end in one nil element.
    var hasNilPaths: Bool { !conditions.isEmpty }

    /// The same path with another element value (read on the element rows through `from`,
    /// which has the joins that value needs).
    func with(element: SQLFragment, from: SQLFrom) -> CollectionPath {
        var path = self
        path.element = element
        path.from = from
        path.elementScope = nil
        return path
    }

    /// `link AND conditions AND condition`.
    private func filter(_ condition: SQLExpression?) -> SQLExpression {
        let parts = [link] + conditions + (condition.map { [$0] } ?? [])
        return parts.count == 1 ? link : .and(parts)
    }

    /// Whether some element meets `condition`: `EXISTS (SELECT 1 FROM … WHERE link AND
    /// condition)`, or where the path crosses two to-many steps or more, the chain of
    /// semi-joins (``semiJoin(_:nilTest:)``). `nilTest` is the condition's answer for a nil
    /// element (nil when it is not known), which decides whether paths that end in nil may be
    /// left out.
    func exists(_ condition: SQLExpression?, nilTest: SQLCondition? = nil) -> SQLExpression {
        if let chain = semiJoin(condition, nilTest: nilTest) { return chain }
        return .exists(SQLSelect(columns: [.integer(1)], from: from, where: filter(condition)))
    }

    /// The evaluator's aggregate of the elements, fed in the collection's order:
    /// `sift_group_sum(<element>, <order>…)`.
    func orderedAggregate(_ function: SQLKeyedAggregateFunction) -> SQLExpression {
        .function(.provided(.keyedAggregate(function)), [element.expression] + order.map(\.expression))
    }

    /// `(SELECT <aggregate> FROM … WHERE link)`.
    func scalar(_ aggregate: SQLExpression, condition: SQLExpression? = nil) -> SQLExpression {
        .subquery(SQLSelect(columns: [aggregate], from: from, where: filter(condition)))
    }

    /// `(SELECT <value> FROM … WHERE link ORDER BY <order> LIMIT 1 OFFSET <offset>)`: the value
    /// read on one element by its place in the collection (`[FIRST]`, `[LAST]`, `[n]`).
    func element(_ value: SQLExpression, descending: Bool = false, offset: SQLExpression? = nil) -> SQLExpression {
        let orderBy = order.map { SQLOrdering(expression: $0.expression, descending: descending, isNeverNull: $0.isNeverNull) }
        return .subquery(SQLSelect(columns: [value], from: from, where: filter(nil), orderBy: orderBy, limit: .integer(1), offset: offset))
    }

    /// Whether some element meets `condition`, as uncorrelated semi-joins from the last to-many
    /// step back to the owner — each step's owners of an element that qualifies:
    ///
    ///     "t0"."TrackId" IN (SELECT "t1"."TrackId" FROM "PlaylistTrack" AS "t1" JOIN "Playlist" AS "t2" ON …
    ///         WHERE "t1"."TrackId" IS NOT NULL AND "t2"."PlaylistId" IN (SELECT "t3"."PlaylistId" FROM "PlaylistTrack" AS "t3" …
    ///             WHERE "t3"."PlaylistId" IS NOT NULL AND <condition>))
    ///
    /// SQL computes each set once, however many rows ask, where EXISTS would walk every path
    /// from every row. Nil (EXISTS is written) for a path of one to-many step, for a condition
    /// that reads anything but the last step's rows (the row the path starts from, an enclosing
    /// SUBQUERY's element), and where a path may end in a nil element that the condition may
    /// accept (the chain only has paths that reach the last step). The sets hold no NULL, and the
    /// owner's key is tested for NULL where it may be one, so the result is exactly 1 or 0.
    private func semiJoin(_ condition: SQLExpression?, nilTest: SQLCondition?) -> SQLExpression? {
        guard hops.count >= 2, !hasNilPaths || nilTest?.isFalse == true else { return nil }
        // The FROM cut at each later step's first table: one FROM per step.
        var starts: [Int] = []
        for hop in hops.dropFirst() {
            guard let index = from.joins.firstIndex(where: { $0.alias == hop.firstAlias }), index >= (starts.last ?? -1) else { return nil }
            starts.append(index)
        }
        var segments = [SQLFrom(source: from.source, alias: from.alias, joins: Array(from.joins[..<starts[0]]))]
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] : from.joins.endIndex
            let first = from.joins[start]
            segments.append(SQLFrom(table: first.table, alias: first.alias, joins: Array(from.joins[(start + 1)..<end])))
        }
        // Each step's joins read only that step's rows (the walk joins each to the row before it).
        for segment in segments {
            let aliases = Set([segment.alias].compactMap { $0 } + segment.joins.map(\.alias))
            guard segment.joins.allSatisfy({ $0.on.aliasesRead.isSubset(of: aliases) }) else { return nil }
        }
        let last = segments[segments.count - 1]
        if let condition {
            let lastAliases = Set([last.alias].compactMap { $0 } + last.joins.map(\.alias))
            guard condition.aliasesRead.isSubset(of: lastAliases.union(condition.aliasesIntroduced)) else { return nil }
        }
        let lastOwner = hops[hops.count - 1].ownerColumn
        // (A step's element test stands where its first table's join condition stood.)
        var owners = SQLSelect(columns: [lastOwner], from: last,
                               where: .and([.isNull(lastOwner, negated: true)] + [hops[hops.count - 1].elementTest].compactMap { $0 } + (condition.map { [$0] } ?? [])))
        for index in stride(from: hops.count - 2, through: 0, by: -1) {
            let hop = hops[index]
            owners = SQLSelect(columns: [hop.ownerColumn], from: segments[index],
                               where: .and([.isNull(hop.ownerColumn, negated: true)] + [hop.elementTest].compactMap { $0 }
                                           + [.inSubquery(hops[index + 1].ownerKey, owners)]))
        }
        let membership = SQLExpression.inSubquery(hops[0].ownerKey, owners)
        return hops[0].ownerKeyMayBeNull ? .and([.isNull(hops[0].ownerKey, negated: true), membership]) : membership
    }
}

/// One to-many step of a ``CollectionPath``: where its rows start in the FROM, and how they
/// name their owner (the row of the step before).
struct CollectionHop {
    /// The alias of the step's first table: the destination's (a to-many held by the
    /// destination's foreign key) or the join table's.
    var firstAlias: String
    /// In that table, the column holding the owner's key: `"t3"."PlaylistId"`, `"t3"."_owner"`.
    var ownerColumn: SQLExpression
    /// The owner's key it holds, on the owner's row: `"t2"."PlaylistId"`, `"t2"."_pk"`.
    var ownerKey: SQLExpression
    /// Whether the owner's key may be NULL (a to-one before it reached nil, or a key that is not
    /// the row key).
    var ownerKeyMayBeNull: Bool
    /// What else a row of the first table must pass to be an element (the destination's entity,
    /// where other entities' rows hold keys in the same column:
    /// ``SQLSchema/inverseEntityTest(column:destination:)``).
    var elementTest: SQLExpression? = nil
}
