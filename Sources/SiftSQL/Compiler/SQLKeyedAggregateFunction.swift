/// The aggregates `sift_group_sum`, `sift_group_average`, `sift_group_min`, `sift_group_max`,
/// `sift_group_median`, `sift_group_mode` and `sift_group_stddev`, by name: the compiler calls
/// them over a to-many collection or a group, in key order; SQLite's store registers them
/// (`SiftKeyedAggregate`).
package enum SQLKeyedAggregateFunction: String, CaseIterable, Sendable {
    case sum = "sift_group_sum"
    case average = "sift_group_average"
    case min = "sift_group_min"
    case max = "sift_group_max"
    case median = "sift_group_median"
    case mode = "sift_group_mode"
    case standardDeviation = "sift_group_stddev"
}
