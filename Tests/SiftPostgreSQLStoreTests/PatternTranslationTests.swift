import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
@testable import SiftPostgreSQLStore
@testable import SiftSQL
@testable import SiftSQLStore
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// LIKE with `?` and MATCHES in the server (``LikeRegex/clusterRegex(_:)``, ``MatchesRegex``):
/// tables of patterns × texts (combining marks, Hangul, emoji ZWJ sequences, flags, Devanagari
/// conjuncts, CR LF, Prepend, controls) where PostgreSQL's answer must be the evaluator's — the
/// regular expressions themselves on every text, and whole fetches through the store.
@Suite struct PatternTranslationTests {
    static let texts = [
        "", "a", "ab", "abc", "aXc", "Zebra", "zebra", "Ze?ra", "a?b", "a*b", "a\\b", "caf\u{E9}", "cafe\u{301}", "CAF\u{C9}", "x\u{301}",
        "x\u{301}\u{302}", "x\u{301}y", "\u{C5}", "A\u{30A}", "straße", "STRASSE", "ß", "ǅemal", "Σίσυφος", "ς", "İstanbul", "ﬁle", "日本",
        "한", "한국", "\u{1100}\u{1161}", "\u{1100}\u{1161}\u{11A8}", "😀", "a😀b", "👍🏽", "👨‍👩‍👧", "🇫🇷", "🇫🇷🇩🇪", "a\u{200D}", "a\u{200D}b",
        "\u{915}\u{94D}\u{937}", "\u{915}\u{94D}", "\u{915}\u{93F}", "\u{928}\u{92E}\u{938}\u{94D}\u{924}\u{947}", "\u{915}\u{903}", "\u{995}\u{9CD}\u{9B7}",
        "\r\n", "a\r\nb", "a\rb", "a\nb", "\n", "\t", "a\tb", "\u{600}a", "a\u{600}", "\u{301}", "\u{301}a", "a\n\u{301}", "a\u{FE0F}",
        "a\u{E0041}", "\u{2028}", "x y", " lead", "100%", "a.b", "a\nb\nc", "aaa", "aaaa", "\u{1F3FB}", "\u{17F}", "\u{17F}tra\u{DF}e", "k", "K", "\u{212A}", "ABC", "aBc", "Caf\u{E9}", "123", "\u{661}\u{662}", "a1_b", "x\u{A0}y", "\u{FF11}x",
    ]

    static let likePatterns = [
        "?", "??", "???", "????", "a?", "?b", "*?", "?*", "*?*", "x?", "?\u{301}", "e?", "??*", "*??", "a?c", "*?b", "a*?", "?*?",
        "\\??", "Ze?ra", "\u{915}?", "?\u{915}", "\u{928}*?", "*\u{947}", "a\n?", "a?b", "?\n?", "caf?", "?af?", "*\u{301}?", "*x?",
        "\u{1100}?", "?😀?", "*?\u{E9}", "ca*?", "S?*", "?ß", "?\u{E0041}", "a\u{FE0F}?", "?\t?",
        // No `?`, but literals LikeRegex.regex does not take.
        "👍🏽*", "*😀*", "*한*", "\u{915}*", "*\u{915}\u{93F}", "x\u{301}*", "*\u{928}*\u{947}", "a\n*",
    ]

    static let matchesPatterns = [
        "", ".*", "a.*", ".*[bB].*", "[a-z]+", "caf.", "stra(ss|ß)e", ".?", "a|b", "[^a]*", #".*\\.*"#, ".*%.*", ".{3}", ".*\u{E9}.*",
        "abc", "a.c", "a\\.b", "a{2,3}", "a{3}", "(ab|a)*", "x.", "x..", "..", ".", "\\n", "a\\nb", ".*\\n.*", "[^\\n]*", "(?:a|b)+c?",
        "Ze.ra", "[A-Z][a-z]+", "[\\x{E0}-\\x{FF}]", "caf\u{E9}", "cafe\u{301}", "a\\x{301}", "x\u{301}", ".\\x{301}", "[^a-z]+", "日.",
        "a?b?c?", "a*?", "[]a]*", "[-a]*", ".*?", "\\x{1F600}", "a|", "(a)(b)?c*", "k", "[j-l]", "[^j-l]", "s.*", ".*S.*", "[r-t]tra.*",
        "ABC", "[a-c]+", "[^a-c]+", "\\x{4B}", "\\d+", "\\w+", "\\s", "\\p{L}+", "\\W*", "\\S+", "\\P{L}*", "a\\sb", "\\p{Nd}\\D", "[[:alpha:]]*", "[\\d_]+", "[^[:space:]]+", "[[:^alpha:]x]+", "[[:punct:]]", "[[:upper:]][[:lower:]]+", "(?i)abc", "(?i)s.*", "(?i)[j-l]",
    ]

    static let options: [ComparisonOptions] = [[], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive], [.normalized]]

    /// The array literal of `texts`, for `unnest($1::text[])`.
    static func arrayLiteral(_ texts: [String]) -> String {
        "{" + texts.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}"
    }

    /// Whether the server's `~` holds for each text.
    static func serverMatches(_ connection: PostgreSQLConnection, _ texts: [String], _ regex: String) throws -> [Bool] {
        let rows = try connection.query("SELECT t ~ $2 FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n",
                                        [.text(arrayLiteral(texts)), .text(regex)])
        return rows.map { row in
            if case .bool(true) = row[0] { true } else { false }
        }
    }

    private static func hex(_ text: String) -> String { text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") }

    /// Each `?` pattern's regular expression on every text prepared as the evaluator prepares it:
    /// simple text matches exactly when the evaluator's `LikePattern` does; other text is what the
    /// refusal test finds.
    @Test func likeRegexesAnswerAsTheEvaluator() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("likeregex")
        defer { database.drop() }
        let connection = try database.connect()
        var translated = 0
        for options in Self.options {
            let prepared = Self.texts.map { StringPredicates.prepared($0, options: options) }
            let notSimple = try Self.serverMatches(connection, prepared, LikeRegex.notSimple)
            for (text, refused) in zip(prepared, notSimple) {
                #expect(refused == !SimpleClusters.current.isSimple(text), "\(Self.hex(text))")
            }
            for pattern in Self.likePatterns {
                let like = LikePattern(pattern, options: options)
                guard let match = LikeRegex.clusterRegex(like.segmentElements) else { continue }
                translated += 1
                let answers: [Bool]
                switch match {
                case .regex(let regex): answers = try Self.serverMatches(connection, prepared, regex)
                case .never: answers = prepared.map { _ in false }
                }
                for (index, (text, answer)) in zip(prepared, answers).enumerated() where !notSimple[index] {
                    #expect(answer == like.matches(Self.texts[index]), "\(like) on \(Self.hex(text)): server \(answer)")
                }
            }
        }
        #expect(translated > 200)
    }

    /// Each translated MATCHES pattern on every text (prepared as the evaluator prepares a
    /// subject: NFC, `[d]`-folded, or literally under `[n]`).
    @Test func matchesRegexesAnswerAsTheEvaluator() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("matchesregex")
        defer { database.drop() }
        let connection = try database.connect()
        var translated = 0
        for options in Self.options {
            let subjects = Self.texts.map { text in
                options.contains(.normalized) ? text
                    : options.contains(.diacriticInsensitive) ? StringFolding.fold(text, options: [.diacriticInsensitive]) : StringFolding.nfc(text)
            }
            for pattern in Self.matchesPatterns {
                guard let regex = MatchesRegex.regex(pattern, options: options) else { continue }
                translated += 1
                let expression = try RegularExpression(pattern: pattern, options: options)
                let answers = try Self.serverMatches(connection, subjects, regex)
                for (text, answer) in zip(Self.texts, answers) {
                    #expect(answer == (try expression.matches(text)), "\(expression) \(options) on \(Self.hex(text)): server \(answer), regex \(regex)")
                }
            }
        }
        #expect(translated > 200)
    }

    /// Whole fetches: the predicate in the server (no residual), the evaluator's objects; a store of
    /// simple texts answers without the server refusing, one with other texts reruns in memory.
    @Test func fetchesAgreeWithTheEvaluator() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "patternfetch")
        defer { test.database.drop() }
        let store = test.store
        let reference = AtomicStore.inMemory(model: StoreTestModels.notes)
        let simple = Self.texts.filter { SimpleClusters.current.isSimple(StringFolding.nfc($0)) }
        for (index, title) in simple.enumerated() {
            let values: [String: Value] = ["title": .string(title), "rank": .int(Int64(index))]
            try store.insert("Note", id: ObjectID("n\(index)"), values)
            try reference.insert("Note", id: ObjectID("n\(index)"), values)
        }
        try store.save()
        func check(_ statements: [String], refusals: Bool) throws {
            for statement in statements {
                let request = try FetchRequest(statement: statement + " SORT BY rank")
                let generated = try store.generatedSQL(for: request)
                #expect(generated.inMemoryPredicate == nil, "\(statement): \(generated)")
                let refusedBefore = store.fetchStatistics.refused
                #expect(try store.fetch(request).objectIDs == (try reference.fetch(request).objectIDs), "\(statement)")
                if !refusals { #expect(store.fetchStatistics.refused == refusedBefore, "\(statement)") }
            }
        }
        let statements = [
            "Note WHERE title LIKE '?'", "Note WHERE title LIKE[c] 'ze?ra'", "Note WHERE NOT title LIKE 'Ze?ra'", "Note WHERE title LIKE '*?b'",
            "Note WHERE title LIKE[d] 'caf?'", "Note WHERE title LIKE[cd] '?AF?'", "Note WHERE title LIKE '??'", "Note WHERE title LIKE[n] 'x?'",
            "Note WHERE title MATCHES 'caf.'", "Note WHERE title MATCHES[d] 'caf.'", "Note WHERE title MATCHES '[a-z]+'",
            "Note WHERE title MATCHES[n] 'x.'", "Note WHERE NOT title MATCHES 'a.*'", "Note WHERE lowercase:(title) MATCHES 'stra(ss|ß)e'",
            "Note WHERE title LIKE '*😀*'", "Note WHERE NOT title LIKE 'x\u{301}*'", "Note WHERE title LIKE '???????????'",
        ]
        try check(statements, refusals: false)
        // Texts that are not simple: the server refuses `?` on them, the fetch reruns in memory.
        let others = Self.texts.filter { !SimpleClusters.current.isSimple(StringFolding.nfc($0)) }
        for (index, title) in others.enumerated() {
            let values: [String: Value] = ["title": .string(title), "rank": .int(Int64(1000 + index))]
            try store.insert("Note", id: ObjectID("o\(index)"), values)
            try reference.insert("Note", id: ObjectID("o\(index)"), values)
        }
        try store.save()
        let refusedBefore = store.fetchStatistics.refused
        try check(statements, refusals: true)
        #expect(store.fetchStatistics.refused > refusedBefore)
        // Outside the subsets: in memory.
        for statement in ["Note WHERE title MATCHES '\\\\bx'", "Note WHERE title MATCHES 'a$'", "Note WHERE title LIKE '????????????'"] {
            #expect(try store.generatedSQL(for: FetchRequest(statement: statement)).inMemoryPredicate != nil, "\(statement)")
        }
    }
}
