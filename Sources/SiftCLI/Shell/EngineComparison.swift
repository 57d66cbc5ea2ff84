import Foundation
import Sift

/// One engine a fetch runs on: the SQLite store's SQL (`sql`) or the in-memory evaluator
/// (`memory`), with the store that runs it.
struct Engine {
    let name: String
    let store: any PersistentStore
}

/// `.engine both`: the same fetch run by two engines over the same objects, compared result by
/// result — the differential check, in the user's hands.
///
///     engines agree: 3 rows
///     engines differ at row 2 (sql 3 rows, memory 3 rows):
///       sql:    {"@entity":"Note","@id":"N2",…}
///       memory: {"@entity":"Note","@id":"N4",…}
enum EngineComparison {
    /// What an engine made of a fetch: its results as text, or its error.
    enum Outcome {
        case results(Results)
        case failed(String)
    }

    /// A fetch's results as lines that are equal exactly when the results are: each object (its
    /// entity, ID, attributes and relationships), dictionary or object ID as JSON, a count as
    /// `count N`, and each section as a `section "NAME"` line before its objects.
    struct Results {
        var lines: [String] = []
        /// What the results are, in words: `3 rows`, `count 5`, `2 sections, 5 rows`.
        var summary = ""
    }

    static func outcome(of request: FetchRequest, on store: any PersistentStore) -> Outcome {
        do {
            return .results(try results(of: request, on: store))
        } catch {
            return .failed(Session.message(of: error))
        }
    }

    static func results(of request: FetchRequest, on store: any PersistentStore) throws -> Results {
        var results = Results()
        // Objects are compared whole: every relationship's destination IDs.
        let shown = ObjectOutput(relationships: .ids)
        if request.sectionNameKeyPath != nil && request.resultType == .objects {
            let sections = try store.fetchSections(request).sections
            var rows = 0
            for section in sections {
                results.lines.append("section " + JSONWriter.string(.string(section.name)))
                for object in section.objects {
                    results.lines.append(JSONWriter.string(shown.value(of: object, model: store.model)))
                    rows += 1
                }
            }
            results.summary = "\(counted(sections.count, "section")), \(counted(rows, "row"))"
            return results
        }
        switch try store.execute(request) {
        case .objects(let objects):
            for object in objects { results.lines.append(JSONWriter.string(shown.value(of: object, model: store.model))) }
        case .dictionaries(let rows):
            for row in rows { results.lines.append(JSONWriter.string(StoredObjectJSON.value(of: row))) }
        case .objectIDs(let ids):
            for id in ids { results.lines.append(JSONWriter.string(.string(id.rawValue))) }
        case .count(let n):
            results.lines = ["count \(n)"]
            results.summary = "count \(n)"
            return results
        }
        results.summary = counted(results.lines.count, "row")
        return results
    }

    /// Compares two engines' outcomes: whether they agree, and the line that says so or shows
    /// the first difference.
    static func compare(_ first: (name: String, outcome: Outcome), _ second: (name: String, outcome: Outcome)) -> (agree: Bool, message: String) {
        switch (first.outcome, second.outcome) {
        case (.failed(let a), .failed(let b)):
            if a == b { return (true, "engines agree: both fail") }
            return (false, "engines differ: \(first.name) fails (\(a)); \(second.name) fails (\(b))")
        case (.failed(let a), .results(let b)):
            return (false, "engines differ: \(first.name) fails (\(a)); \(second.name) returns \(b.summary)")
        case (.results(let a), .failed(let b)):
            return (false, "engines differ: \(first.name) returns \(a.summary); \(second.name) fails (\(b))")
        case (.results(let a), .results(let b)):
            let common = min(a.lines.count, b.lines.count)
            guard let row = (0..<common).first(where: { a.lines[$0] != b.lines[$0] }) ?? (a.lines.count == b.lines.count ? nil : common) else {
                return (true, "engines agree: \(a.summary)")
            }
            let width = max(first.name.count, second.name.count) + 1
            func line(_ name: String, _ lines: [String]) -> String {
                "  " + (name + ":").padding(toLength: width, withPad: " ", startingAt: 0) + " " + (lines.indices.contains(row) ? lines[row] : "(no row)")
            }
            return (false, "engines differ at row \(row + 1) (\(first.name) \(a.summary), \(second.name) \(b.summary)):\n"
                + line(first.name, a.lines) + "\n" + line(second.name, b.lines))
        }
    }

    private static func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
