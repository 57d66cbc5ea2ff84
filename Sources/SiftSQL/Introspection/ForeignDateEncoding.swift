import Foundation
import SiftLanguage

/// How a database Sift did not create holds the numbers of a date column (one declared
/// `DATE`, `DATETIME`, `TIMESTAMP`, …). Text in such a column is always read as ISO 8601
/// (`2011-06-01 00:00:00`, `2011-06-01T00:00:00Z`, `2011-06-01`; no zone is UTC), whatever
/// the numbers are (docs/SQLITE-DATABASES.md).
package enum ForeignDateEncoding: String, Sendable, CaseIterable, Encodable {
    /// Core Data's: seconds since 2001-01-01 00:00:00 UTC (a Core Data store's `TIMESTAMP`).
    case referenceSeconds = "reference"
    /// Unix time: seconds since 1970-01-01 00:00:00 UTC.
    case unixSeconds = "unix"
    /// Unix time in milliseconds (JavaScript's `Date.now()`).
    case unixMilliseconds = "unixms"
    /// Julian day numbers, as SQLite's `julianday()` gives them.
    case julianDays = "julian"

    /// Seconds from 1970 to 2001.
    private static let unixToReference = 978_307_200.0
    /// The Julian day of 2001-01-01 00:00:00 UTC.
    private static let referenceJulianDay = 2_451_910.5

    /// The date a stored value stands for, as seconds since 2001-01-01 (how the evaluator's
    /// dates are stored); nil for a value that is no date (text that is not ISO 8601, a blob).
    package func referenceSeconds(of stored: SQLValue) -> Double? {
        switch stored {
        case .integer(let i): return referenceSeconds(Double(i))
        case .real(let d): return d.isFinite ? referenceSeconds(d) : nil
        case .text(let text): return ISO8601.date(from: text)?.timeIntervalSinceReferenceDate
        case .null, .blob: return nil
        }
    }

    private func referenceSeconds(_ number: Double) -> Double {
        switch self {
        case .referenceSeconds: number
        case .unixSeconds: number - Self.unixToReference
        case .unixMilliseconds: number / 1000 - Self.unixToReference
        case .julianDays: (number - Self.referenceJulianDay) * 86_400
        }
    }

    /// The encoding numbers between `low` and `high` most likely use, for a database that is
    /// not a Core Data store: Julian days (years 763 to 2953) or Unix seconds, or milliseconds
    /// when every number is beyond the year 5138 in seconds.
    package static func guess(low: Double, high: Double) -> ForeignDateEncoding {
        if low >= 2_000_000, high <= 2_800_000 { return .julianDays }
        if low >= 100_000_000_000 { return .unixMilliseconds }
        return .unixSeconds
    }

    /// How `sift schema` names it.
    package var summary: String {
        switch self {
        case .referenceSeconds: "seconds since 2001 (Core Data)"
        case .unixSeconds: "Unix seconds"
        case .unixMilliseconds: "Unix milliseconds"
        case .julianDays: "Julian days"
        }
    }
}
