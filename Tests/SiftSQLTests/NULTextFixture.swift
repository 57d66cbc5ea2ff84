import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Text holding U+0000 (issue 29 §1), on data made to catch a C string in SQL (shared by the
/// SQLite and PostgreSQL tests): SQLite's `length`, `substr`, `LIKE` and `GLOB` stop at the
/// first NUL of a text (`instr`, `=`, `<` and the collations do not), so a test written with
/// them answers differently from the evaluator, which compares all of the text's bytes.
///
/// Items have a searchable `name` (read from its folded columns under `[c]`/`[cd]`) and a plain
/// `title`, both holding NULs at the start, in the middle and at the end, several, none, in
/// case and diacritic variants; boxes hold items (box b3 none). Every statement is written for
/// both keys (``statements``).
enum NULTextFixture {
    static let json = #"""
    {"name": "NULText", "entities": [
      {"name": "Item",
       "attributes": [{"name": "name", "type": "String", "searchable": true}, {"name": "title", "type": "String"},
                      {"name": "rank", "type": "Integer 64"}],
       "relationships": [{"name": "box", "destination": "Box", "inverse": "items"}]},
      {"name": "Box",
       "attributes": [{"name": "label", "type": "String", "optional": false}],
       "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "box"}]}
    ]}
    """#

    static func model() throws -> DataModel { try JSONModelFormat.read(Data(json.utf8)) }

    /// The items' texts (nil: no value), each item's name and title alike.
    static let texts: [String?] = [
        "a\u{0}b", "a\u{0}", "\u{0}", "ab", "b", "A\u{0}B", "\u{E9}\u{0}\u{C9}", "a", nil, "x\u{0}a\u{0}b", "\u{0}b",
        "e\u{0}e", "a\u{0}\u{0}", "ba\u{0}b", "a\u{0}bc",
    ]

    /// Which box each item is in (nil: none).
    static let boxes: [Int?] = [0, 0, 1, 0, 1, 2, 2, 4, 4, 2, 1, nil, 0, 3, nil]

    /// The same objects in any store; `withNUL: false` writes each text without its NULs (a
    /// PostgreSQL store refuses them).
    static func fill(_ store: any PersistentStore, withNUL: Bool = true) throws {
        for b in 0..<5 { try store.insert("Box", id: ObjectID("b\(b)"), ["label": .string("Box \(b)")]) }
        for (i, text) in texts.enumerated() {
            var attributes: [String: Value] = ["rank": .int(Int64(i % 4))]
            if let text {
                let stored = withNUL ? text : text.replacingOccurrences(of: "\u{0}", with: "")
                attributes["name"] = .string(stored)
                attributes["title"] = .string(stored)
            }
            let relationships: [String: [ObjectID]] = boxes[i].map { ["box": [ObjectID("b\($0)")]] } ?? [:]
            try store.insert("Item", id: ObjectID("i\(i)"), attributes, relationships: relationships)
        }
        try store.save()
    }

    /// The statements, `KEY` standing for the key (`name` or `title`); each sorts, so that results
    /// compare in order.
    static let templates: [String] = [
        // ENDSWITH: substr(x, -n) stopped at the first NUL.
        #"Item WHERE KEY ENDSWITH "b" SORT BY rank, KEY"#,
        #"Item WHERE KEY ENDSWITH "\0b" SORT BY rank, KEY"#,
        #"Item WHERE KEY ENDSWITH "\0" SORT BY rank, KEY"#,
        #"Item WHERE KEY ENDSWITH "a\0b" SORT BY rank, KEY"#,
        #"Item WHERE KEY ENDSWITH[c] "B" SORT BY rank, KEY"#,
        #"Item WHERE KEY ENDSWITH[cd] "É" SORT BY rank, KEY"#,
        #"Item WHERE KEY ENDSWITH[d] "\0e" SORT BY rank, KEY"#,
        #"Item WHERE KEY ENDSWITH[n] "b" SORT BY rank, KEY"#,
        #"Item WHERE NOT KEY ENDSWITH "b" SORT BY rank, KEY"#,
        #"Item WHERE KEY ENDSWITH KEY SORT BY rank, KEY"#,
        // BEGINSWITH (a range), CONTAINS (instr), equality and order.
        #"Item WHERE KEY BEGINSWITH "a\0" SORT BY rank, KEY"#,
        #"Item WHERE KEY BEGINSWITH "\0" SORT BY rank, KEY"#,
        #"Item WHERE KEY BEGINSWITH[c] "A\0B" SORT BY rank, KEY"#,
        #"Item WHERE KEY BEGINSWITH[cd] "E\0" SORT BY rank, KEY"#,
        #"Item WHERE KEY CONTAINS "\0" SORT BY rank, KEY"#,
        #"Item WHERE KEY CONTAINS "\0b" SORT BY rank, KEY"#,
        #"Item WHERE KEY CONTAINS[cd] "\0É" SORT BY rank, KEY"#,
        #"Item WHERE "xa\0bc" CONTAINS KEY SORT BY rank, KEY"#,
        #"Item WHERE "\0" IN KEY SORT BY rank, KEY"#,
        #"Item WHERE KEY == "a\0b" SORT BY rank, KEY"#,
        #"Item WHERE KEY != "a\0" SORT BY rank, KEY"#,
        #"Item WHERE KEY ==[c] "A\0b" SORT BY rank, KEY"#,
        #"Item WHERE KEY ==[cd] "E\0E" SORT BY rank, KEY"#,
        #"Item WHERE KEY < "a\0b" SORT BY rank, KEY"#,
        #"Item WHERE KEY >= "a\0" SORT BY rank, KEY"#,
        #"Item WHERE KEY <[c] "A\0C" SORT BY rank, KEY"#,
        #"Item WHERE KEY IN {"a\0", "\0", "b"} SORT BY rank, KEY"#,
        #"Item WHERE KEY IN[c] {"A\0b", "x"} SORT BY rank, KEY"#,
        #"Item WHERE KEY BETWEEN {"a", "a\0z"} SORT BY rank, KEY"#,
        // LIKE and MATCHES: `?` is one character, NUL too.
        #"Item WHERE KEY LIKE "a*b" SORT BY rank, KEY"#,
        #"Item WHERE KEY LIKE "a?b" SORT BY rank, KEY"#,
        #"Item WHERE KEY LIKE "*b" SORT BY rank, KEY"#,
        #"Item WHERE KEY LIKE "??" SORT BY rank, KEY"#,
        #"Item WHERE KEY LIKE "*\0*" SORT BY rank, KEY"#,
        #"Item WHERE KEY LIKE "a\0" SORT BY rank, KEY"#,
        #"Item WHERE KEY LIKE[c] "A?B" SORT BY rank, KEY"#,
        #"Item WHERE KEY LIKE[cd] "?\0E" SORT BY rank, KEY"#,
        #"Item WHERE KEY MATCHES "a.b" SORT BY rank, KEY"#,
        #"Item WHERE KEY MATCHES ".*b" SORT BY rank, KEY"#,
        #"Item WHERE KEY MATCHES "a\\x00.*" SORT BY rank, KEY"#,
        #"Item WHERE KEY MATCHES[c] "a.B" SORT BY rank, KEY"#,
        // Case mappings and casts of NUL text.
        #"Item WHERE uppercase:(KEY) ENDSWITH "\0B" SORT BY rank, KEY"#,
        #"Item WHERE lowercase:(KEY) == "a\0b" SORT BY rank, KEY"#,
        #"Item WHERE canonical:(KEY) ENDSWITH "\0e" SORT BY rank, KEY"#,
        #"Item WHERE CAST(KEY, "NSString") ENDSWITH "b" SORT BY rank, KEY"#,
        // Sorts: code-point order (NUL first), and the comparators.
        #"Item SORT BY KEY, rank"#,
        #"Item SORT BY KEY DESC, rank"#,
        #"Item SORT BY KEY USING caseInsensitiveCompare, rank"#,
        #"Item SORT BY KEY USING localizedCompare, rank"#,
        #"Item SORT BY KEY USING localizedStandardCompare, rank"#,
        // Nested: qualifiers, SUBQUERY, collection operators, grouping and HAVING.
        #"Box WHERE ANY items.KEY ENDSWITH "b" SORT BY label"#,
        #"Box WHERE ALL items.KEY ENDSWITH "\0" SORT BY label"#,
        #"Box WHERE NONE items.KEY LIKE "*b" SORT BY label"#,
        #"Box WHERE items.KEY ENDSWITH[cd] "e" SORT BY label"#,
        #"Box WHERE SUBQUERY(items, $i, $i.KEY ENDSWITH "b").@count >= 2 SORT BY label"#,
        #"Box WHERE SUBQUERY(items, $i, $i.KEY MATCHES "a.*" AND $i.KEY CONTAINS "\0").@count > 0 SORT BY label"#,
        #"Box WHERE SUBQUERY(items, $i, SUBQUERY($i.box.items, $j, $j.KEY ENDSWITH[c] "\0B").@count > 0).@count > 0 SORT BY label"#,
        #"Box WHERE items.@max.KEY == "b" SORT BY label"#,
        #"Box WHERE items.@min.KEY ENDSWITH "\0" SORT BY label"#,
        #"Box WHERE max:(items.KEY) LIKE "*b" SORT BY label"#,
        #"Item WHERE box.items.KEY CONTAINS "a\0" SORT BY rank, KEY"#,
        #"Item WHERE KEY IN box.items.KEY SORT BY rank, KEY"#,
        #"SELECT KEY AS k, count:(rank) AS n FROM Item GROUP BY KEY SORT BY k"#,
        #"SELECT KEY AS k, count:(rank) AS n FROM Item GROUP BY KEY HAVING k ENDSWITH "b" SORT BY k"#,
        #"SELECT rank, max:(KEY) AS top, min:(KEY) AS bottom FROM Item GROUP BY rank HAVING top ENDSWITH "b" OR bottom LIKE "?" SORT BY rank"#,
        #"SELECT KEY AS k, rank FROM Item WHERE KEY ENDSWITH "b" SORT BY k, rank"#,
    ]

    /// Every statement, for `name` (searchable) and `title`.
    static let statements: [String] = ["name", "title"].flatMap { key in templates.map { $0.replacingOccurrences(of: "KEY", with: key) } }

    /// A result as text, to compare stores: object IDs in order, or rows (NUL written `\0`).
    static func text(_ result: FetchResult) -> String {
        switch result {
        case .objects(let objects): return objects.map { $0.objectID.rawValue }.joined(separator: " ")
        case .objectIDs(let ids): return ids.map(\.rawValue).joined(separator: " ")
        case .dictionaries(let rows):
            return rows.map { row in
                row.pairs.map { "\($0.0)=\(ValueText.text($0.1).replacingOccurrences(of: "\u{0}", with: "\\0"))" }.joined(separator: " ")
            }.joined(separator: "\n")
        case .count(let n): return "count \(n)"
        }
    }
}
