import Foundation
import Sift

/// How results look: `.mode`, `.headers`, `.nullvalue`, `.relationships`.
extension DotCommands {
    static let outputCommands: [DotCommand] = [
        DotCommand(
            name: "mode", usage: ".mode table|box|line|json|jsonl|csv|markdown", summary: "Choose how results are printed",
            details: "table: aligned columns (numbers right-aligned) and a '(N rows)' footer; box: the same with box-drawing lines; line: one 'key = value' line per column, a blank line between records; json: an array; jsonl: one record a line; csv: RFC 4180 with a header row; markdown: a GitHub Markdown table. Sections print as headed groups. Widths count terminal cells (wide characters and emoji take two); on a terminal, a table wider than it prints as vertical records (.x), and colour is used unless NO_COLOR is set. Numbers are never cut, Markdown never at all.",
            example: ".mode box"
        ) { session, words in
            guard words.count == 1, let mode = SessionSettings.Mode(rawValue: words[0].lowercased()) else {
                if let word = words.first, let suggestion = Suggestions.closest(to: word.lowercased(), in: SessionSettings.Mode.allCases.map(\.rawValue)) {
                    throw SessionError("unknown mode '\(word)'; did you mean '\(suggestion)'?")
                }
                throw usage("mode")
            }
            session.settings.mode = mode
        },
        DotCommand(
            name: "headers", usage: ".headers on|off", summary: "Show column headings in table, box, csv and markdown modes",
            example: ".headers off"
        ) { session, words in
            session.settings.headers = try flag(words, "headers")
        },
        DotCommand(
            name: "nullvalue", usage: ".nullvalue TEXT", summary: "Show nil values as TEXT in table, box, line and markdown modes (empty at first)",
            example: ".nullvalue NULL"
        ) { session, words in
            guard words.count <= 1 else { throw usage("nullvalue") }
            session.settings.nullValue = words.first ?? ""
        },
        DotCommand(
            name: "relationships", usage: ".relationships counts|ids|none", summary: "Show objects' to-many relationships as counts (at first), ID lists or not at all",
            details: "counts: each to-many relationship as its number of destinations; ids: as the array of their IDs; none: no relationships. A to-one relationship is its destination's ID (or nil) unless none. Both are read a batch of objects at a time.",
            example: ".relationships ids"
        ) { session, words in
            guard words.count == 1, let detail = RelationshipDetail(rawValue: words[0].lowercased()) else {
                if let word = words.first, let suggestion = Suggestions.closest(to: word.lowercased(), in: RelationshipDetail.allCases.map(\.rawValue)) {
                    throw SessionError("unknown relationships setting '\(word)'; did you mean '\(suggestion)'?")
                }
                throw usage("relationships")
            }
            session.settings.relationships = detail
        },
    ]
}
