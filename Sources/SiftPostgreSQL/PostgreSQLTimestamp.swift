/// A `timestamptz` as PostgreSQL keeps it: microseconds since 2000-01-01 00:00:00 UTC, with the
/// largest and smallest values standing for `infinity` and `-infinity`.
///
/// Sent and received in binary, so no date style or time zone setting of the session changes it.
/// A `timestamp` (without time zone) column reads as the same count, its wall-clock time taken as
/// UTC.
public struct PostgreSQLTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 2000-01-01 00:00:00 UTC.
    public var microsecondsSince2000: Int64

    public init(microsecondsSince2000: Int64) {
        self.microsecondsSince2000 = microsecondsSince2000
    }

    /// The seconds between 1970-01-01 and 2000-01-01, both UTC.
    static let secondsFrom1970To2000: Int64 = 946_684_800

    /// The instant `seconds` after 1970-01-01 00:00:00 UTC, to the nearest microsecond; NaN and
    /// values beyond PostgreSQL's range become `±infinity`.
    public init(secondsSince1970 seconds: Double) {
        let microseconds = ((seconds - Double(Self.secondsFrom1970To2000)) * 1_000_000).rounded()
        if microseconds.isNaN {
            self = .infinity
        } else if let exact = Int64(exactly: microseconds) {
            self.init(microsecondsSince2000: exact)
        } else {
            self = microseconds > 0 ? .infinity : .negativeInfinity
        }
    }

    /// Seconds since 1970-01-01 00:00:00 UTC (`±infinity` for the infinite timestamps).
    public var secondsSince1970: Double {
        if self == .infinity { return .infinity }
        if self == .negativeInfinity { return -.infinity }
        return Double(microsecondsSince2000) / 1_000_000 + Double(Self.secondsFrom1970To2000)
    }

    /// `'infinity'::timestamptz`.
    public static let infinity = PostgreSQLTimestamp(microsecondsSince2000: .max)
    /// `'-infinity'::timestamptz`.
    public static let negativeInfinity = PostgreSQLTimestamp(microsecondsSince2000: .min)

    public static func < (lhs: PostgreSQLTimestamp, rhs: PostgreSQLTimestamp) -> Bool {
        lhs.microsecondsSince2000 < rhs.microsecondsSince2000
    }

    public var description: String { "timestamptz(\(microsecondsSince2000) µs since 2000)" }
}
