import ArgumentParser

/// `--relationships` (and the REPL's `.relationships`): how printed objects show their
/// to-many relationships. A to-one relationship is always its destination's ID (or null),
/// except with `none`.
enum RelationshipDetail: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Each to-many relationship as its number of destinations (`"tracks": 1297`), counted a
    /// batch at a time, never read object by object.
    case counts
    /// Each to-many relationship as the array of its destinations' IDs, prefetched a batch at
    /// a time.
    case ids
    /// No relationships: only `@entity`, `@id` and attributes.
    case none
}
