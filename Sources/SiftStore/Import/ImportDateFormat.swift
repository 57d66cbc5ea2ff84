import Foundation

/// How an import reads dates written as text that is not ISO 8601: a `DateFormatter` pattern
/// (Unicode date field symbols: `dd/MM/yyyy`, `MM-dd-yyyy HH:mm`, `d MMM yyyy`), read in UTC
/// with the POSIX locale (English month names), strictly: the whole text must fit the pattern
/// and name a real date.
///
///     let format = try ImportDateFormat("dd/MM/yyyy")
///     try StoreImporter.importCSV(data, entity: "Person", into: store, options: ImportOptions(dateFormat: format))
public struct ImportDateFormat: Sendable, Hashable {
    /// The pattern, as given.
    public let pattern: String

    /// A pattern that formats and reads back a date; an empty one, or one with no date fields
    /// (`"hello"`), is an error.
    public init(_ pattern: String) throws(StoreError) {
        self.pattern = pattern
        let parser = Parser(self)
        // A pattern of date fields writes a date and reads it back; one of literal text alone
        // reads nothing back but the start of 1970 (or nothing at all).
        let probe = Date(timeIntervalSince1970: 1_234_567_890)
        let text = parser.formatter.string(from: probe)
        guard !pattern.isEmpty, let read = parser.date(from: text),
              read.timeIntervalSince1970 != 0 || parser.formatter.string(from: Date(timeIntervalSince1970: 0)) != text else {
            throw StoreError(.invalidRequest, "'\(pattern)' is not a date format: write one with DateFormatter's fields, such as dd/MM/yyyy or MM-dd-yyyy HH:mm")
        }
    }

    /// Reads dates in a format; made on the thread that uses it (a formatter is not shared).
    final class Parser {
        let formatter: DateFormatter

        init(_ format: ImportDateFormat) {
            formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.dateFormat = format.pattern
            formatter.isLenient = false
        }

        /// The date `text` writes in the format, or nil.
        func date(from text: String) -> Date? {
            formatter.date(from: text.trimmingCharacters(in: .whitespaces))
        }
    }
}
