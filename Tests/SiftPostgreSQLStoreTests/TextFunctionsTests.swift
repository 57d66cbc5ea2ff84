import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
@testable import SiftPostgreSQLStore
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// The text functions a PostgreSQL store installs (`PostgreSQLTextFunctions`) give, in the
/// server, exactly what the evaluator's Swift gives: every folded or case-mapped scalar alone and
/// between letters, and mixed text (marks that compose and marks that do not, Greek, ligatures,
/// Hangul, emoji, ASCII).
@Suite struct TextFunctionsTests {
    static let samples = [
        "", "abc", "ABC xyz", "Café", "CAFÉ", "Cafe\u{301}", "x\u{301}", "X\u{301}\u{323}", "straße", "STRASSE", "ẞ", "ΣΊΣΥΦΟΣ", "Σίσυφος", "ς",
        "ﬁle", "İstanbul", "ǅemal", "ᾳ", "ᾼ", "ŉ", "Åström", "Å", "ﬀ", "ǰ", "한국어", "日本語", "👍🏽 ok", "a\u{345}", "ΐ", "\u{301}", "e\u{301}\u{302}",
        "Ω", "K", "µ", "ÿ", "Ÿ", "İ", "ı", "ǈ", "Ⅻ", "ⓐⒶ", "𐐀𐐨", "Ꭰꭰ", "Ǆ", "ǲ",
    ]

    @Test func theServerPreparesTextAsTheEvaluatorDoes() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "textfunctions")
        defer { test.database.drop() }
        #expect(test.store.hasTextFunctions)
        let connection = try test.connect()
        // The functions' bodies are parsed in the calling session, whatever its settings.
        try connection.execute("SET standard_conforming_strings = off")

        // Every scalar some function maps, alone and inside ASCII, then the samples.
        var texts = Self.samples
        for value in UInt32(0x80)...0x1FFFF {
            guard let u = Unicode.Scalar(value), u.properties.generalCategory != .unassigned,
                  u.properties.changesWhenCaseFolded || u.properties.changesWhenLowercased || u.properties.changesWhenUppercased
                    || u.properties.generalCategory == .nonspacingMark else { continue }
            texts.append(String(u))
            texts.append("a" + String(u) + "B")
        }
        let options: [(String, (String) -> String)] = [
            ("sift_fold_c", { StringFolding.fold($0, options: [.caseInsensitive]) }),
            ("sift_fold_d", { StringFolding.fold($0, options: [.diacriticInsensitive]) }),
            ("sift_fold_cd", { StringFolding.fold($0, options: [.caseInsensitive, .diacriticInsensitive]) }),
            ("sift_lowercase", { StringFolding.nfc($0.lowercased()) }),
            ("sift_uppercase", { StringFolding.nfc($0.uppercased()) }),
        ]
        let literal = "{" + texts.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}"
        for (function, swift) in options {
            let rows = try connection.query("SELECT t, \(function)(t) FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n", [.text(literal)])
            #expect(rows.count == texts.count)
            var mismatches: [String] = []
            for (text, row) in zip(texts, rows) {
                let expected = swift(text)
                // Swift's == is canonical equivalence: compare the scalars.
                if row[1].stringValue.map({ Array($0.unicodeScalars) }) != Array(expected.unicodeScalars) {
                    mismatches.append("\(text.unicodeScalars.map { String($0.value, radix: 16) }): \(row[1].stringValue ?? "NULL") ≠ \(expected)")
                }
            }
            #expect(mismatches.isEmpty, "\(function): \(mismatches.prefix(20))")
        }
    }

    @Test func stringTestsWithOptionsRunInTheServer() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "preparedtests")
        defer { test.database.drop() }
        let store = test.store
        let reference = AtomicStore.inMemory(model: StoreTestModels.notes)
        for (index, title) in ["Café", "CAFE", "cafe\u{301}s", "x\u{301}y", "Straße", "", "\u{600}ab", "xay"].enumerated() {
            let values: [String: Value] = ["title": .string(title), "rank": .int(Int64(index))]
            try store.insert("Note", id: ObjectID("n\(index)"), values)
            try reference.insert("Note", id: ObjectID("n\(index)"), values)
        }
        try store.save()
        for statement in [
            "Note WHERE title ==[d] 'cafe'", "Note WHERE title BEGINSWITH[d] 'Cafe'", "Note WHERE lowercase:(title) CONTAINS 'straße'",
            "Note WHERE uppercase:(title) == 'STRASSE'", "Note WHERE canonical:(title) == 'cafes'", "Note WHERE title ENDSWITH[d] 'y'",
            "Note WHERE title <[d] 'Cafe'", "Note WHERE lowercase:(title) ENDSWITH[c] 'SSE'", "Note WHERE 'xyz' CONTAINS[d] title",
            "Note WHERE title IN[d] 'a cafe\u{301}s b'", "Note WHERE title >=[cd] lowercase:(title)",
            // LIKE: literals must begin and end on a Character boundary (x́ is one Character, and
            // U+0600 joins the letter after it).
            "Note WHERE title LIKE 'x*'", "Note WHERE title LIKE '*y'", "Note WHERE title LIKE '*ab'", "Note WHERE title LIKE '*a*'",
            "Note WHERE title LIKE[c] 'caf*'", "Note WHERE title LIKE[cd] '*e*'", "Note WHERE title LIKE 'Stra*e'",
            "Note WHERE title LIKE[d] '*e'", "Note WHERE title LIKE 'Caf*é'", "Note WHERE title LIKE '*'", "Note WHERE title LIKE[c] 'cafe'",
            "Note WHERE title LIKE '*.*'", "Note WHERE lowercase:(title) LIKE 'x*y'",
            // (And integer remainders: nil for a zero divisor, the dividend's sign.)
            "Note WHERE modulus:by:(rank, 2) == 1", "Note WHERE modulus:by:(rank, 0) == nil", "Note WHERE modulus:by:(-7, rank) == -1",
            "Note WHERE modulus:by:(-9223372036854775808, rank) == 0",
        ] {
            let request = try FetchRequest(statement: statement + " SORT BY rank")
            let generated = try store.generatedSQL(for: request)
            #expect(generated.inMemoryPredicate == nil, "\(statement): \(generated)")
            #expect(try store.fetch(request).objectIDs == (try reference.fetch(request).objectIDs), "\(statement)")
        }
        // A comparator's sort of a computed string: by its fold, in the server.
        let sorted = try store.generatedSQL(for: FetchRequest(statement: "Folder SORT BY notes.@min.title USING localizedCompare"))
        #expect(!sorted.sortsInMemory && sorted.sql.contains(#"sift_fold_cd((SELECT min("#), "\(sorted.sql)")
        // A pattern of too many stars runs in memory. (`?`: PatternTranslationTests.)
        #expect(try store.generatedSQL(for: FetchRequest(statement: "Note WHERE title LIKE '\(String(repeating: "a*", count: 40))'")).inMemoryPredicate != nil)
        let like = try store.generatedSQL(for: FetchRequest(statement: "Note WHERE title LIKE[c] 'a*b.'"))
        guard case .text(let regex)? = like.bindings.first else { Issue.record("\(like)"); return }
        #expect(like.sql.contains(#"sift_fold_c("t0"."title") ~ $1"#) && regex.hasPrefix(#"^a(?![\u0300-"#) && regex.hasSuffix(#"])b\.$"#), "\(like)")
        let generated = try store.generatedSQL(for: FetchRequest(statement: "Note WHERE title BEGINSWITH[d] title"))
        #expect(generated.sql.contains(#"sift_fold_d("t0"."title") <> '' AND starts_with(sift_fold_d("t0"."title"), sift_fold_d("t0"."title"))"#), "\(generated.sql)")
    }
}
