import ArgumentParser
import Foundation
import Sift

/// Printing the SQL of a fetch and SQLite's plan for it (`sift sql`, `sift explain`).
enum GeneratedSQLOutput {
    /// The SQL a request runs on `store`; an error (an unknown entity, a bad key path) is printed
    /// as `error: ...` and exits 1.
    static func generated(_ store: any SQLShowingStore, _ request: FetchRequest) throws -> GeneratedSQL {
        do {
            return try store.generatedSQL(for: request)
        } catch {
            Output.error("error: \(message(error))")
            throw ExitCode(1)
        }
    }

    /// The SQL of a fetch as the REPL's `.sql on` prints it. SQLite's: each query with its
    /// values written in as literals and a `;` (``GeneratedSQL/inlinedDescription``), so it
    /// can be pasted into `sqlite3` as it is; when it calls Sift's own functions, a last line
    /// says that sqlite3 cannot run it:
    ///
    ///     SELECT count(*) FROM "Track" AS "t0" WHERE "t0"."Milliseconds" > 300000;
    ///
    /// PostgreSQL's as `sift sql` prints it (`$N` placeholders and their values).
    static func shown(_ generated: GeneratedSQL) -> String {
        guard generated.placeholderPrefix == "?" else { return generated.description }
        var text = generated.inlinedDescription
        let functions = generated.siftFunctions
        if !functions.isEmpty {
            text += "\n-- calls Sift's \(functions.joined(separator: ", ")): sqlite3 cannot run it"
        }
        return text
    }

    /// An error's message as the CLI prints it.
    static func message(_ error: any Error) -> String {
        ErrorText.message(of: error)
    }

    /// Plan lines indented two spaces per level, drawn as sqlite3's `.eqp` tree:
    ///
    ///     |--SCAN t0
    ///     `--CORRELATED SCALAR SUBQUERY 1
    ///        `--SEARCH t1 USING INDEX ...
    static func tree(_ lines: [String]) -> String {
        let steps = lines.map { line -> (depth: Int, text: String) in
            let spaces = line.prefix { $0 == " " }.count
            return (spaces / 2, String(line.dropFirst(spaces)))
        }
        /// Whether another step at `depth` follows `index` before the tree climbs above it.
        func hasLaterSibling(_ index: Int, depth: Int) -> Bool {
            var next = index + 1
            while next < steps.count {
                if steps[next].depth == depth { return true }
                if steps[next].depth < depth { return false }
                next += 1
            }
            return false
        }
        var out = ""
        var ancestorsContinue: [Bool] = []
        for (index, step) in steps.enumerated() {
            ancestorsContinue = Array(ancestorsContinue.prefix(step.depth))
            while ancestorsContinue.count < step.depth { ancestorsContinue.append(false) }
            let more = hasLaterSibling(index, depth: step.depth)
            out += ancestorsContinue.map { $0 ? "|  " : "   " }.joined() + (more ? "|--" : "`--") + step.text + "\n"
            ancestorsContinue.append(more)
        }
        return out
    }
}
