import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import Testing

/// One string operation case: two operands and the options.
struct StringCase: Sendable, CustomStringConvertible {
    let a: SQLiteValue
    let b: SQLiteValue
    let options: ComparisonOptions

    init(_ a: SQLiteValue, _ b: SQLiteValue, _ options: ComparisonOptions = []) {
        self.a = a
        self.b = b
        self.options = options
    }

    var description: String { "\(a) ? \(b) \(options)" }

    var bindings: [SQLiteValue] { [a, b, .integer(Int64(options.rawValue))] }

    /// Both operands as strings, when both are text.
    var strings: (String, String)? {
        guard case .text(let x) = a, case .text(let y) = b else { return nil }
        return (x, y)
    }
}

/// A database with Sift's functions registered.
func siftDatabase() throws -> SQLiteDatabase {
    let database = try SQLiteDatabase.inMemory()
    try SiftSQLFunctions.register(on: database)
    return database
}

/// `a OP[options] b` through the in-memory evaluator, with the operands as keys of an object and,
/// separately, with `b` as a constant (the evaluator's compiled-once path).
func evaluatorResults(_ op: String, _ a: String, _ b: String, _ options: ComparisonOptions) throws -> [Bool] {
    let object = Value.dictionary(ValueDictionary([("a", .string(a)), ("b", .string(b))]))
    let keyed = try CompiledPredicate(format: "a \(op)\(options) b")
    let constant = try CompiledPredicate(format: "a \(op)\(options) %@", b)
    return [try keyed.evaluate(object), try constant.evaluate(object)]
}

@Suite struct SQLFunctionsTests {
    static let cases: [StringCase] = [
        // ß and STRASSE: [c] folds ß to ss.
        StringCase(.text("straße"), .text("STRASSE"), [.caseInsensitive]),
        StringCase(.text("STRASSE"), .text("straße"), [.caseInsensitive]),
        StringCase(.text("Straße"), .text("strasse")),
        StringCase(.text("ß"), .text("SS"), [.caseInsensitive, .diacriticInsensitive]),
        StringCase(.text("Maßstab"), .text("SST"), [.caseInsensitive]),
        StringCase(.text("ẞ"), .text("ss"), [.caseInsensitive]),
        // é precomposed and decomposed.
        StringCase(.text("caf\u{E9}"), .text("cafe\u{301}")),
        StringCase(.text("caf\u{E9}"), .text("cafe\u{301}"), [.normalized]),
        StringCase(.text("caf\u{E9}"), .text("cafe"), [.diacriticInsensitive]),
        StringCase(.text("CAF\u{C9}"), .text("cafe\u{301}"), [.caseInsensitive]),
        StringCase(.text("\u{E9}"), .text("e")),
        StringCase(.text("e\u{301}x"), .text("\u{E9}")),
        StringCase(.text("d\u{E9}j\u{E0}"), .text("DEJA"), [.caseInsensitive, .diacriticInsensitive]),
        // Å: the letter, the Ångström sign, A with a combining ring.
        StringCase(.text("\u{C5}"), .text("\u{212B}")),
        StringCase(.text("\u{C5}"), .text("A\u{30A}")),
        StringCase(.text("\u{C5}sa"), .text("a"), [.caseInsensitive, .diacriticInsensitive]),
        StringCase(.text("\u{212B}ngstr\u{F6}m"), .text("ANGSTROM"), [.caseInsensitive, .diacriticInsensitive]),
        StringCase(.text("\u{C5}"), .text("\u{E5}"), [.caseInsensitive]),
        // Emoji, including a ZWJ sequence and a skin tone.
        StringCase(.text("👩‍👩‍👧 family"), .text("👩")),
        StringCase(.text("a🎉b"), .text("🎉"), [.caseInsensitive]),
        StringCase(.text("👍🏽"), .text("👍")),
        StringCase(.text("🎉"), .text("🎉"), [.caseInsensitive, .diacriticInsensitive]),
        // Empty needle and empty strings (an empty needle never matches), and needles that
        // [d] folds to empty (a lone mark).
        StringCase(.text("abc"), .text("")),
        StringCase(.text(""), .text("")),
        StringCase(.text(""), .text("a")),
        StringCase(.text(""), .text(""), [.caseInsensitive]),
        StringCase(.text("abc"), .text(""), [.caseInsensitive, .diacriticInsensitive]),
        StringCase(.text(""), .text(""), [.normalized]),
        StringCase(.text("x\u{301}"), .text("\u{301}")),
        StringCase(.text("x\u{301}"), .text("\u{301}"), [.diacriticInsensitive]),
        StringCase(.text("x\u{301}"), .text("\u{301}"), [.caseInsensitive, .diacriticInsensitive]),
        StringCase(.text("\u{301}"), .text("\u{301}"), [.diacriticInsensitive, .normalized]),
        // [n] wins over [c]/[d]; [l] changes nothing.
        StringCase(.text("ABC"), .text("abc"), [.caseInsensitive, .normalized]),
        StringCase(.text("\u{E9}"), .text("e"), [.diacriticInsensitive, .normalized]),
        StringCase(.text("ABC"), .text("abc"), [.localeSensitive]),
        StringCase(.text("ABC"), .text("abc"), [.caseInsensitive, .localeSensitive]),
        // Other scripts and special foldings.
        StringCase(.text("İstanbul"), .text("i\u{307}STANBUL"), [.caseInsensitive]),
        StringCase(.text("ΣΑΣ"), .text("σας"), [.caseInsensitive]),
        StringCase(.text("\u{1FB3}"), .text("\u{3B1}\u{3B9}"), [.caseInsensitive, .diacriticInsensitive]),
        StringCase(.text("\u{1FB3}"), .text("\u{3B1}"), [.diacriticInsensitive]),
        StringCase(.text("ﬁle"), .text("FILE"), [.caseInsensitive]),
        StringCase(.text("Hello World"), .text("WORLD"), [.caseInsensitive]),
        StringCase(.text("hello"), .text("HELLO"), [.caseInsensitive, .diacriticInsensitive]),
        StringCase(.text("B"), .text("a")),
        StringCase(.text("a\u{0}b"), .text("\u{0}")),
        // LIKE and MATCHES patterns (also run through the other operators).
        StringCase(.text("straße"), .text("STRA*"), [.caseInsensitive]),
        StringCase(.text("ß"), .text("??"), [.caseInsensitive]),
        StringCase(.text("ß"), .text("?")),
        StringCase(.text("abc"), .text("a?c")),
        StringCase(.text("a*c"), .text("a\\*c")),
        StringCase(.text("x"), .text("*")),
        StringCase(.text("\u{C5}ngstr\u{F6}m"), .text("A*m"), [.diacriticInsensitive]),
        StringCase(.text("caf\u{E9}"), .text("caf."), []),
        StringCase(.text("CAF\u{C9}"), .text("caf\u{E9}"), [.caseInsensitive]),
        StringCase(.text("caf\u{E9}"), .text("cafe"), [.diacriticInsensitive]),
        StringCase(.text("Maße"), .text("MASSE"), [.caseInsensitive]),
        StringCase(.text("123"), .text("\\d+")),
        StringCase(.text("ab"), .text("a|ab")),
        // NULLs and non-text.
        StringCase(.null, .text("a")),
        StringCase(.text("a"), .null),
        StringCase(.null, .null, [.caseInsensitive]),
        StringCase(.integer(1), .text("1")),
        StringCase(.text("1"), .integer(1)),
        StringCase(.real(1.5), .text("1.5"), [.caseInsensitive]),
        StringCase(.blob([0x61]), .text("a")),
        StringCase(.integer(1), .null),
    ]

    /// The SQL function's answer for `sql` with the case's bindings.
    static func sql(_ function: String, _ c: StringCase, in database: SQLiteDatabase) throws -> SQLiteValue {
        try database.scalar("SELECT \(function)(?, ?, ?)", c.bindings)
    }

    /// NULL when either operand is NULL, else 0: the answer of a test on operands that are not both text.
    static func nonTextAnswer(_ c: StringCase) -> SQLiteValue {
        if c.a == .null || c.b == .null { return .null }
        return .integer(0)
    }

    static func bit(_ b: Bool) -> SQLiteValue { .integer(b ? 1 : 0) }

    @Test(arguments: cases)
    func stringTestsAgreeWithStringPredicates(_ c: StringCase) throws {
        let database = try siftDatabase()
        let tests: [(String, String, (String, String, ComparisonOptions) -> Bool)] = [
            ("sift_equals", "==", { StringPredicates.equals($0, $1, options: $2) }),
            ("sift_beginswith", "BEGINSWITH", { StringPredicates.beginsWith($0, $1, options: $2) }),
            ("sift_endswith", "ENDSWITH", { StringPredicates.endsWith($0, $1, options: $2) }),
            ("sift_contains", "CONTAINS", { StringPredicates.contains($0, $1, options: $2) }),
            ("sift_like", "LIKE", { LikePattern($1, options: $2).matches($0) }),
        ]
        for (function, op, test) in tests {
            let result = try Self.sql(function, c, in: database)
            guard let (a, b) = c.strings else {
                #expect(result == Self.nonTextAnswer(c), "\(function)")
                continue
            }
            let expected = test(a, b, c.options)
            #expect(result == Self.bit(expected), "\(function)")
            for evaluated in try evaluatorResults(op, a, b, c.options) {
                #expect(evaluated == expected, "evaluator \(op)")
            }
        }
    }

    @Test(arguments: cases)
    func compareAgreesWithStringPredicates(_ c: StringCase) throws {
        let database = try siftDatabase()
        let result = try Self.sql("sift_compare", c, in: database)
        guard let (a, b) = c.strings else {
            // No order, as in ValueComparison.order.
            #expect(result == .null)
            return
        }
        let expected = StringPredicates.compare(a, b, options: c.options)
        #expect(result == .integer(Int64(expected)))
        #expect(try evaluatorResults("<", a, b, c.options) == [expected < 0, expected < 0])
        #expect(try evaluatorResults(">=", a, b, c.options) == [expected >= 0, expected >= 0])
    }

    @Test(arguments: cases)
    func matchesAgreesWithRegularExpression(_ c: StringCase) throws {
        let database = try siftDatabase()
        guard let (a, b) = c.strings else {
            #expect(try Self.sql("sift_matches", c, in: database) == Self.nonTextAnswer(c))
            return
        }
        do {
            let expected = try RegularExpression(pattern: b, options: c.options).matches(a)
            #expect(try Self.sql("sift_matches", c, in: database) == Self.bit(expected))
            #expect(try evaluatorResults("MATCHES", a, b, c.options) == [expected, expected])
        } catch let expected as EvaluationError {
            // An invalid pattern ("??"): the SQL error carries the evaluator's error.
            do {
                _ = try Self.sql("sift_matches", c, in: database)
                Issue.record("no error for pattern \(b)")
            } catch let error as SQLiteError {
                #expect(error.underlying as? EvaluationError == expected)
            }
        }
    }

    @Test(arguments: cases)
    func foldAgreesWithStringFolding(_ c: StringCase) throws {
        let database = try siftDatabase()
        let result = try database.scalar("SELECT sift_fold(?, ?)", [c.a, .integer(Int64(c.options.rawValue))])
        if case .text(let a) = c.a {
            let folded = StringFolding.fold(a, options: c.options)
            #expect(result == .text(folded))
            // Byte-exact: folding [c]/[d] gives NFC.
            if case .text(let text) = result { #expect(Array(text.utf8) == Array(folded.utf8)) }
        } else {
            #expect(result == c.a)
        }
    }

    @Test func foldExamples() throws {
        let database = try siftDatabase()
        #expect(try database.scalar("SELECT sift_fold('Straße', 1)") == .text("strasse"))
        #expect(try database.scalar("SELECT sift_fold('Stár', 2)") == .text("Star"))
        #expect(try database.scalar("SELECT sift_fold('Stár', 7)") == .text("Stár"))
        #expect(try database.scalar("SELECT sift_fold(NULL, 3)") == .null)
    }

    @Test func optionsMustBeAKnownInteger() throws {
        let database = try siftDatabase()
        for options: SQLiteValue in [.text("c"), .null, .integer(16), .integer(-1), .real(1)] {
            do {
                _ = try database.scalar("SELECT sift_equals('a', 'A', ?)", [options])
                Issue.record("options \(options) accepted")
            } catch {
                #expect((error.underlying as? EvaluationError)?.code == .invalidArgument)
                #expect(error.message.contains("sift_equals"))
            }
        }
        #expect(try database.scalar("SELECT sift_equals('a', 'A', 15)") == .integer(0))  // [n] wins
        #expect(try database.scalar("SELECT sift_equals('a', 'A', 9)") == .integer(1))   // [cl]
    }

    @Test func invalidRegularExpressionFailsWithTheEvaluatorsError() throws {
        let database = try siftDatabase()
        var expected: EvaluationError?
        do {
            _ = try RegularExpression(pattern: "a(b", options: [])
        } catch {
            expected = error
        }
        #expect(expected?.code == .invalidRegularExpression)
        try database.execute("CREATE TABLE t(s); INSERT INTO t VALUES ('ab'), (NULL)")
        for sql in ["SELECT sift_matches('ab', 'a(b', 0)", "SELECT sift_matches(s, ?, 0) FROM t", "SELECT sift_matches(NULL, 'a(b', 0)"] {
            do {
                _ = try database.rows(sql, sql.contains("?") ? [.text("a(b")] : [])
                Issue.record("no error: \(sql)")
            } catch {
                #expect(error.underlying as? EvaluationError == expected, "\(sql)")
                #expect(error.message == expected?.message)
            }
        }
    }

    @Test func regularExpressionLimitIsTheEvaluatorsError() throws {
        let database = try siftDatabase()
        let subject = String(repeating: "a", count: 40) + "b"
        do {
            _ = try database.scalar("SELECT sift_matches(?, '(a+)+$', 0)", [.text(subject)])
            Issue.record("catastrophic backtracking finished")
        } catch {
            #expect((error.underlying as? EvaluationError)?.code == .regularExpressionLimit)
        }
    }
}

@Suite struct SQLFunctionsCachingTests {
    /// A thousand rows, "row 0" … "row 999", with every tenth in capitals.
    static func database() throws -> (SQLiteDatabase, [String]) {
        let database = try siftDatabase()
        try database.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT, o INTEGER)")
        var strings: [String] = []
        try database.inTransaction {
            for i in 0..<1000 {
                let s = i % 10 == 0 ? "ROW \(i)" : "row \(i)"
                strings.append(s)
                try database.run("INSERT INTO t(id, s, o) VALUES (?, ?, ?)", [.integer(Int64(i)), .text(s), .integer(Int64(i % 2))])
            }
        }
        return (database, strings)
    }

    @Test func matchingAThousandRowsAgainstOnePattern() throws {
        let (database, strings) = try Self.database()
        for options: ComparisonOptions in [[], [.caseInsensitive]] {
            let regex = try RegularExpression(pattern: "row \\d*7", options: options)
            let expected = try strings.filter { try regex.matches($0) }.count
            let count = try database.scalar("SELECT count(*) FROM t WHERE sift_matches(s, ?, ?)",
                                            [.text("row \\d*7"), .integer(Int64(options.rawValue))])
            #expect(count == .integer(Int64(expected)))
            let like = LikePattern("row *7", options: options)
            let likeCount = try database.scalar("SELECT count(*) FROM t WHERE sift_like(s, 'row *7', ?)",
                                                [.integer(Int64(options.rawValue))])
            #expect(likeCount == .integer(Int64(strings.filter { like.matches($0) }.count)))
        }
    }

    @Test func cachedPatternIsNotReusedForOtherOptions() throws {
        let (database, strings) = try Self.database()
        // The pattern is constant but the options vary by row: odd rows caseless.
        let rows = try database.rows("SELECT id, sift_like(s, 'ROW *', o), sift_matches(s, 'ROW .*', o) FROM t ORDER BY id")
        #expect(rows.count == 1000)
        for row in rows {
            guard case .integer(let id) = row[0] else { Issue.record("no id"); continue }
            let options: ComparisonOptions = id % 2 == 1 ? [.caseInsensitive] : []
            let s = strings[Int(id)]
            let like = LikePattern("ROW *", options: options).matches(s)
            let matches = try RegularExpression(pattern: "ROW .*", options: options).matches(s)
            #expect(row[1] == .integer(like ? 1 : 0))
            #expect(row[2] == .integer(matches ? 1 : 0))
        }
    }

    @Test func patternsFromAColumn() throws {
        let database = try siftDatabase()
        try database.execute("""
            CREATE TABLE p(id INTEGER PRIMARY KEY, s, pattern);
            INSERT INTO p(s, pattern) VALUES ('abc', 'a*'), ('abc', 'b*'), ('abc', '*c'), ('abc', 'a?c'), ('abc', 'abc');
            """)
        let like = try database.rows("SELECT sift_like(s, pattern, 0) FROM p ORDER BY id").map { $0[0] }
        #expect(like == [.integer(1), .integer(0), .integer(1), .integer(1), .integer(1)])
        let matches = try database.rows("SELECT sift_matches(s, replace(pattern, '*', '.*'), 0) FROM p ORDER BY id").map { $0[0] }
        #expect(matches == [.integer(1), .integer(0), .integer(1), .integer(0), .integer(1)])
    }
}

@Suite struct SQLCollationTests {
    static let strings = [
        "b", "B", "a", "A", "\u{E9}", "e\u{301}", "E", "e", "f", "file10", "file2", "File2", "file02", "file1",
        "ß", "ss", "SS", "st", "\u{C5}", "\u{212B}ngstr\u{F6}m", "Angstrom", "z", "Z", "🎉", "", "a1", "a01",
        "a10", "a9", "x99y", "x100y", "ΣΑΣ", "σας", "İ", "i", "ﬁ", "fi", "café", "Cafe", "cafe", "100", "99",
    ]

    @Test(arguments: StringComparator.allCases)
    func orderByCollationMatchesSwiftSort(_ comparator: StringComparator) throws {
        let database = try siftDatabase()
        try database.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT)")
        // The store keeps NFC text (so BINARY is code-point order for .compare).
        let stored = Self.strings.map { comparator == .compare ? StringFolding.nfc($0) : $0 }
        for (i, s) in stored.enumerated() {
            try database.run("INSERT INTO t(id, s) VALUES (?, ?)", [.integer(Int64(i)), .text(s)])
        }
        let collation = SiftSQLFunctions.collationName(for: comparator).map { " COLLATE \($0)" } ?? ""
        let ids = try database.rows("SELECT id FROM t ORDER BY s\(collation), id").compactMap { row -> Int? in
            guard case .integer(let id) = row[0] else { return nil }
            return Int(id)
        }
        let expected = stored.indices.sorted { x, y in
            let order = comparator.compare(stored[x], stored[y])
            return order != 0 ? order < 0 : x < y
        }
        #expect(ids == expected)
        // And descending (ties still by id).
        let descending = try database.rows("SELECT id FROM t ORDER BY s\(collation) DESC, id").compactMap { row -> Int? in
            guard case .integer(let id) = row[0] else { return nil }
            return Int(id)
        }
        let expectedDescending = stored.indices.sorted { x, y in
            let order = comparator.compare(stored[x], stored[y])
            return order != 0 ? order > 0 : x < y
        }
        #expect(descending == expectedDescending)
    }

    @Test func collationNames() {
        #expect(SiftSQLFunctions.collationName(for: .compare) == nil)
        #expect(SiftSQLFunctions.collationName(for: .caseInsensitiveCompare) == "sift_case_insensitive")
        #expect(SiftSQLFunctions.collationName(for: .localizedCompare) == "sift_localized")
        #expect(SiftSQLFunctions.collationName(for: .localizedCaseInsensitiveCompare) == "sift_localized_case_insensitive")
        #expect(SiftSQLFunctions.collationName(for: .localizedStandardCompare) == "sift_localized_standard")
    }

    @Test func collationEquality() throws {
        let database = try siftDatabase()
        #expect(try database.scalar("SELECT 'Straße' = 'STRASSE' COLLATE sift_case_insensitive") == .integer(1))
        #expect(try database.scalar("SELECT 'café' = 'CAFE' COLLATE sift_localized_case_insensitive") == .integer(1))
        #expect(try database.scalar("SELECT 'café' = 'CAFE' COLLATE sift_localized") == .integer(0))
        #expect(try database.scalar("SELECT 'file2' < 'file10' COLLATE sift_localized_standard") == .integer(1))
    }
}

@Suite struct SQLSumTests {
    static func evaluatorSum(_ values: [Value]) throws -> Value {
        try CompiledExpression(format: "xs.@sum").evaluate(.dictionary(ValueDictionary([("xs", .array(values))])))
    }

    static func sqlValue(_ value: Value) -> SQLiteValue {
        switch value {
        case .int(let i): .integer(i)
        case .double(let d): .real(d)
        case .string(let s): .text(s)
        default: .null
        }
    }

    static let groups: [[Value]] = [
        [],
        [.null],
        [.int(1), .int(2), .int(3)],
        [.int(Int64.max), .int(1)],
        [.int(Int64.max), .int(1), .int(-1)],
        [.int(Int64.min), .int(-1)],
        [.int(1), .double(0.5)],
        [.double(0.1), .double(0.2)],
        [.int(5), .null, .int(7)],
        [.int(5), .string("12"), .int(7)],
        [.string("x")],
    ]

    @Test(arguments: groups)
    func sumAgreesWithTheEvaluator(_ values: [Value]) throws {
        let database = try siftDatabase()
        try database.execute("CREATE TABLE t(x)")
        for value in values { try database.run("INSERT INTO t VALUES (?)", [Self.sqlValue(value)]) }
        let result = try database.scalar("SELECT sift_group_sum(x, rowid) FROM t")
        let expected = Self.sqlValue(try Self.evaluatorSum(values))
        #expect(result == expected)
        #expect(try database.scalar("SELECT typeof(sift_group_sum(x, rowid)) FROM t") == .text(expected == .null ? "null" : (expected.isInteger ? "integer" : "real")))
    }

    @Test func sumPerGroupAndOverflow() throws {
        let database = try siftDatabase()
        try database.execute("""
            CREATE TABLE t(g, x);
            INSERT INTO t VALUES ('a', 9223372036854775807), ('a', 1), ('b', 2), ('b', NULL), ('c', NULL);
            """)
        let rows = try database.rows("SELECT g, sift_group_sum(x, rowid) FROM t GROUP BY g ORDER BY g")
        #expect(rows == [
            [.text("a"), .real(9223372036854775808.0)],
            [.text("b"), .integer(2)],
            [.text("c"), .integer(0)],
        ])
        // SQLite's own sum() fails on that overflow; sift_group_sum follows the evaluator instead.
        #expect(throws: SQLiteError.self) { try database.scalar("SELECT sum(x) FROM t WHERE g = 'a'") }
    }

    /// Decimals (`'e'`) are summed as they come, keeping at most `keptLimit` values: in any
    /// order when no order could change the sum, in key order when SQLite feeds them so, and
    /// from the kept values otherwise — always the evaluator's sum in key order.
    @Test(arguments: [
        // Money: order-free, fed backwards, past the kept values.
        ("money backwards", 150_000, true, false),
        // 38-digit terms (the sum rounds, so order matters), fed in key order past the kept values.
        ("wide in order", 150_000, false, false),
        // The same fed backwards, within the kept values: summed from them in key order.
        ("wide backwards, kept", 5_000, false, true),
    ])
    func decimalSumsStreamAsTheEvaluatorSums(_ name: String, _ count: Int, _ money: Bool, _ backwards: Bool) throws {
        let database = try siftDatabase()
        try database.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, x)")
        var values: [Value] = []
        try database.inTransaction {
            for k in 1...count {
                let text = money ? "\(k % 100_000).\(k % 7)\(k % 10)" : (k % 3 == 0 ? "0.0000000000000000000000000000000000001" : "12345678901234567890123456789012345678")
                // Money also as REAL (a NUMERIC column of a database Sift did not create),
                // read through its shortest text; and as INTEGER.
                let stored: SQLiteValue = money && k % 3 == 1 ? .real(Double(text)!) : money && k % 5 == 0 ? .integer(Int64(k)) : .text(text)
                values.append(SQLArgumentKind.decimal.value(of: stored))
                try database.run("INSERT INTO t VALUES (?, ?)", [.integer(Int64(k)), stored])
            }
        }
        let order = money || backwards ? "DESC" : "ASC"
        for function in ["sum", "average"] {
            let result = try database.scalar("SELECT sift_group_\(function)(x, k, 'e') FROM (SELECT k, x FROM t ORDER BY k \(order))")
            let expected = function == "sum" ? Aggregates.sum(values) : Aggregates.average(values)
            guard case .decimal(let decimal) = expected else { Issue.record("\(expected)"); continue }
            #expect(result == .text(DecimalText.text(decimal)), "\(name) \(function)")
        }
    }

    /// Digits read straight from text are the decimal `Decimal(string:)` reads; any other
    /// shape is left to it.
    @Test(arguments: ["0", "-0", "12.50", "-12.5", "0.001", "1e-05", "5e+20", "1.2345678901234567e+20", "123456789012345678",
                      "-0.000000000000000001", "9.999999999999999e-80", "1E3", "12", "4.35"])
    func decimalDigitsAreTheDecimalOfTheText(_ text: String) throws {
        let digits = try #require(DecimalDigits.parse(text.utf8), "\(text)")
        let decimal = Decimal(sign: digits.significand < 0 ? .minus : .plus, exponent: digits.exponent, significand: Decimal(digits.significand.magnitude))
        #expect(decimal == Decimal(string: text), "\(text)")
    }

    /// A double's digits, by the shortcut or through its text, are the decimal its shortest
    /// text is: money, random doubles of every size, and the awkward ones.
    @Test func aDoublesDigitsAreTheDecimalOfItsShortestText() throws {
        var generator = SystemRandomNumberGenerator()
        var doubles: [Double] = [0, -0.0, 0.1, 0.2, 0.3, 1.005, 2.675, 0.07, 123456.78, -999999999.99, 1e-7, Double.leastNonzeroMagnitude, 1e300,
                                 Double.ulpOfOne, 1 / 3, 2 / 3, 999999999.999999, 0.000001, 4.35, 8.675]
        for _ in 0..<20_000 {
            doubles.append(Double(Int.random(in: -10_000_000_000...10_000_000_000, using: &generator)) / 100)
            doubles.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / [1, 10, 1_000, 1_000_000][Int.random(in: 0...3, using: &generator)])
            doubles.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
            doubles.append(Double.random(in: -1e9...1e9, using: &generator))
        }
        for double in doubles where double.isFinite {
            let text = "\(double)"
            guard let expected = Decimal(string: text) else { continue }
            guard let digits = DecimalDigits.of(double) else {
                #expect(DecimalDigits.parse(text.utf8) == nil, "\(text)")
                continue
            }
            let decimal = Decimal(sign: digits.significand < 0 ? .minus : .plus, exponent: digits.exponent, significand: Decimal(digits.significand.magnitude))
            #expect(decimal == expected, "\(text): \(digits)")
        }
    }

    @Test(arguments: ["", "-", ".5", "1.", "1e", "1e+", "12abc", " 12", "+1", "NaN", "Inf", "1234567890123456789", "1e-200", "1.2.3", "0x10"])
    func otherTextIsLeftToDecimal(_ text: String) {
        #expect(DecimalDigits.parse(text.utf8) == nil, "\(text)")
    }

    /// Terms whose sum depends on their order, fed out of key order past the values kept: an
    /// error that says so, never a sum in another order.
    @Test func aDecimalSumThatDependsOnAnOrderItCannotFollowIsAnError() throws {
        let database = try siftDatabase()
        try database.execute("""
            CREATE TABLE t(k INTEGER PRIMARY KEY, x TEXT);
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 150000)
            INSERT INTO t SELECT k, CASE WHEN k % 3 = 0 THEN '0.0000000000000000000000000000000000001' ELSE '12345678901234567890123456789012345678' END FROM n;
            """)
        let error = #expect(throws: SQLiteError.self) {
            try database.scalar("SELECT sift_group_sum(x, k, 'e') FROM (SELECT k, x FROM t ORDER BY k DESC)")
        }
        #expect(error?.message.contains("depends on the order of its terms") == true, "\(String(describing: error))")
    }
}

extension SQLiteValue {
    var isInteger: Bool {
        if case .integer = self { return true }
        return false
    }
}
