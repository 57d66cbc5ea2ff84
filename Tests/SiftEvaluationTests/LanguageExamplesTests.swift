import Foundation
import Testing
@testable import SiftEvaluation
import SiftLanguage

/// Every example of LANGUAGE.md, section by section, with the answer the page gives (or that
/// follows from its rules). Predicates are evaluated on ``LanguageExamplesTests/record``.
@Suite("LANGUAGE.md examples")
struct LanguageExamplesTests {
    static let released = Date(timeIntervalSinceReferenceDate: 86_400)

    /// The object the examples read.
    static let record: Value = .dictionary(ValueDictionary([
        ("name", .string("Ann")), ("age", .int(34)), ("nickname", .null), ("title", .string("Star Wars")),
        ("rating", .double(8.5)), ("price", .int(10)), ("released", .date(released)),
        ("size", .int(3)), ("in", .string("x")),
        ("tags", .array([
            .dictionary(ValueDictionary([("name", .string("sci-fi"))])),
            .dictionary(ValueDictionary([("name", .string("drama"))])),
            .dictionary(ValueDictionary([("name", .null)])),
        ])),
        ("words", .array([.string("swift"), .string("linux")])),
        ("items", .array([
            .dictionary(ValueDictionary([("price", .int(10)), ("qty", .int(2))])),
            .dictionary(ValueDictionary([("price", .double(2.5)), ("qty", .int(4))])),
            .dictionary(ValueDictionary([("price", .null), ("qty", .int(1))])),
            .dictionary(ValueDictionary([("qty", .int(3))])),  // lacks "price"
        ])),
        ("address", .dictionary(ValueDictionary([("city", .string("Oslo")), ("zip", .string("0150"))]))),
        ("empty", .array([])), ("nils", .array([.null, .null])),
    ]))

    struct Row: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [Any & Sendable]
        let expected: Bool
        var testDescription: String { "\(format) → \(expected)" }
        init(_ format: String, _ expected: Bool, _ arguments: [Any & Sendable] = []) {
            self.format = format
            self.expected = expected
            self.arguments = arguments
        }
    }

    static func check(_ rows: [Row], sourceLocation: SourceLocation = #_sourceLocation) {
        for row in rows {
            do {
                let p = try CompiledPredicate(format: row.format, arguments: row.arguments)
                #expect(try p.evaluate(record) == row.expected, "\(row.format)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(row.format): \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The error a format string gives, at parsing or compiling (or evaluating, if it gets that far).
    static func failure(_ format: String, _ arguments: [Any & Sendable] = [], variables: [String: Value] = [:]) -> (any Error)? {
        do {
            _ = try CompiledPredicate(format: format, arguments: arguments).evaluate(record, variables: variables)
            return nil
        } catch {
            return error
        }
    }

    // MARK: §1 Lexical rules

    @Test func lexicalRules() {
        Self.check([
            // Keywords are case-insensitive; whitespace is insignificant.
            Row("name == 'Ann' and age >= 30", true), Row("name == 'Ann' AND age >= 30", true), Row("name == 'Ann' aNd age >= 30", true),
            Row("  name=='Ann'AND    age>=30  ", true), Row("name == 'Ann' or age < 0", true),
            // Reserved words as keys with #; @name keys.
            Row("#size == 3", true), Row("#in == 'x'", true), Row("words.@count == 2", true),
            // Strings: either quote; one kind does not end the other; escapes.
            Row("\"it's\" == 'it\\'s'", true), Row("'say \"hi\"' == \"say \\\"hi\\\"\"", true), Row("name == \"Ann\"", true),
            Row("'a\\tb' == %@", true, ["a\tb"]), Row("'a\\nb' == %@", true, ["a\nb"]), Row("'a\\rb' == %@", true, ["a\rb"]),
            Row("'a\\\\b' == %@", true, ["a\\b"]), Row("'a\\0b' == %@", true, ["a\0b"]), Row("'\\u00e9' == 'é'", true),
            // Numbers.
            Row("42 == 42", true), Row("-7 < 0", true), Row("3.14 > 3", true), Row("9.2e-5 < 0.001", true), Row("9.2e-5 > 0", true),
            Row("0x1F == 31", true), Row("0o17 == 15", true), Row("0b101 == 5", true),
            // An integer too large for 64 bits is a double.
            Row("9223372036854775808 == 9223372036854775808.0", true), Row("9223372036854775807 < 9223372036854775808", true),
            Row("CAST(9223372036854775808, 'NSString') == '9.223372036854776e+18'", true),
            // Literals.
            Row("nickname == nil", true), Row("nickname == NULL", true), Row("TRUE == YES", true), Row("FALSE == NO", true),
            Row("TRUE == 1", true), Row("NO == 0", true), Row("SELF.name == 'Ann'", true), Row("SELF == SELF", true),
            // Aggregates.
            Row("2 IN {1, 2, 3}", true), Row("age IN {}", false), Row("{1, 2} == {1, 2}", true), Row("age IN {30 + 4, 1}", true),
            // Format arguments: %@ (an array becomes an aggregate), %K, and the C specifiers.
            Row("age IN %@", true, [[33, 34]]), Row("%K == %@", true, ["name", "Ann"]), Row("%K == 'Oslo'", true, ["address.city"]),
            Row("age == %d", true, [34]), Row("age == %i", true, [34]), Row("age == %u", true, [34]), Row("age == %ld", true, [34]),
            Row("age == %lld", true, [34]), Row("age == %lu", true, [34]), Row("rating == %f", true, [8.5]), Row("rating == %lf", true, [8.5]),
            Row("rating == %g", true, [8.5]), Row("rating == %e", true, [8.5]), Row("name == %s", true, ["Ann"]),
            Row("name == '100%%'", false),
            // Inside quotes, %@, %K and $x are plain text.
            Row("'%@' == \"%@\"", true), Row("'%K' == \"%K\"", true), Row("name == '%@'", false), Row("'$x' == \"$x\"", true),
        ])
    }

    @Test func lexicalErrors() {
        for (format, arguments) in [
            ("name == %k", ["x"]), ("age ? 1", []), ("age === 1", []), ("name == 'Ann", []), ("name == 'a\\q'", []),
            ("%K == 1", []), ("age == 1", [2]),
        ] as [(String, [Any & Sendable])] {
            #expect(Self.failure(format, arguments) is ParseError, "\(format)")
        }
    }

    // MARK: §2 Grammar and precedence

    @Test func grammarAndPrecedence() {
        Self.check([
            // AND binds tighter than OR: a OR b AND c is a OR (b AND c).
            Row("TRUEPREDICATE OR FALSEPREDICATE AND FALSEPREDICATE", true),
            Row("(TRUEPREDICATE OR FALSEPREDICATE) AND FALSEPREDICATE", false),
            Row("name == 'Bob' OR age > 30 AND age < 40", true), Row("name == 'Ann' OR age > 40 AND age < 20", true),
            Row("NOT name == 'Bob' AND age > 40", false), Row("!(age < 30)", true), Row("age > 30 && name == 'Ann'", true),
            Row("age > 40 || name == 'Ann'", true), Row("NOT NOT TRUEPREDICATE", true),
            // Arithmetic levels: unary > power (right-assoc.) > * / > + - > bitwise.
            Row("2 ** 3 ** 2 == 512", true), Row("-2 ** 2 == 4", true), Row("1 + 2 * 3 == 7", true), Row("(1 + 2) * 3 == 9", true),
            Row("10 - 4 - 3 == 3", true), Row("24 / 4 / 2 == 3", true), Row("2 + 4 & 4 == 4", true), Row("1 | 2 ^ 3 == 0", true),
            Row("1 << 2 + 1 == 8", true), Row("~0 + 1 == 0", true), Row("-age == -34", true),
            // Comparison spellings.
            Row("age = 34", true), Row("age <> 35", true), Row("age =< 34", true), Row("age => 34", true), Row("age != 34", false),
            // Postfix forms.
            Row("words[FIRST] == 'swift'", true), Row("words[LAST] == 'linux'", true), Row("words[SIZE] == 2", true),
            Row("words[1] == 'linux'", true), Row("address['city'] == 'Oslo'", true), Row("tags[0].name == 'sci-fi'", true),
            // Expression forms.
            Row("uppercase:(name) == 'ANN'", true), Row("FUNCTION(price, 'multiply:by:', 2) == 20", true),
            Row("SUBQUERY(items, $i, $i.qty > 1).@count == 3", true), Row("TERNARY(age > 30, 'old', 'young') == 'old'", true),
            Row("CAST('42', 'NSNumber') == 42", true), Row("($v := age + 1) == 35", true), Row("($v := 2) + $v == 4", true),
            Row("TRUEPREDICATE", true), Row("FALSEPREDICATE", false),
        ])
    }

    @Test func aBareExpressionIsNotAPredicate() {
        for format in ["1", "name", "'Ann'", "age + 1", ""] {
            #expect(Self.failure(format) is ParseError, "\(format)")
        }
    }

    // MARK: §3 Values and comparison

    @Test func valuesAndComparison() {
        Self.check([
            // Numbers compare numerically across kinds; booleans are numbers.
            Row("YES == 1", true), Row("age == 34.0", true), Row("rating > 8", true), Row("age == %@", true, [Decimal(34)]),
            Row("rating == %@", true, [Decimal(string: "8.5") ?? 0]), Row("NO < 1", true),
            // Strings: code-point order after NFC.
            Row("\"B\" < \"a\"", true), Row("'é' == 'e\\u0301'", true), Row("'é' > 'f'", true),
            // Dates: chronological; the literal forms.
            Row("released == CAST(86400, \"NSDate\")", true), Row("released == CAST(\"2001-01-02T00:00:00Z\", \"NSDate\")", true),
            Row("released > CAST(\"2001-01-01T23:59:59Z\", \"NSDate\")", true), Row("released == %@", true, [Self.released]),
            // No other coercion.
            Row("\"42\" == 42", false), Row("\"42\" != 42", true), Row("name < 5", false), Row("name > 5", false),
            Row("released > 5", false), Row("age BETWEEN {'a', 'z'}", false),
            // nil.
            Row("nil == nil", true), Row("nil == 5", false), Row("nickname != 5", true), Row("nickname == 5", false),
            Row("nil IN {nil, 1}", true), Row("nickname IN {nil, 1}", true), Row("nil < 5", false), Row("nil BEGINSWITH \"a\"", false),
            Row("nil LIKE \"*\"", false), Row("nil MATCHES \".*\"", false), Row("nickname > 5", false), Row("NOT (nickname > 30)", true),
            Row("NOT (nickname BEGINSWITH 'a')", true), Row("ANY nickname == 1", false), Row("ALL nickname == 1", true),
            Row("NONE nickname == 1", true), Row("nickname CONTAINS 'a'", false), Row("nickname BETWEEN {1, 2}", false),
            // Missing keys on schemaless data read as nil.
            Row("missing == nil", true), Row("missing != nil", false), Row("missing.deeper == nil", true), Row("NOT (missing > 1)", true),
        ])
    }

    @Test func orderingConstantsOfDifferentKindsIsATypeError() {
        for format in ["'a' < 1", "'a' >= 1.5", "CAST(0, 'NSDate') < 'x'", "1 > 'b'"] {
            guard let error = Self.failure(format) as? EvaluationError else {
                Issue.record("\(format): no EvaluationError")
                continue
            }
            #expect(error.code == .typeMismatch, "\(format)")
        }
    }

    @Test func typedJSONValues() throws {
        let record = try Value(json: #"""
            {"at": {"$date": "2001-01-02T00:00:00Z"}, "id": {"$uuid": "00000000-0000-0000-0000-000000000001"},
             "bytes": {"$data": "AQID"}, "amount": {"$decimal": "1.5"}}
            """#)
        let uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
        for (format, arguments) in [
            ("at == CAST(86400, 'NSDate')", []), ("id == %@", [uuid]), ("bytes == %@", [Data([1, 2, 3])]),
            ("amount == 1.5", []), ("amount > 1", []), ("amount == %@", [Decimal(string: "1.5") ?? 0]),
        ] as [(String, [Any & Sendable])] {
            #expect(try CompiledPredicate(format: format, arguments: arguments).evaluate(record), "\(format)")
        }
    }

    // MARK: §4 String operators and options

    @Test func stringOperatorsAndOptions() {
        Self.check([
            Row("\"STRASSE\" ==[c] \"straße\"", true), Row("\"Stár\" BEGINSWITH[d] \"Star\"", true), Row("\"Stár\" BEGINSWITH \"Star\"", false),
            Row("\"STÁR\" BEGINSWITH[cd] \"star\"", true), Row("title ==[n] 'Star Wars'", true), Row("title ==[l] 'Star Wars'", true),
            Row("'e\\u0301' ==[n] 'é'", false), Row("'A' ==[cn] 'a'", false), Row("'A' ==[nc] 'a'", false),
            Row("title BEGINSWITH[c] 'STAR'", true), Row("title ENDSWITH 'Wars'", true), Row("title CONTAINS 'r W'", true),
            Row("title < 'Star Wars!'", true), Row("title <=[c] 'STAR WARS'", true), Row("title !=[c] 'STAR WARS'", false),
            // An empty needle never matches, "" included, with any options; membership and LIKE are no substring search.
            Row("name BEGINSWITH ''", false), Row("name ENDSWITH ''", false), Row("name CONTAINS ''", false), Row("'' CONTAINS ''", false),
            Row("'' BEGINSWITH ''", false), Row("'' ENDSWITH[cd] ''", false), Row("'' IN name", false), Row("'' IN ''", false),
            Row("name CONTAINS[n] ''", false), Row("NOT name CONTAINS ''", true), Row("'x\\u0301' CONTAINS[d] '\\u0301'", false),
            Row("'x\\u0301' CONTAINS '\\u0301'", true), Row("{'', 'a'} CONTAINS ''", true), Row("'' IN {'', 'a'}", true),
            Row("'' LIKE ''", true), Row("name LIKE ''", false), Row("'' ==[c] ''", true),
            // LIKE: whole string; * any run, ? one character; \* \? \\ literal; nothing else special.
            Row("name LIKE 'A*'", true), Row("name LIKE 'A'", false), Row("name LIKE '*n'", true), Row("name LIKE '?nn'", true),
            Row("name LIKE '??'", false), Row("name LIKE '*'", true), Row("'a*b' LIKE 'a\\\\*b'", true), Row("'axb' LIKE 'a\\\\*b'", false),
            Row("'a?b' LIKE 'a\\\\?b'", true), Row("'axb' LIKE 'a\\\\?b'", false), Row("'a\\\\b' LIKE 'a\\\\\\\\b'", true),
            Row("'[a]' LIKE '[a]'", true), Row("'a' LIKE '[a]'", false), Row("'a.c' LIKE 'a.c'", true), Row("'abc' LIKE 'a.c'", false),
            Row("'a%' LIKE 'a%'", true), Row("'ab' LIKE 'a%'", false), Row("'a_' LIKE 'a_'", true), Row("'ab' LIKE 'a_'", false),
            Row("name LIKE[c] 'a*'", true), Row("title LIKE[cd] 'STAR*'", true),
            // MATCHES: whole-string regular expression.
            Row("name MATCHES 'A.n'", true), Row("name MATCHES 'n'", false), Row("name MATCHES '.*n.*'", true), Row("name MATCHES 'A|B'", false),
            Row("name MATCHES '[A-Z][a-z]+'", true), Row("name MATCHES[c] 'ann'", true), Row("'Stár' MATCHES[d] 'Star'", true),
            Row("'Stár' MATCHES 'Star'", false), Row("'Ä' MATCHES[cd] 'a'", true),
            // CONTAINS with a collection on the left is membership.
            Row("words CONTAINS \"swift\"", true), Row("words CONTAINS 'sw'", false), Row("words CONTAINS[c] 'SWIFT'", true),
            // IN.
            Row("age IN {33, 34}", true), Row("'swift' IN words", true), Row("'Oslo' IN address", true), Row("'city' IN address", false),
            Row("\"ar\" IN title", true), Row("\"ar\" IN name", false), Row("name IN[c] {\"ann\", \"bob\"}", true),
            Row("name IN {\"ann\", \"bob\"}", false), Row("'SWIFT' IN[c] words", true),
            // BETWEEN is lo <= x AND x <= hi.
            Row("age BETWEEN {30, 40}", true), Row("age BETWEEN {34, 34}", true), Row("age BETWEEN {35, 40}", false),
            Row("age BETWEEN {40, 30}", false), Row("rating BETWEEN {8, 9}", true), Row("name BETWEEN {'A', 'B'}", true),
            Row("released BETWEEN {CAST(0, 'NSDate'), CAST(86400, 'NSDate')}", true),
        ])
    }

    @Test func stringOptionAndPatternErrors() {
        // Unknown option letters: a parse error at that column.
        if let error = Self.failure("name ==[x] 'a'") as? ParseError {
            #expect(error.code == .unknownOption)
            #expect(error.column == 9)
        } else {
            Issue.record("no parse error for [x]")
        }
        // An invalid pattern quotes the pattern, before any object is evaluated.
        do {
            _ = try CompiledPredicate(format: "name MATCHES '(ab'")
            Issue.record("no error for an invalid pattern")
        } catch let error as EvaluationError {
            #expect(error.code == .invalidRegularExpression)
            #expect(error.message.contains("(ab"))
        } catch {
            Issue.record("\(error)")
        }
        // A pattern that only the data gives is checked at evaluation.
        let p = try? CompiledPredicate(format: "name MATCHES pattern")
        let object = Value.dictionary(ValueDictionary([("name", .string("a")), ("pattern", .string("[a"))]))
        #expect(throws: EvaluationError.self) { try p?.evaluate(object) }
    }

    // MARK: §5 Collections, aggregates and to-many key paths

    @Test func collectionsAndAggregates() {
        Self.check([
            // Qualifiers; empty collections.
            Row("ANY tags.name == 'drama'", true), Row("SOME tags.name == 'drama'", true), Row("ALL tags.name == 'drama'", false),
            Row("NONE tags.name == 'western'", true), Row("ANY empty == 1", false), Row("ALL empty == 1", true), Row("NONE empty == 1", true),
            Row("ALL words BEGINSWITH 's'", false), Row("ANY words BEGINSWITH 's'", true), Row("NONE words == 'go'", true),
            // A to-many key path yields one value per element, nil included.
            Row("tags.name.@count == 3", true), Row("ANY tags.name == nil", true), Row("tags.name == nil", true),
            // Compared without a qualifier: ANY applied to the comparison as written.
            Row("tags.name == 'drama'", true), Row("tags.name != 'x'", true), Row("tags.name != 'drama'", true),
            Row("NOT tags.name == 'x'", true), Row("NOT tags.name == 'drama'", false), Row("tags.name BEGINSWITH 'dr'", true),
            // Collection operators.
            Row("tags.@count == 3", true), Row("items.@sum.price == 12.5", true), Row("items.@avg.price == 6.25", true),
            Row("items.@min.price == 2.5", true), Row("items.@max.price == 10", true), Row("items.@count == 4", true),
            Row("items.@sum.qty == 10", true), Row("items.@unionOfObjects.price[SIZE] == 2", true),
            Row("items.@distinctUnionOfObjects.qty[SIZE] == 4", true), Row("tags.@distinctUnionOfObjects.name[SIZE] == 2", true),
            Row("words.@max == 'swift'", true), Row("words.@min == 'linux'", true),
            // Empty (or only nils): @count the element count, @sum 0, @avg/@min/@max nil.
            Row("empty.@count == 0", true), Row("empty.@sum == 0", true), Row("empty.@avg == nil", true), Row("empty.@min == nil", true),
            Row("empty.@max == nil", true), Row("nils.@count == 2", true), Row("nils.@sum == 0", true), Row("nils.@avg == nil", true),
            Row("nils.@min == nil", true), Row("nils.@max == nil", true), Row("nickname.@count == 0", true),
            // [SIZE] = count, [FIRST], [LAST], [n] 0-based; out of range nil.
            Row("words[SIZE] == words.@count", true), Row("words[FIRST] == 'swift'", true), Row("words[LAST] == 'linux'", true),
            Row("words[0] == 'swift'", true), Row("words[2] == nil", true), Row("words[-1] == nil", true), Row("empty[FIRST] == nil", true),
            Row("empty[LAST] == nil", true), Row("empty[SIZE] == 0", true),
            // SUBQUERY: the matching elements; $x bound; a bare key path reads the element.
            Row("SUBQUERY(items, $i, $i.price > 5).@count == 1", true), Row("SUBQUERY(items, $i, price > 5).@count == 1", true),
            Row("SUBQUERY(items, $i, $i.price == nil)[SIZE] == 2", true), Row("SUBQUERY(empty, $i, TRUEPREDICATE).@count == 0", true),
            Row("ANY SUBQUERY(items, $i, $i.qty >= 3).qty == 4", true), Row("SUBQUERY(tags, $t, $t.name BEGINSWITH 'd')[FIRST].name == 'drama'", true),
            // An element that lacks the key contributes nil.
            Row("items.price.@count == 4", true), Row("ANY items.price == nil", true), Row("SUBQUERY(items, $i, $i.price == nil).qty.@sum == 4", true),
        ])
    }

    // MARK: §6 Arithmetic and functions

    @Test func arithmeticAndFunctions() {
        Self.check([
            // Integers stay integers (/ truncates toward zero); a double makes a double.
            Row("7 / 2 == 3", true), Row("-7 / 2 == -3", true), Row("7 / 2.0 == 3.5", true), Row("age + 0.5 == 34.5", true),
            Row("CAST(7 / 2, 'NSString') == '3'", true), Row("CAST(2 * 1.5, 'NSString') == '3.0'", true),
            // Overflow gives a double; division or modulus by zero nil; ** always a double.
            Row("9223372036854775807 + 1 == 9223372036854775808.0", true), Row("CAST(9223372036854775807 * 2, 'NSString') == '1.8446744073709552e+19'", true),
            Row("1 / 0 == nil", true), Row("1.0 / 0 == nil", true), Row("modulus:by:(1, 0) == nil", true), Row("2 ** 2 == 4", true),
            Row("CAST(2 ** 2, 'NSString') == '4.0'", true), Row("2 ** -1 == 0.5", true),
            // Bitwise operators on integers; nil operands give nil.
            Row("6 & 3 == 2", true), Row("6 | 3 == 7", true), Row("6 ^ 3 == 5", true), Row("1 << 3 == 8", true), Row("-8 >> 1 == -4", true),
            Row("nickname + 1 == nil", true), Row("nickname * 2 == nil", true), Row("-nickname == nil", true), Row("sqrt:(nickname) == nil", true),
            Row("nickname & 1 == nil", true), Row("sum:(items.price) == 12.5", true), Row("count:(items.price) == 4", true),
            // divide:by: is /; modulus:by: takes the dividend's sign (fmod on doubles).
            Row("divide:by:(7, 2) == 3", true), Row("divide:by:(7.0, 2) == 3.5", true), Row("modulus:by:(-7, 3) == -1", true),
            Row("modulus:by:(7, -3) == 1", true), Row("modulus:by:(-7.5, 2) == -1.5", true),
            // median, mode, stddev.
            Row("median:({1, 2, 3, 4}) == 2.5", true), Row("median:({3, 1, 2}) == 2", true), Row("mode:({3, 1, 1, 3}) == 3", true),
            Row("mode:({1, 2, 2}) == 2", true), Row("stddev:({2, 4, 4, 4, 5, 5, 7, 9}) == 2", true), Row("stddev:({5}) == 0", true),
            // CAST.
            Row("CAST(nil, 'NSNumber') == nil", true), Row("CAST(nickname, 'NSString') == nil", true), Row("CAST('1.5', 'NSNumber') == 1.5", true),
            Row("CAST(age, 'NSString') == '34'", true), Row("CAST(YES, 'NSString') == '1'", true),
            Row("CAST(released, 'NSNumber') == 86400", true), Row("CAST(86400, 'NSDate') == released", true),
            // Date arithmetic adds seconds.
            Row("released + 86400 == CAST(172800, 'NSDate')", true), Row("released - 86400 == CAST(0, 'NSDate')", true),
            // Every function, with and without the trailing colons.
            Row("sum({1, 2}) == 3", true), Row("sum:({1, 2}) == 3", true), Row("count({1, nil}) == 2", true), Row("min({3, 1}) == 1", true),
            Row("max({3, 1}) == 3", true), Row("average({1, 2}) == 1.5", true), Row("median({1, 5, 2}) == 2", true), Row("mode({1, 1, 2}) == 1", true),
            Row("stddev({1, 1}) == 0", true), Row("add:to:(1, 2) == 3", true), Row("from:subtract:(5, 2) == 3", true),
            Row("multiply:by:(3, 4) == 12", true), Row("raise:toPower:(2, 3) == 8", true), Row("sqrt(16) == 4", true), Row("log(100) == 2", true),
            Row("ln(1) == 0", true), Row("exp(0) == 1", true), Row("floor(2.7) == 2", true), Row("ceiling(2.1) == 3", true), Row("abs(-3) == 3", true),
            Row("trunc(-2.7) == -2", true), Row("uppercase(name) == 'ANN'", true), Row("lowercase(name) == 'ann'", true),
            Row("canonical('Stár WARS') == 'star wars'", true), Row("now() > released", true), Row("random() < 1", true),
            Row("random() >= 0", true), Row("random:(5) < 5", true), Row("bitwiseAnd:with:(6, 3) == 2", true), Row("bitwiseOr:with:(6, 3) == 7", true),
            Row("bitwiseXor:with:(6, 3) == 5", true), Row("leftshift:by:(1, 3) == 8", true), Row("rightshift:by:(8, 3) == 1", true),
            Row("onesComplement:(0) == -1", true), Row("noindex:(age) == 34", true),
            // FUNCTION with the functions above.
            Row("FUNCTION(price, 'multiply:by:', 2) == 20", true), Row("FUNCTION(SELF, 'uppercase:', name) == 'ANN'", true),
            Row("FUNCTION(age, 'add:to:', 1) == 35", true),
            // TERNARY.
            Row("TERNARY(age > 30, 'old', 'young') == 'old'", true), Row("TERNARY(nickname != nil, 1, 2) == 2", true),
        ])
    }

    @Test func arithmeticAndFunctionErrors() {
        // Errors that do not depend on the data come before any object is evaluated.
        let atCompile: [(String, EvaluationError.Code)] = [
            ("'a' + 'b' == 'ab'", .typeMismatch), ("1.5 & 1 == 1", .typeMismatch), ("~2.5 == 1", .typeMismatch),
            ("CAST('abc', 'NSNumber') == 1", .invalidCast), ("name MATCHES '['", .invalidRegularExpression),
            ("FUNCTION(price, 'frobnicate:', 2) == 1", .unsupported),
        ]
        for (format, code) in atCompile {
            do {
                _ = try CompiledPredicate(format: format)
                Issue.record("\(format): no error before evaluating")
            } catch let error as EvaluationError {
                #expect(error.code == code, "\(format): \(error)")
            } catch {
                Issue.record("\(format): \(error)")
            }
        }
        // Unknown CAST types, unknown functions and argument mismatches are parse errors.
        for (format, arguments) in [
            ("CAST(age, 'NSThing') == 1", []), ("frobnicate(age) == 1", []), ("age == %@", []), ("age == %@", [1, 2]),
        ] as [(String, [Any & Sendable])] {
            let error = Self.failure(format, arguments)
            #expect(error is ParseError || (error as? EvaluationError)?.code == .invalidCast, "\(format): \(String(describing: error))")
        }
        if let error = Self.failure("frobnicate(age) == 1") as? ParseError {
            #expect(error.message.contains("sum:(x)"), "how functions are written is shown: \(error.message)")
        }
        // Errors that depend on the data come at evaluation and name the expression and kinds.
        for (format, code) in [("name + 1 == 2", EvaluationError.Code.typeMismatch), ("name & 1 == 1", .typeMismatch),
                               ("name + name == 'x'", .typeMismatch), ("CAST(name, 'NSNumber') == 1", .invalidCast)] {
            guard let error = Self.failure(format) as? EvaluationError else {
                Issue.record("\(format): no EvaluationError")
                continue
            }
            #expect(error.code == code, "\(format): \(error)")
        }
        // An unbound variable names it.
        guard let error = Self.failure("age > $minimum") as? EvaluationError else {
            Issue.record("no error for an unbound variable")
            return
        }
        #expect(error.code == .unboundVariable)
        #expect(error.message.contains("$minimum"))
        #expect(Self.failure("age > $minimum", variables: ["minimum": .int(1)]) == nil)
    }

    // MARK: §7 Canonical printing

    @Test func canonicalPrinting() throws {
        for (format, canonical) in [
            ("a = 1", "a == 1"), ("a <> 1", "a != 1"), ("a =< 1", "a <= 1"), ("a => 1", "a >= 1"),
            ("a beginswith[dc] 'x'", "a BEGINSWITH[cd] \"x\""), ("a ==[ldnc] 'x'", "a ==[cdnl] \"x\""),
            ("a == 'it\\'s'", "a == \"it's\""), ("a == \"q\\\"\\\\\"", "a == \"q\\\"\\\\\""), ("a == 'é\\n'", "a == \"é\\n\""),
            ("a == YES", "a == 1"), ("a == NO", "a == 0"), ("a == NULL", "a == nil"), ("a IN {1, 2}", "a IN {1, 2}"),
            ("a == CAST(0, 'NSDate')", "a == CAST(0.0, \"NSDate\")"),
            ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"), ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
            ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"), ("a == 1 AND b == 2 AND c == 3", "a == 1 AND b == 2 AND c == 3"),
            ("NOT a == 1", "NOT a == 1"), ("SOME a == 1", "ANY a == 1"), ("#size == 1", "#size == 1"),
            ("a == 2.0", "a == 2.0"), ("a == 0.1", "a == 0.1"), ("a == 1e100", "a == 1e+100"), ("a == 42", "a == 42"),
            ("sum(x) == 1", "sum:(x) == 1"), ("add:to:(1, 2) == 3", "add:to:(1, 2) == 3"), ("now() > a", "now() > a"),
        ] {
            #expect(try PredicateNode(format: format).description == canonical, "\(format)")
            // The canonical form reads back to the same predicate.
            #expect(try PredicateNode(format: canonical).description == canonical, "\(canonical)")
        }
        #expect(try PredicateNode(format: "%K == %@ AND b == $x", "a", "v").substituting(variables: ["x": 1]).description == "a == \"v\" AND b == 1")
    }

    // MARK: §8 Errors

    @Test func errorsSayWhatAndWhere() {
        guard let error = Self.failure("name BEGINSWTH 'a'") as? ParseError else {
            Issue.record("no parse error")
            return
        }
        #expect(error.column == 6)
        #expect(error.token == "BEGINSWTH")
        #expect(error.suggestion == "BEGINSWITH")
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        // 200 levels are accepted (and evaluate); far deeper is an error.
        let ok = String(repeating: "(", count: 200) + "age > 30" + String(repeating: ")", count: 200)
        #expect(try CompiledPredicate(format: ok).evaluate(Self.record))
        let nots = String(repeating: "NOT ", count: 200) + "age > 30"
        #expect(try CompiledPredicate(format: nots).evaluate(Self.record))
        let deep = String(repeating: "(", count: 100_000) + "age > 30" + String(repeating: ")", count: 100_000)
        #expect(Self.failure(deep) is ParseError)
    }
}
