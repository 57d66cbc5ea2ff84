import Foundation
import Sift

/// Warnings (``FetchWarning``) as `sift` prints them on standard error, before the results, as
/// parse errors are printed: the statement on one line, a caret under the comparison, and
///
///     warning: column 13: Artist == 3 is always false: …; did you mean Artist.ArtistId == 3?
///
/// A warning changes neither the results nor the exit status.
enum WarningText {
    /// The warning with `source` (the text its clause was parsed from) and a caret, or
    /// `warning: message` without a source or a range.
    static func rendered(_ warning: FetchWarning, source: String?) -> String {
        guard let source, let column = warning.column(in: source) else { return "warning: \(warning)" }
        let (line, caretColumn) = DiagnosticWindow.excerpt(source, column: column)
        return "\(line)\n\(String(repeating: " ", count: max(0, caretColumn - 1)))^\nwarning: column \(column): \(warning)"
    }

    /// The warnings of a request on a store, printed on standard error; none when the request
    /// is in error (the fetch reports it). `source` is the statement's text (nil for a JSON
    /// request, whose clauses are texts of their own: the warnings are printed after `FILE: `).
    static func print(_ request: FetchRequest, on store: any PersistentStore, source: String?, file: String? = nil) {
        guard let warnings = try? store.warnings(for: request) else { return }
        for warning in warnings {
            if let file {
                Output.error("warning: \(file): \(warning)")
            } else {
                Output.error(rendered(warning, source: source))
            }
        }
    }
}
