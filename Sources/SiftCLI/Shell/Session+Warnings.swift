import Foundation
import Sift

/// Warnings (``FetchWarning``) as a session prints them, before the results and as its errors
/// are printed, without counting as failures: interactively the statement, a caret under the
/// comparison and `warning: column N: …`; in a script `FILE:LINE:COLUMN: warning: …` and the
/// line with the caret after it.
extension Session {
    /// Prints the warnings of a fetch (none when it is in error: the fetch reports that).
    func warn(about request: FetchRequest, on store: any PersistentStore) {
        guard let warnings = try? store.warnings(for: request) else { return }
        for warning in warnings { output.message(text(of: warning)) }
    }

    /// Prints the warnings of a change statement's predicate.
    func warn(about predicate: PredicateNode?, entity: String, on store: any PersistentStore) {
        guard let predicate else { return }
        warn(about: FetchRequest(entityName: entity, predicate: predicate), on: store)
    }

    private func text(of warning: FetchWarning) -> String {
        // The statement the warning's range is in (not a JSON request's own texts).
        guard let (statement, location) = statementBeingRun, let column = warning.column(in: statement) else {
            return sourceName.map { "\($0): warning: \(warning)" } ?? "warning: \(warning)"
        }
        func caret(_ column: Int) -> String { String(repeating: " ", count: max(0, column - 1)) + "^" }
        guard let name = sourceName else {
            if let location, location.texts.count > 1 {
                // A statement typed over several lines: the line the comparison is on, and where.
                let (line, lineColumn) = location.position(ofColumn: column)
                let index = location.lines.firstIndex(of: line) ?? 0
                return location.texts[index] + "\n" + caret(lineColumn) + "\nwarning: line \(index + 1), column \(lineColumn): \(warning)"
            }
            return WarningText.rendered(warning, source: statement)
        }
        let (line, lineColumn) = location?.position(ofColumn: column) ?? (0, column)
        var text = "\(name):\(line):\(lineColumn): warning: \(warning)"
        if let location, let index = location.lines.firstIndex(of: line), location.texts.indices.contains(index) {
            text += "\n" + location.texts[index] + "\n" + caret(lineColumn)
        }
        return text
    }
}
